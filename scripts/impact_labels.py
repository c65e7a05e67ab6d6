"""The labels of scripts/impact.py's findings, and what makes a label wrong.

A label read at its call site (benchmarks/impact/labels/<project>.toml, one ``[[label]]`` per
finding) names its finding by project, file, rule, the stripped text of the finding's line
(``line``) and the line number it was read at (``number``).  It keeps its finding when the
code moves: it matches a finding of its file whose statement has a line of that text, the
nearest to ``number`` first; a finding whose rule changed since (the tool may call an LS903
an LS101 once it knows more) keeps the label of its statement, and the report lists it to be
read again.  A rule (benchmarks/impact/rules.toml, impact_rules.py) labels a finding that no
label read at its site names, and only when its claim holds for that finding's facts.

verdict: ``real`` (with ``harm``: an injection or a lost log record), ``benign`` (with
``idiom``: the idiom's name, see idioms.toml), or ``mistake`` (the tool's, with ``kind``).
The report's definitions decide the verdict where they can: a text that is literal in fact
(the checker loses a literal), a shell path no caller takes, and a call that is no sink are
the tool's mistakes, never benign idioms; a label that says one of these in its own words and
calls it benign is refused (``contradiction``), and so is a benign or real label on a finding
whose facts show its text literal.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Mapping, Sequence

import tomlkit

from scripts.impact_model import Found, Key
from scripts.impact_rules import Rule, load_rules

IMPACT = Path(__file__).resolve().parent.parent / "benchmarks" / "impact"
VERDICTS = ("real", "benign", "mistake")
HARMS = ("injection", "lost log record")
# The tool's mistakes, by what went wrong.  The first two a tightened typeshed meets as well
# (the checker alone loses the literal, or checks a path no caller takes); a call that is no
# sink comes from the tool's own heuristics (a sink matched by its name, a wrapper linked by
# a method's name).
MISTAKES = ("literal in fact", "unreached path", "not a sink")
CHECKER_MISTAKES = ("literal in fact", "unreached path")
# Words of a label's ``why`` that say the finding is one of the tool's mistakes.
MISTAKE_WORDS: dict[str, str] = {
    "literal in fact": r"(checkers?|pyright|mypy) (loses?|lost) the literal|literal (is|are) "
    r"lost|loses the literal|without Final|typed str without|holding literal|returns a literal "
    r"\w+ but is annotated|(every|each|all) (its )?callers? pass(es)? (a |only )?(string )?"
    r"literals?|raised only with the literal|always '\w*' or '\w*'",
    "unreached path": r"no caller\b[^.;]*\bshell|never (passes|passed|called with) shell|"
    r"never passes? `?shell|shell=True path no caller",
    "not a sink": r"no sink is involved|is not a sink|never reaches the sink|"
    r"taken for [^;]{0,80}? by its name",
}


@dataclass(frozen=True)
class Label:
    verdict: str
    idiom: str  # benign: the idiom's name
    harm: str  # real: what happens
    why: str
    rule: str = ""  # the labelling rule's id when a rule made it, else "" (read at the site)
    kind: str = ""  # mistake: one of MISTAKES
    read_as: str = ""  # the finding's rule when the label was read, if it differs now


@dataclass(frozen=True)
class SiteLabel:
    """A label read at a call site, and the finding it was read for."""

    project: str
    file: str
    number: int
    rule: str
    line: str
    label: Label

    @property
    def key(self) -> Key:
        return (self.project, self.file, self.number, self.rule, self.line)


def contradiction(label: Label) -> str:
    """Why a label contradicts the report's definitions in its own words ("" if it does
    not): a benign or real label whose ``why`` says literal in fact, an unreached shell path
    or no sink; a mistake label with no kind, or a kind its words do not say."""
    if label.verdict == "mistake":
        ok = label.kind in MISTAKES
        return "" if ok else f"a mistake label names its kind, one of {MISTAKES}"
    for kind, words in MISTAKE_WORDS.items():
        said = re.search(words, label.why, re.IGNORECASE)
        if said:
            return (
                f"its own words say {kind} ({said[0]!r}): the tool's mistake by the report's "
                f'definitions, so verdict = "mistake" and kind = "{kind}", not {label.verdict}'
            )
    return ""


def literal_contradiction(label: Label, facts: Mapping[str, object]) -> str:
    """A benign or real label on a finding whose text has no non-literal part."""
    if label.verdict != "mistake" and facts.get("text") == []:
        return (
            "the finding's text has no non-literal part (its facts' text is []): literal in "
            'fact, so verdict = "mistake" and kind = "literal in fact"'
        )
    return ""


def _code(text: str) -> str:
    return " ".join(text.split())


@dataclass
class Match:
    """The labels of one set of findings: by finding, how, and what stayed unmatched."""

    labels: dict[Key, Label] = field(default_factory=lambda: {})
    rejected: dict[Key, list[tuple[str, str]]] = field(default_factory=lambda: {})  # rule, why
    stale: list[SiteLabel] = field(default_factory=lambda: [])
    moved: list[tuple[Found, SiteLabel]] = field(default_factory=lambda: [])  # line changed

    def of(self, found: Found) -> Label | None:
        return self.labels.get(found.key)


@dataclass
class Labels:
    site: list[SiteLabel] = field(default_factory=lambda: [])
    rules: list[Rule] = field(default_factory=lambda: [])
    idioms: dict[str, str] = field(default_factory=lambda: {})  # idiom -> the change it needs

    def match(
        self,
        findings: Sequence[Found],
        facts: Mapping[Key, Mapping[str, object]],
        project_facts: Mapping[str, Mapping[str, object]],
        checked: Iterable[str],
    ) -> Match:
        """Each finding's label: read at its site (the same rule and the nearest line number
        first), else the first rule whose claim holds for it.  ``checked``: the projects
        measured, whose labels matching no finding are stale."""
        out = Match()
        free = list(self.site)
        pairs: list[tuple[int, int, int, SiteLabel, Found]] = []
        for found in findings:
            code = {_code(found.line)} | {
                _code(x) for x in str(facts.get(found.key, {}).get("statement", "")).splitlines()
            }
            for index, site in enumerate(free):
                if (site.project, site.file) == (found.project, found.file) and (
                    _code(site.line) in code
                ):
                    same = 0 if site.rule == found.rule else 1
                    pairs.append((same, abs(site.number - found.number), index, site, found))
        used: set[int] = set()
        for same, _, index, site, found in sorted(pairs, key=lambda p: p[:3]):
            if index in used or found.key in out.labels:
                continue
            used.add(index)
            label = site.label
            if same:
                label = Label(**{**label.__dict__, "read_as": site.rule})
            out.labels[found.key] = label
            if site.number != found.number or site.line != found.line:
                out.moved.append((found, site))
        for found in findings:
            if found.key in out.labels:
                continue
            for rule in self.rules:
                if not rule.matches(found):
                    continue
                why = rule.refuses(
                    found, facts.get(found.key, {}), project_facts.get(found.project, {})
                )
                if why:
                    out.rejected.setdefault(found.key, []).append((rule.id, why))
                    continue
                out.labels[found.key] = Label(rule.verdict, rule.idiom, rule.harm, rule.why,
                                              rule.id, rule.kind)  # fmt: skip
                break
        projects = set(checked)
        out.stale = [s for i, s in enumerate(free) if i not in used and s.project in projects]
        return out


def _checked(where: str, entry: Mapping[str, Any]) -> Label:
    verdict = entry.get("verdict")
    if verdict not in VERDICTS or not entry.get("why"):
        raise SystemExit(f"{where}: a label needs a verdict in {VERDICTS} and a why: {entry}")
    if verdict == "benign" and not entry.get("idiom"):
        raise SystemExit(f"{where}: a benign label names its idiom: {entry}")
    if verdict == "real" and entry.get("harm") not in HARMS:
        raise SystemExit(f"{where}: a real label says its harm, one of {HARMS}: {entry}")
    label = Label(verdict, entry.get("idiom", ""), entry.get("harm", ""), entry["why"],
                  kind=entry.get("kind", ""))  # fmt: skip
    wrong = contradiction(label)
    if wrong:
        place = f"{entry.get('project', '')} {entry.get('file', '')}:{entry.get('number', '')}"
        raise SystemExit(f"{where}: the label of {place.strip()} contradicts itself: {wrong}")
    return label


def load_labels(folder: Path | None = None) -> Labels:
    folder = folder or IMPACT
    labels = Labels()
    seen: set[Key] = set()
    for path in sorted((folder / "labels").glob("*.toml")):
        document = tomlkit.parse(path.read_text(encoding="utf-8")).unwrap()
        for entry in document.get("label", []):
            label = _checked(str(path), entry)
            site = SiteLabel(entry["project"], entry["file"], int(entry["number"]),
                             entry["rule"], entry["line"], label)  # fmt: skip
            if site.key in seen:
                raise SystemExit(f"{path}: two labels for {site.key}")
            seen.add(site.key)
            labels.site.append(site)
    rules = folder / "rules.toml"
    if rules.is_file():
        labels.rules = load_rules(rules, _checked)
    idioms = folder / "idioms.toml"
    if idioms.is_file():
        for entry in tomlkit.parse(idioms.read_text(encoding="utf-8")).unwrap().get("idiom", []):
            labels.idioms[entry["name"]] = entry["fix"]
    return labels


def prune(stale: Sequence[SiteLabel], folder: Path | None = None) -> int:
    """Remove the labels read at a site that no finding has any more (the tool no longer
    reports it); how many were removed."""
    folder = folder or IMPACT
    removed = 0
    for project in sorted({s.project for s in stale}):
        path = folder / "labels" / f"{project}.toml"
        # tomlkit's containers keep the file's comments and layout; their types are loose
        document: Any = tomlkit.parse(path.read_text(encoding="utf-8"))
        entries: list[Any] = list(document.get("label") or [])
        gone = {s.key for s in stale if s.project == project}
        keep: Any = tomlkit.aot()
        for entry in entries:
            key = (str(entry["project"]), str(entry["file"]), int(entry["number"]),
                   str(entry["rule"]), str(entry["line"]))  # fmt: skip
            if key in gone:
                removed += 1
            else:
                keep.append(entry)
        document["label"] = keep
        path.write_text(tomlkit.dumps(document), encoding="utf-8")
    return removed
