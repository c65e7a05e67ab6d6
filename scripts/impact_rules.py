"""The labelling rules of benchmarks/impact/rules.toml: a rule labels a finding only when its
claim is checked for that finding.

A rule selects findings (their rule, project, file, API or statement) and states a claim that
``check`` verifies against each one's facts (impact_facts.py, published with the finding):

- ``text-parts``: every non-literal part of the text that reaches the sink matches one of
  ``parts`` (regular expressions over the part's source text: ``^quote_identifier\\(`` says "a
  call of quote_identifier"); a text with no non-literal part is literal in fact, never a
  rule's benign idiom;
- ``test-code``: the finding is in the project's tests (a ``test``/``tests``/``testing``
  folder, a ``test_*.py``, ``*_test.py`` or ``conftest.py`` module);
- ``log-without-arguments``: no formatting argument follows the message, the logger comes
  from one of ``loggers`` (impact_logging.py: ``logging.getLogger()``...) and the project does
  not change the standard loggers (``setLoggerClass``, ``setLogRecordFactory``, a
  ``getMessage`` or ``makeRecord`` of its own), unless the places it does are listed in
  ``setup`` as read and harmless (``"<project> <file>:<line> <name>"``).

A finding the filters select but whose claim fails is not labelled by the rule: it takes the
next rule, else it stays unlabelled until it is read at its site, and the report says which
rule refused it and why.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable, Mapping, cast

import tomlkit

from scripts.impact_model import Found

CHECKS = ("text-parts", "log-without-arguments", "test-code")
# Where a project keeps its tests: a folder of these names, or a file named like a test module.
TEST_FOLDERS = frozenset({"test", "tests", "testing"})


@dataclass(frozen=True)
class Rule:
    id: str
    rules: tuple[str, ...]  # the findings' rules it applies to (LS302, ...)
    verdict: str
    idiom: str
    harm: str
    why: str
    check: str  # one of CHECKS: how its claim is verified per finding
    kind: str = ""  # mistake: its kind
    except_projects: tuple[str, ...] = ()
    projects: tuple[str, ...] = ()  # only these, when given
    statement: str = ""  # a regular expression the statement must match, when given
    file: str = ""  # a regular expression the file's path must match, when given
    api: str = ""  # a regular expression the finding's API must match, when given
    parts: tuple[str, ...] = ()  # text-parts: what each non-literal part may be
    loggers: tuple[str, ...] = ()  # log-without-arguments: the loggers it holds for
    setup: tuple[str, ...] = ()  # log-without-arguments: setup places read and harmless
    sampled: tuple[str, ...] = field(default=())  # "project file:line" read by hand

    def matches(self, found: Found) -> bool:
        """Whether the rule selects the finding (its claim is checked apart: ``refuses``)."""
        return (
            found.rule in self.rules
            and found.project not in self.except_projects
            and (not self.projects or found.project in self.projects)
            and (not self.statement or re.search(self.statement, found.line) is not None)
            and (not self.file or re.search(self.file, found.file) is not None)
            and (not self.api or re.search(self.api, found.api) is not None)
        )

    def refuses(
        self, found: Found, facts: Mapping[str, object], project: Mapping[str, object]
    ) -> str:
        """Why the rule's claim does not hold for ``found``, whose facts and project's facts
        are given ("" if it holds).  A text with no non-literal part is literal in fact: the
        tool's mistake, never a rule's benign idiom."""
        if self.verdict != "mistake" and facts.get("text") == []:
            return "the text is literal in fact (no non-literal part)"
        if self.check == "text-parts":
            return self._text_parts(facts)
        if self.check == "log-without-arguments":
            return self._log_without_arguments(found.project, facts, project)
        if self.check == "test-code":
            return "" if is_test_file(found.file) else "not in a test folder or test module"
        return f"no check named {self.check!r}"

    def _text_parts(self, facts: Mapping[str, object]) -> str:
        parts = facts.get("text")
        if not isinstance(parts, list):
            return "the text reaching the sink was not found"
        if not parts:
            return "the text is literal in fact (no non-literal part)"  # a mistake rule's
        texts = [str(p) for p in cast("list[object]", parts)]
        strays = [p for p in texts if not any(re.search(x, p) for x in self.parts)]
        return "not a part it allows: " + ", ".join(strays) if strays else ""

    def _log_without_arguments(
        self, name: str, facts: Mapping[str, object], project: Mapping[str, object]
    ) -> str:
        arguments = facts.get("log_arguments")
        if arguments is None:
            return "no log call's arguments were found"
        if arguments != 0:
            return f"formatting arguments follow the message ({arguments})"
        logger = facts.get("logger")
        if logger not in self.loggers:
            return f"the logger comes from {logger}"
        setup = project.get("log_setup")
        places = [f"{name} {s}" for s in cast("list[object]", setup or [])]
        unread = [p for p in places if p not in self.setup]
        return "the project changes its loggers: " + ", ".join(unread) if unread else ""


def is_test_file(path: str) -> bool:
    parts = path.split("/")
    name = parts[-1]
    return bool(TEST_FOLDERS & set(parts[:-1])) or name.startswith("test_") or (
        name.endswith("_test.py") or name == "conftest.py")  # fmt: skip


def load_rules(path: Path, checked: Callable[[str, Mapping[str, Any]], object]) -> list[Rule]:
    """The rules of ``path``, each checked as a label is (``checked``) and with a check."""
    rules: list[Rule] = []
    for entry in tomlkit.parse(path.read_text(encoding="utf-8")).unwrap().get("rule", []):
        checked(f"{path} rule {entry.get('id')}", entry)
        if entry.get("check") not in CHECKS:
            raise SystemExit(
                f"{path}: rule {entry.get('id')} needs a check in {CHECKS}: a rule labels only "
                "the findings its claim is verified on"
            )
        rules.append(
            Rule(
                entry["id"],
                tuple(entry["rules"]),
                entry["verdict"],
                entry.get("idiom", ""),
                entry.get("harm", ""),
                entry["why"],
                entry["check"],
                entry.get("kind", ""),
                tuple(entry.get("except_projects", ())),
                tuple(entry.get("projects", ())),
                entry.get("statement", ""),
                entry.get("file", ""),
                entry.get("api", ""),
                _tuple(entry.get("parts")),
                _tuple(entry.get("loggers")),
                _tuple(entry.get("setup")),
                _tuple(entry.get("sampled")),
            )
        )
    return rules


def _tuple(value: object) -> tuple[str, ...]:
    if not isinstance(value, (list, tuple)):
        return ()
    return tuple(str(x) for x in cast("list[object]", value))
