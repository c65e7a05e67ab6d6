"""The labels of scripts/impact.py's findings.

A label read at its call site (benchmarks/impact/labels/<project>.toml, one ``[[label]]`` per
finding) names the finding by project, file, line number, rule and the statement's stripped
text: a finding at another line with the same text stays unlabelled until it is read.  A rule
(benchmarks/impact/rules.toml, one ``[[rule]]`` each) labels every finding it matches and says
so in the report, with the sample of its labels checked by hand.  A label read at the site wins
over a rule.

verdict: ``real`` (with ``harm``: what happens, an injection or a lost log record), ``benign``
(with ``idiom``: the idiom's name, see idioms.toml), or ``mistake`` (the tool's).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path

import tomlkit

from scripts.impact_model import Found

IMPACT = Path(__file__).resolve().parent.parent / "benchmarks" / "impact"
VERDICTS = ("real", "benign", "mistake")
HARMS = ("injection", "lost log record")


@dataclass(frozen=True)
class Label:
    verdict: str
    idiom: str  # benign: the idiom's name
    harm: str  # real: what happens
    why: str
    rule: str = ""  # the rule's id when a rule made it, else "" (read at the site)


@dataclass(frozen=True)
class Rule:
    id: str
    rules: tuple[str, ...]  # the findings' rules it applies to (LS302, ...)
    verdict: str
    idiom: str
    harm: str
    why: str
    except_projects: tuple[str, ...] = ()
    projects: tuple[str, ...] = ()  # only these, when given
    statement: str = ""  # a regular expression the statement must match, when given
    file: str = ""  # a regular expression the file's path must match, when given
    api: str = ""  # a regular expression the finding's API must match, when given
    sampled: tuple[str, ...] = ()  # "project file:line" read by hand, each agreeing

    def matches(self, found: Found) -> bool:
        return (
            found.rule in self.rules
            and found.project not in self.except_projects
            and (not self.projects or found.project in self.projects)
            and (not self.statement or re.search(self.statement, found.line) is not None)
            and (not self.file or re.search(self.file, found.file) is not None)
            and (not self.api or re.search(self.api, found.api) is not None)
        )

    def label(self) -> Label:
        return Label(self.verdict, self.idiom, self.harm, self.why, self.id)


@dataclass
class Labels:
    read: dict[tuple[str, str, int, str, str], Label] = field(default_factory=lambda: {})
    rules: list[Rule] = field(default_factory=lambda: [])
    idioms: dict[str, str] = field(default_factory=lambda: {})  # idiom -> the change it needs

    def of(self, found: Found) -> Label | None:
        label = self.read.get(found.key)
        if label is not None:
            return label
        rule = next((r for r in self.rules if r.matches(found)), None)
        return rule.label() if rule is not None else None


def _checked(where: str, entry: dict[str, object]) -> None:
    verdict = entry.get("verdict")
    if verdict not in VERDICTS or not entry.get("why"):
        raise SystemExit(f"{where}: a label needs a verdict in {VERDICTS} and a why: {entry}")
    if verdict == "benign" and not entry.get("idiom"):
        raise SystemExit(f"{where}: a benign label names its idiom: {entry}")
    if verdict == "real" and entry.get("harm") not in HARMS:
        raise SystemExit(f"{where}: a real label says its harm, one of {HARMS}: {entry}")


def load_labels(folder: Path | None = None) -> Labels:
    folder = folder or IMPACT
    labels = Labels()
    for path in sorted((folder / "labels").glob("*.toml")):
        document = tomlkit.parse(path.read_text(encoding="utf-8")).unwrap()
        for entry in document.get("label", []):
            _checked(str(path), entry)
            key = (entry["project"], entry["file"], int(entry["number"]), entry["rule"],
                   entry["line"])  # fmt: skip
            if key in labels.read:
                raise SystemExit(f"{path}: two labels for {key}")
            labels.read[key] = Label(
                entry["verdict"], entry.get("idiom", ""), entry.get("harm", ""), entry["why"]
            )
    rules = folder / "rules.toml"
    if rules.is_file():
        for entry in tomlkit.parse(rules.read_text(encoding="utf-8")).unwrap().get("rule", []):
            _checked(str(rules), entry)
            labels.rules.append(
                Rule(
                    entry["id"],
                    tuple(entry["rules"]),
                    entry["verdict"],
                    entry.get("idiom", ""),
                    entry.get("harm", ""),
                    entry["why"],
                    tuple(entry.get("except_projects", ())),
                    tuple(entry.get("projects", ())),
                    statement=entry.get("statement", ""),
                    file=entry.get("file", ""),
                    api=entry.get("api", ""),
                    sampled=tuple(entry.get("sampled", ())),
                )
            )
    idioms = folder / "idioms.toml"
    if idioms.is_file():
        for entry in tomlkit.parse(idioms.read_text(encoding="utf-8")).unwrap().get("idiom", []):
            labels.idioms[entry["name"]] = entry["fix"]
    return labels
