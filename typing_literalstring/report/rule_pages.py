"""The rules' documentation pages (``docs/rules/LSnnn.md``), and what SARIF says of each rule.

The pages travel inside the package as ``_rules`` (pyproject.toml's wheel ``force-include``), so
``typing-literalstring rule`` and the SARIF ``help`` read the same text from a wheel as from the
source checkout.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.specs.sinks import RULES, Rule

# The headings of every page, in this order (ruff's, and the checkers that see the rule).
SECTIONS = ("What it does", "Why is this bad?", "Example", "Use instead", "Which checkers see it")

# `properties.security-severity` of each rule, as CodeQL rates its queries (a number from 0.0 to
# 10.0 in a string; GitHub shows 9.0 and above as critical, 7.0 to 8.9 high, 4.0 to 6.9 medium,
# below 4.0 low).  Injections take CodeQL's own figures for the same weakness: command injection
# 9.8, SQL injection 8.8, reflected cross-site scripting 6.1; server-side template injection,
# code run on the server, 9.3; a string reaching a LiteralString of unknown purpose 8.0.  The
# table in docs/rules/README.md says the same (tests/test_rules.py).  A log format string can
# garble or misattribute a record, not run code: 5.0, a message without arguments (no
# injection in the standard logging module) 3.0.  The LS90x rules say only that the checker did
# not judge the text: lower than the injection they may hide.
SECURITY_SEVERITY: dict[str, str] = {
    "LS001": "8.0",
    "LS101": "8.8",
    "LS201": "9.8",
    "LS202": "9.8",
    "LS301": "5.0",
    "LS302": "3.0",
    "LS401": "9.3",
    "LS402": "6.1",
    "LS901": "5.0",
    "LS902": "6.0",
    "LS903": "5.0",
    "LS904": "6.0",
}

# Where the pages are read on the web: under the repository's URL from the package's metadata
# ([project.urls] in pyproject.toml).  SARIF's helpUri must be an absolute URI (its schema's
# "format": "uri"), and GitHub's upload-sarif refuses a whole file whose helpUri is not one
# (flawfinder issue 78), so without a repository URL a rule has no helpUri: its page is in
# help.markdown all the same.
PAGES_PATH = "docs/rules"
_URL_LABELS = ("repository", "source", "source code", "homepage")


class RulePageError(TypingLiteralStringError):
    pass


def pages_dir() -> Path:
    """Where the pages are: inside an installed wheel, or in the source checkout."""
    here = Path(__file__).resolve().parents[1]  # the package: report/ is one of its folders
    packaged = here / "_rules"
    if packaged.is_dir():
        return packaged
    checkout = here.parent / PAGES_PATH
    if checkout.is_dir() and (here.parent / "pyproject.toml").is_file():
        return checkout
    raise RulePageError(
        f"the rule pages are missing (looked in {packaged} and {checkout}): "
        "reinstall typing-literalstring"
    )


def rule_by_id(rule_id: str) -> Rule | None:
    wanted = rule_id.strip().upper()
    return next((rule for rule in RULES if rule.id == wanted), None)


@functools.lru_cache(maxsize=None)
def page(rule_id: str) -> str:
    """The Markdown page of a rule."""
    path = pages_dir() / f"{rule_id}.md"
    try:
        return path.read_text(encoding="utf-8")
    except OSError as error:
        raise RulePageError(
            f"the page of {rule_id} cannot be read ({path}: {error.strerror}): "
            "reinstall typing-literalstring"
        ) from error


def sections(text: str) -> dict[str, str]:
    """A page's ``## `` sections by heading, each without its heading line."""
    found: dict[str, str] = {}
    heading = ""
    body: list[str] = []
    for line in text.splitlines():
        if line.startswith("## "):
            if heading:
                found[heading] = "\n".join(body).strip()
            heading, body = line[3:].strip(), []
        elif heading:
            body.append(line)
    if heading:
        found[heading] = "\n".join(body).strip()
    return found


_PYTHON_BLOCK = re.compile(r"^```python\n(.*?)^```", re.MULTILINE | re.DOTALL)


def first_python_block(section: str) -> str | None:
    """The code of the first ```` ```python ```` block of a section."""
    match = _PYTHON_BLOCK.search(section)
    return match.group(1) if match else None


def plain_text(text: str) -> str:
    """A page as plain text: no heading marks, no code fences (SARIF's ``help.text``, shown
    where Markdown is not)."""
    lines: list[str] = []
    for line in text.splitlines():
        if line.startswith("```"):
            continue
        lines.append(re.sub(r"^#+ ", "", line))
    return "\n".join(lines).strip() + "\n"


@functools.lru_cache(maxsize=1)
def _repository_url() -> str:
    """The repository's URL from the installed package's metadata, "" if it names none."""
    try:
        from importlib.metadata import PackageNotFoundError, metadata
    except ImportError:  # pragma: no cover - Python 3.8 has importlib.metadata
        return ""
    try:
        entries = metadata("typing-literalstring").get_all("Project-URL") or []
    except PackageNotFoundError:
        return ""
    urls: dict[str, str] = {}
    for entry in entries:
        label, _, url = str(entry).partition(",")
        urls[label.strip().lower()] = url.strip()
    for label in _URL_LABELS:
        url = urls.get(label, "")
        if url.startswith("https://github.com/"):
            return url.rstrip("/")
    return ""


def help_uri(rule_id: str) -> str:
    """The page's address on the repository's web view; "" when the package metadata names no
    repository."""
    base = _repository_url()
    return f"{base}/blob/main/{PAGES_PATH}/{rule_id}.md" if base else ""


def sarif_rule(rule: Rule) -> dict[str, Any]:
    """A SARIF ``reportingDescriptor`` of a rule, with its page as help."""
    text = page(rule.id)
    described = sections(text).get("What it does", rule.summary)
    uri = help_uri(rule.id)
    return {
        "id": rule.id,
        "name": rule.name,
        "shortDescription": {"text": rule.summary},
        "fullDescription": {"text": " ".join(described.split())},
        **({"helpUri": uri} if uri else {}),
        "help": {"text": plain_text(text), "markdown": text},
        "properties": {
            "tags": ["security", rule.family],
            "security-severity": SECURITY_SEVERITY[rule.id],
        },
        "defaultConfiguration": {"level": "error"},
    }


def summary_table() -> list[tuple[str, str, str]]:
    """Each rule's id, name and summary, in the order of RULES."""
    return [(rule.id, rule.name, rule.summary) for rule in RULES]
