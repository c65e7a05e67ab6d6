"""scripts/impact.py: labels that follow their statement and the report's definitions, rules
checked finding by finding, flows counted once, the published results; per-API counts, the
recommendation, the prose's figures, build failures; and end to end on one tiny project (the
real run downloads dozens of sdists).  The shipped labels and rules are checked against the
published results (benchmarks/impact/results/), without the cold run."""

from __future__ import annotations

import io
import json
import tarfile
from collections import Counter
from pathlib import Path

import pytest

from scripts import impact, impact_report, impact_typeshed
from scripts.impact_assess import Assessment, assess, folded
from scripts.impact_facts import Reader, strict_only
from scripts.impact_labels import Labels, load_labels, prune
from scripts.impact_model import Call, Found, Key, Project, ProjectResult, Run
from scripts.impact_results import RESULTS, load, publish
from scripts.impact_source import Project as Source
from typing_literalstring.checkers import CHECKERS

EXECUTE = "sqlite3 Connection/Cursor.execute"
INFO = "logging info (Logger, LoggerAdapter or module)"
LABEL = """
[[label]]
project = "app"
file = "app/db.py"
number = 7
rule = "LS101"
line = "conn.execute(sql)"
verdict = "real"
harm = "injection"
why = "sql is the request's query string."
"""
RULE = """
[[rule]]
id = "no-arguments"
rules = ["LS302"]
check = "log-without-arguments"
loggers = ["logging.getLogger()"]
verdict = "benign"
idiom = "log message formatted before the call (strict profile)"
why = "No arguments follow."
sampled = ["app app/log.py:3"]
"""
QUOTED = """
[[rule]]
id = "quoted"
rules = ["LS101"]
check = "text-parts"
parts = ["^quote_identifier\\\\("]
verdict = "benign"
idiom = "SQL composed from identifiers the code quotes"
why = "Names through quote_identifier."
"""
PROJECT = Project("app", "1.0", ("app",), "web app", "SQL")
STANDARD = {"log_arguments": 0, "logger": "logging.getLogger()", "text": ["name"]}


def _labels(tmp_path: Path, label: str = LABEL, rule: str = RULE) -> Labels:
    (tmp_path / "labels").mkdir(exist_ok=True)
    (tmp_path / "labels" / "app.toml").write_text(label, encoding="utf-8")
    (tmp_path / "rules.toml").write_text(rule, encoding="utf-8")
    return load_labels(tmp_path)


def _found(
    number: int, rule: str = "LS101", line: str = "conn.execute(sql)", api: str = ""
) -> Found:
    logs = rule in ("LS301", "LS302")
    api = api or (INFO if logs else EXECUTE)
    file = "app/log.py" if logs else "app/db.py"
    return Found("app", file, rule, line, number, api)


def _assess(
    labels: Labels, findings: list[Found], facts: dict[Key, dict[str, object]] | None = None
) -> Assessment:
    facts = facts or {f.key: dict(STANDARD) for f in findings}
    result = ProjectResult(PROJECT, runs=[Run("pyright", 1.0, findings, 0, 0, 0, [], [])])
    return assess([result], facts, {"app": {"log_setup": []}}, labels)


def _result(findings: list[Found], mypy_findings: list[Found] | None = None) -> ProjectResult:
    proven = [Call("app/db.py", n, EXECUTE, "LS101", "proven") for n in range(20, 39)]
    unverified = [Call("app/db.py", 50, EXECUTE, "", "unverified:value-any")]
    runs = [
        Run("pyright", 3.0, findings, 0, 21, 19, proven, unverified),
        Run("mypy", 2.0, findings if mypy_findings is None else mypy_findings, 1, 21, 19, proven,
            unverified),
    ]  # fmt: skip
    logging = [Call("app/log.py", n, INFO, "LS302", "site") for n in range(1, 5)]
    return ProjectResult(PROJECT, lines=2000, files=3, runs=runs, logging=logging)


# -- labels keep their finding ------------------------------------------------------------------
def test_a_label_follows_its_statement_when_lines_move_or_the_rule_changes(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    # Moved from line 7 to 12: the same statement keeps its label.
    assessed = _assess(labels, [_found(12)])
    label = assessed.label(_found(12))
    assert label is not None
    assert (label.verdict, label.read_as) == ("real", "")
    # The statement's finding is now an LS903: the label stays, marked to be read again.
    moved = _found(7, "LS903", api=EXECUTE)
    label = _assess(labels, [moved]).label(moved)
    assert label is not None
    assert label.read_as == "LS101"
    # Two findings of the same text: the nearer line takes the label, the other is unlabelled.
    assessed = _assess(labels, [_found(9), _found(40)])
    assert assessed.label(_found(9)) is not None
    assert [f.number for f in assessed.unlabelled()] == [40]


def test_a_label_matching_no_finding_is_listed_and_can_be_pruned(tmp_path: Path) -> None:
    """When the tool stops reporting a finding (one finding per flow, a literal proven), its
    label is stale: listed, and removed by --prune-stale."""
    other = LABEL.replace("number = 7", "number = 30").replace("conn.execute(sql)", "gone(x)")
    labels = _labels(tmp_path, LABEL + other)
    assessed = _assess(labels, [_found(7)])
    assert [s.line for s in assessed.match.stale] == ["gone(x)"]
    assert prune(assessed.match.stale, tmp_path) == 1
    assert [s.line for s in load_labels(tmp_path).site] == ["conn.execute(sql)"]


def test_a_real_label_says_what_happens(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="harm"):
        _labels(tmp_path, LABEL.replace('harm = "injection"\n', ""))


# -- 1. the verdict follows the report's definitions ----------------------------------------------
@pytest.mark.parametrize(
    ("why", "kind"),
    [
        ("show_hide_hidden is one of two literal tags; the checker loses the literal.",
         "literal in fact"),
        ("Class attributes holding literal SQL, typed str without Final.", "literal in fact"),
        ("CommandError is raised only with the literal 'Invalid command.'.", "literal in fact"),
        ("command_output runs argv lists and no caller in beets passes shell=True.",
         "unreached path"),
        ("call forwards kwargs to command_output; no caller passes shell.", "unreached path"),
        ("borgmatic's own raw() is taken for Django's QuerySet.raw by its name.", "not a sink"),
    ],
)  # fmt: skip
def test_a_benign_label_whose_words_say_the_tools_mistake_is_refused(
    tmp_path: Path, why: str, kind: str
) -> None:
    """The audit of issue 47 found such labels benign in IMPACT.md (datasette's
    views/database.py:511, pgcli's class attributes, flask-admin's rediscli.py:198, beets'
    command_output, ...): by the report's definitions each is the tool's mistake."""
    label = LABEL.replace('verdict = "real"\nharm = "injection"', 'verdict = "benign"\n'
                          'idiom = "SQL from the program\'s own constants"')  # fmt: skip
    with pytest.raises(SystemExit, match=kind):
        _labels(tmp_path, label.replace("sql is the request's query string.", why))
    mistake = label.replace('verdict = "benign"', 'verdict = "mistake"')
    with pytest.raises(SystemExit, match="kind"):
        _labels(tmp_path, mistake.replace("sql is the request's query string.", why))
    kinded = mistake.replace('verdict = "mistake"', f'verdict = "mistake"\nkind = "{kind}"')
    assert _labels(tmp_path, kinded.replace("sql is the request's query string.", why))


def test_a_benign_label_on_a_literal_text_contradicts_its_finding(tmp_path: Path) -> None:
    """A text whose facts have no non-literal part is literal in fact: a benign or real label
    on it is wrong, and no rule labels it."""
    labels = _labels(tmp_path, rule=QUOTED)
    literal: dict[str, object] = {"text": []}
    assessed = _assess(labels, [_found(7), _found(30)], {_found(7).key: literal,
                                                         _found(30).key: literal})  # fmt: skip
    assert [(f.number, why.split(" (")[0]) for f, why in assessed.wrong()] == [
        (7, "the finding's text has no non-literal part")
    ]
    assert assessed.unlabelled() == [_found(30)]
    assert "literal in fact" in assessed.match.rejected[_found(30).key][0][1]


# -- 2. a rule labels only what its claim holds for -----------------------------------------------
def test_a_rule_labels_only_the_findings_its_claim_holds_for(tmp_path: Path) -> None:
    """sqlite-utils' Table.disable_fts puts a name read from the database's schema raw into
    its SQL: "names pass through quote_identifier" does not hold there, so the rule that
    labelled it benign no longer does."""
    labels = _labels(tmp_path, label="", rule=QUOTED)
    quoted, raw = _found(30, line="self.db.execute(sql)"), _found(40, line="self.db.execute(x)")
    facts: dict[Key, dict[str, object]] = {
        quoted.key: {"text": ["quote_identifier(self.name)", "quote_identifier(c)"]},
        raw.key: {"text": ["quote_identifier(self.name)", "self.detect_fts()"]},
    }
    assessed = _assess(labels, [quoted, raw], facts)
    label = assessed.label(quoted)
    assert label is not None
    assert label.rule == "quoted"
    assert assessed.unlabelled() == [raw]
    assert assessed.match.rejected[raw.key] == [
        ("quoted", "not a part it allows: self.detect_fts()")
    ]


@pytest.mark.parametrize(
    ("facts", "setup", "refused"),
    [
        (STANDARD, [], ""),
        ({**STANDARD, "log_arguments": 1}, [], "formatting arguments follow"),
        ({**STANDARD, "log_arguments": -1}, [], "formatting arguments follow"),
        ({**STANDARD, "logger": "beets.logging.getLogger()"}, [], "the logger comes from"),
        ({**STANDARD, "logger": "param"}, [], "the logger comes from"),
        (STANDARD, ["app/log.py:12 setLoggerClass"], "the project changes its loggers"),
        ({**STANDARD, "text": []}, [], "literal in fact"),
    ],
)
def test_the_log_rule_checks_arguments_logger_and_setup(
    tmp_path: Path, facts: dict[str, object], setup: list[str], refused: str
) -> None:
    """The rule that labelled 1,008 findings benign now checks each: no formatting argument,
    a logger of the standard module, a project that installs no logger class of its own."""
    (rule,) = _labels(tmp_path).rules
    found = _found(3, "LS302", 'log.info(f"x {name}")')
    assert refused in rule.refuses(found, facts, {"log_setup": setup})
    assert bool(rule.refuses(found, facts, {"log_setup": setup})) is bool(refused)


def test_a_rule_without_a_check_is_refused(tmp_path: Path) -> None:
    with pytest.raises(SystemExit, match="needs a check"):
        _labels(tmp_path, rule=RULE.replace('check = "log-without-arguments"\n', ""))


# -- the facts the rules check ------------------------------------------------------------------
FACTS_SOURCE = '''\
import logging
import textwrap

from app.log import debug
from app.util import quote_identifier

log = logging.getLogger(__name__)
VERSION = "1.0"


class Table:
    _counts = "_counts"

    def disable_fts(self, db):
        fts_table = self.detect_fts()
        sql = textwrap.dedent("""
            SELECT name FROM sqlite_master WHERE sql LIKE '% INSERT INTO [{}]%'
        """).strip().format(fts_table)
        db.execute(sql)

    def names(self, db, fts):
        where = ["type = 'table'"]
        if fts:
            where.append("sql like '%FTS%'")
        db.execute("select name from t where {}".format(" AND ".join(where)))

    def named(self, db, user):
        where = ["type = 'table'"]
        where.append(user)
        db.execute("select name from t where {}".format(" AND ".join(where)))

    def drop(self, db):
        db.execute(f"DROP TABLE {quote_identifier(self.name)} -- {self._counts}")
        for table in ("a", "b"):
            db.execute(f"DELETE FROM {table} WHERE id IN ({', '.join('?' * 3)})")
        log.info(f"dropped {self.name}")
        log.info(f"version {VERSION}")
        debug(f"dropped {self.name}", self.name)
'''
LOG_SOURCE = """\
import logging

log = logging.getLogger("app")
debug = log.debug
"""


def _reader(tmp_path: Path, log: str = LOG_SOURCE) -> Reader:
    (tmp_path / "app").mkdir()
    for name, text in (("__init__.py", ""), ("db.py", FACTS_SOURCE), ("log.py", log),
                       ("util.py", "def quote_identifier(s): ...\n")):  # fmt: skip
        (tmp_path / "app" / name).write_text(text, encoding="utf-8")
    files = [f"app/{n}" for n in ("__init__.py", "db.py", "log.py", "util.py")]
    return Reader(Source(tmp_path, files))


@pytest.mark.parametrize(
    ("number", "rule", "text"),
    [
        (19, "LS904", ["self.detect_fts()"]),  # disable_fts: the name read from the schema
        (25, "LS101", []),  # a list of literals joined: literal in fact
        (30, "LS101", ["param user"]),  # ...unless a parameter is appended
        (33, "LS101", ["quote_identifier(self.name)"]),  # a class constant is literal
        (35, "LS101", []),  # a loop over literals, a repeated "?"
    ],
)
def test_the_text_parts_follow_the_code(
    tmp_path: Path, number: int, rule: str, text: list[str]
) -> None:
    found = Found("app", "app/db.py", rule, "", number, "execute, named like an SQL sink")
    facts = _reader(tmp_path).facts(found)
    assert facts["text"] == text
    assert str(facts["scope"]).split(".")[0] == "Table"


def test_the_logger_and_its_arguments_are_read(tmp_path: Path) -> None:
    reader = _reader(tmp_path)
    debug = "logging debug (Logger, LoggerAdapter or module)"
    facts = [
        reader.facts(Found("app", "app/db.py", "LS302", "", n, api))
        for n, api in ((36, INFO), (37, INFO), (38, debug))
    ]
    assert [(f["logger"], f["log_arguments"], f["text"]) for f in facts] == [
        ("logging.getLogger()", 0, ["self.name"]),
        ("logging.getLogger()", 0, []),  # a module constant: literal in fact
        ("logging.getLogger()", 1, ["self.name"]),  # `debug = log.debug`, imported
    ]
    assert reader.logging.setup == []


def test_an_unverified_log_message_without_arguments_is_strict_only_and_ruled(
    tmp_path: Path,
) -> None:
    """pyright types ``f"Signal {sig} caught"`` with an unannotated ``sig`` partly Any: an
    LS902 at the log call, not an LS302.  The default profile asks nothing of a log message
    without formatting arguments (the call is no sink there), so the finding is the strict
    profile's alone; and the standard module formats no such message whatever its type, so
    the shipped rule that labels those LS302s labels it too, its claim checked on its facts."""
    reader = _reader(tmp_path)
    debug = "logging debug (Logger, LoggerAdapter or module)"
    bare = Found("app", "app/db.py", "LS902", 'log.info(f"dropped {self.name}")', 36, INFO)
    formatted = Found("app", "app/db.py", "LS902", "debug(", 38, debug)  # an argument follows
    sql = Found("app", "app/db.py", "LS902", "db.execute(sql)", 19, EXECUTE)  # no log call
    facts: dict[Key, dict[str, object]] = {f.key: reader.facts(f) for f in (bare, formatted, sql)}
    assert (facts[bare.key]["log_arguments"], facts[bare.key]["logger"]) == (
        0, "logging.getLogger()")  # fmt: skip
    assert facts[formatted.key]["log_arguments"] == 1
    assert "log_arguments" not in facts[sql.key]
    assert [strict_only(f, facts[f.key]) for f in (bare, formatted, sql)] == [True, False, False]
    shipped = load_labels()
    (rule,) = [r for r in shipped.rules if r.id == "stdlib-log-message-without-arguments"]
    assert rule.matches(bare)
    assert rule.refuses(bare, facts[bare.key], {"log_setup": []}) == ""
    assert rule.refuses(formatted, facts[formatted.key], {"log_setup": []}).startswith(
        "formatting arguments follow"
    )
    assert not rule.matches(sql)
    run = Run("pyright", 1.0, [bare, formatted], 0, 0, 0, [], [])
    result = ProjectResult(PROJECT, lines=1000, runs=[run])
    assessed = assess([result], facts, {"app": {"log_setup": []}}, shipped)
    label = assessed.label(bare)
    assert label is not None
    assert (label.rule, label.verdict) == (rule.id, "benign")
    assert assessed.default([bare, formatted]) == [formatted]
    values = impact_report.figures([result], assessed)
    assert (values["pyright_default"], values["pyright_strict"]) == ("1", "2")
    assert (values["findings_default"], values["findings_strict"], values["findings_ls302"],
            values["findings_ls9_strict"]) == ("1", "1", "0", "1")  # fmt: skip
    apis = sorted(e.api for e in impact_report.rows([result], assessed, "pyright"))
    assert apis == [
        impact_report.LOGGING_API,
        impact_report.LOGGING_API + impact_report.STRICT_ONLY,
    ]


def test_a_project_logger_class_or_a_computed_setattr_is_not_followed(tmp_path: Path) -> None:
    log = LOG_SOURCE + "logging.setLoggerClass(object)\nsetattr(log, input(), 1)\n"
    reader = _reader(tmp_path, log)
    assert reader.logging.setup == ["app/log.py:5 setLoggerClass"]
    found = Found("app", "app/db.py", "LS101", "", 33, "execute, named like an SQL sink")
    # setattr of a computed name may assign _counts: it is no longer taken for literal
    assert reader.facts(found)["text"] == ["quote_identifier(self.name)", "self._counts"]


# -- 3. one flow, one finding ---------------------------------------------------------------------
def test_a_wrappers_inner_call_is_counted_with_its_callers() -> None:
    """flask-admin's RedisCli._error wraps its message in Markup (rediscli.py:139) and the
    command handler passes it the exception's text (rediscli.py:201): one injection."""
    markup = "markupsafe.Markup"
    inner = Found("fa", "rediscli.py", "LS402", "return Markup(msg)", 139, markup)
    caller = Found("fa", "rediscli.py", "LS402", "self._error(x)", 201, markup + ", through _error")
    itself = Found("fa", "rediscli.py", "LS402", "self._error(y)", 140, markup + ", through _error")
    other = Found("fa", "other.py", "LS101", "run(q)", 5, EXECUTE + ", through _error")
    # Only named like a sink: any object's execute, no call of the project's own function.
    named = Found("fa", "db.py", "LS904", "cur.execute(q)", 9, "execute, named like an SQL sink")
    inside = Found("fa", "db.py", "LS101", "conn.execute(sql)", 3, EXECUTE)
    facts = {
        inner.key: {"scope": "RedisCli._error"},
        caller.key: {"scope": "RedisCli.execute_view"},
        itself.key: {"scope": "RedisCli._error"},  # a recursive call is no caller
        other.key: {"scope": "f"},  # another sink: not this flow
        named.key: {"scope": "g"},
        inside.key: {"scope": "Database.execute"},
    }
    assert folded([inner, caller, itself, other, named, inside], facts) == {
        inner.key: [caller.key],
        itself.key: [caller.key],
    }


# -- 4. the findings are data -------------------------------------------------------------------
def test_published_results_are_deterministic_and_render_alone(tmp_path: Path) -> None:
    (tmp_path / "src" / "app").mkdir(parents=True)
    (tmp_path / "src" / "app" / "db.py").write_text("\n" * 6 + "conn.execute(sql)\n")
    result = _result([_found(7)])
    first = publish(result, tmp_path / "src", tmp_path / "one")
    publish(result, tmp_path / "src", tmp_path / "two")
    text = (tmp_path / "one" / "app.json").read_text(encoding="utf-8")
    assert text == (tmp_path / "two" / "app.json").read_text(encoding="utf-8")
    assert str(tmp_path) not in text
    assert "seconds" not in text
    keys = list(json.loads(text))
    assert keys == sorted(keys) == sorted(first)
    published, missing = load([PROJECT], tmp_path / "one")
    assert missing == []
    (again,) = published.results
    assert [len(r.findings) for r in again.runs] == [1, 1]
    assert published.facts[_found(7).key]["statement"] == "conn.execute(sql)"


def test_the_shipped_labels_hold_on_the_published_results() -> None:
    """Every flow of the published results is labelled, no label contradicts its finding or
    the report's definitions, and the corrections of issue 47 hold."""
    published, missing = load(impact.load_projects(), RESULTS)
    assert missing == []
    labels = load_labels()
    assessed = assess(published.results, published.facts, published.projects, labels)
    assert assessed.unlabelled() == []
    assert assessed.wrong() == []
    assert assessed.match.stale == []
    by_place = {(f.project, f.file, f.number): f for f in assessed.findings}

    def verdict(project: str, place: str) -> tuple[str, str]:
        file, number = place.rsplit(":", 1)
        label = assessed.label(by_place[(project, file, int(number))])
        assert label is not None
        return label.verdict, label.harm or label.kind

    assert verdict("sqlite-utils", "sqlite_utils/db.py:3881") == ("real", "injection")
    assert verdict("beets", "beetsplug/advancedrewrite.py:92") == ("real", "lost log record")
    assert verdict("beets", "beetsplug/advancedrewrite.py:118") == ("real", "lost log record")
    # A literal the checker lost is the tool's mistake, or no finding at all once the tool
    # keeps it (datasette's show_hide_hidden, chosen among literals by if/else, is proven now).
    if ("datasette", "datasette/views/database.py", 511) in by_place:
        assert verdict("datasette", "datasette/views/database.py:511") == (
            "mistake", "literal in fact")  # fmt: skip
    assert verdict("borgmatic", "borgmatic/execute.py:777") == ("mistake", "unreached path")
    # The Redis console's markup injection is one flow, at the call that passes the error: the
    # inner Markup call of RedisCli._error is counted with it, or no longer reported apart.
    assert verdict("flask-admin", "flask_admin/contrib/rediscli.py:201") == ("real", "injection")
    inner = by_place.get(("flask-admin", "flask_admin/contrib/rediscli.py", 139))
    if inner is not None:
        assert ("flask-admin", "flask_admin/contrib/rediscli.py", 201) in {
            k[:3] for k in assessed.folded[inner.key]
        }
    for found in assessed.flows():  # every rule's claim holds for what it labels
        label = assessed.label(found)
        assert label is not None
        rule = next((r for r in labels.rules if r.id == label.rule), None)
        if rule is not None:
            facts = published.facts[found.key]
            assert rule.refuses(found, facts, published.projects[found.project]) == ""


# -- the report's counts ------------------------------------------------------------------------
def test_each_place_counts_once_per_checker_and_split_by_verdict(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    findings = [_found(7), _found(9, line="conn.execute(other)"),
                _found(3, "LS302", 'log.info(f"x {y}")')]  # fmt: skip
    assessed = _assess(labels, findings)
    result = _result(findings)
    (row,) = [e for e in impact_report.rows([result], assessed, "pyright") if e.rule == "LS101"]
    assert (row.sites, row.proven, row.unverified, row.findings) == (22, 19, 1, 2)
    assert row.verdicts == Counter({"real": 1, "unlabelled": 1})
    (logged,) = [e for e in impact_report.rows([result], assessed, "pyright") if e.rule == "LS302"]
    assert (logged.sites, logged.findings, logged.logging) == (4, 1, True)


def test_the_recommendation_follows_the_figures(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    result = _result([_found(7)])
    assessed = _assess(labels, [_found(7)])
    (sql,) = [v for v in impact_typeshed.verdicts([result], assessed) if v.rule == "LS101"]
    assert (sql.sites, sql.cost) == (21, 0)
    assert sql.recommendation() == "tighten now"
    (log,) = [v for v in impact_typeshed.verdicts([result], assessed) if v.rule == "LS302"]
    assert log.recommendation().startswith("not yet: 4 calls measured")
    # A literal the checker loses costs a change as a benign idiom does.
    other = _found(9, line="conn.execute(other)")
    label = LABEL + LABEL.replace("number = 7", "number = 9").replace(
        "conn.execute(sql)", "conn.execute(other)").replace('verdict = "real"\nharm = "injection"',
        'verdict = "mistake"\nkind = "literal in fact"')  # fmt: skip
    assessed = _assess(_labels(tmp_path, label), [_found(7), other])
    (sql,) = [v for v in impact_typeshed.verdicts([_result([_found(7), other])], assessed)
              if v.rule == "LS101"]  # fmt: skip
    assert sql.cost == 1
    # An unlabelled finding leaves the API undecided.
    assessed = _assess(_labels(tmp_path), [_found(7), other])
    (sql,) = [v for v in impact_typeshed.verdicts([_result([_found(7), other])], assessed)
              if v.rule == "LS101"]  # fmt: skip
    assert sql.recommendation() == "undecided: unlabelled findings"


def test_the_prose_names_its_figures_and_never_writes_them(tmp_path: Path) -> None:
    findings = [_found(7), _found(9, line="conn.execute(other)")]
    values = impact_report.figures([_result(findings)], _assess(_labels(tmp_path), findings))
    assert impact_report.fill("{{all_real}} real ({{all_real_pct}})", values) == "1 real (50%)"
    with pytest.raises(SystemExit, match="unknown figure"):
        impact_report.fill("{{nonsense}}", values)
    assert impact_report.written_figures("94% harmless, {{all_benign_pct}} benign") == ["94%"]
    # The notes shipped with the report write no percentage by hand.
    assert impact_report.written_figures(impact_report.NOTES.read_text(encoding="utf-8")) == []
    impact_report.fill(impact_report.NOTES.read_text(encoding="utf-8"), values)


def test_a_project_that_did_not_build_is_listed_with_its_reason(tmp_path: Path) -> None:
    labels = _labels(tmp_path)
    failed = ProjectResult(Project("broken", "2.0", ("broken",), "CLI", "x"),
                           failure="pip install failed: no compiler")  # fmt: skip
    results = [_result([_found(7)]), failed]
    report = impact_report.render_impact(results, _assess(labels, [_found(7)]), labels, 1.0)
    assert "| broken==2.0 | CLI | x | - | **not built**: pip install failed: no compiler |" in (
        report
    )
    assert "2 projects, 1 built and checked" in report
    assert "1 not built and 0 not run" in report


def test_one_name_per_sink_api() -> None:
    assert impact_report.api_of(EXECUTE + ", through query") == EXECUTE
    assert impact_report.api_of("logging.Logger.debug") == impact_report.LOGGING_API
    assert impact_report.api_of(INFO + ", formatting arguments passed as *args") == (
        impact_report.LOGGING_API
    )
    assert impact_report.api_of("SQLAlchemy text") == "sqlalchemy.text"
    assert impact_report.api_of("execute, named like an SQL sink") == (
        "the project's own execute (named like an SQL sink)"
    )


def test_results_survive_the_cache() -> None:
    result = _result([_found(7)])
    again = ProjectResult.from_json(PROJECT, result.to_json())
    assert again == result


def test_the_project_list_is_data() -> None:
    projects = impact.load_projects()
    assert len(projects) >= 30
    assert len({p.name for p in projects}) == len(projects)
    assert all(p.version and p.packages and p.why for p in projects)


def _sdist(cache: Path) -> None:
    app = b"""\
import logging
import sqlite3

log = logging.getLogger(__name__)


def find(conn: sqlite3.Connection, name: str) -> None:
    conn.execute(f"SELECT * FROM t WHERE name = '{name}'")
    conn.execute("SELECT 1")
    log.info(f"looked for {name}")
"""
    (cache / "sdists").mkdir(parents=True)
    with tarfile.open(cache / "sdists" / "tinyproj-0.1.tar.gz", "w:gz") as archive:
        for name, data in (
            ("tinyproj-0.1/tiny/app.py", app),
            ("tinyproj-0.1/tiny/__init__.py", b""),
        ):
            info = tarfile.TarInfo(name)
            info.size = len(data)
            archive.addfile(info, io.BytesIO(data))


def test_end_to_end_on_a_tiny_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    for name in ("pyright", "mypy+plugin"):
        if not CHECKERS[name].is_installed():
            pytest.skip(f"{name} is not installed")
    _sdist(tmp_path / "cache")
    tiny = Project("tinyproj", "0.1", ("tiny",), "test", "a test", installed=False)
    (tmp_path / "labels").mkdir()
    (tmp_path / "labels" / "tiny.toml").write_text(
        '[[label]]\nproject = "tinyproj"\nfile = "tiny/app.py"\nnumber = 8\nrule = "LS101"\n'
        'line = "conn.execute(f\\"SELECT * FROM t WHERE name = \'{name}\'\\")"\n'
        'verdict = "real"\nharm = "injection"\nwhy = "name comes from the caller."\n',
        encoding="utf-8",
    )
    monkeypatch.setattr(impact, "load_projects", lambda: [tiny])
    monkeypatch.setattr(impact, "load_labels", lambda: load_labels(tmp_path))
    out, typeshed = tmp_path / "IMPACT.md", tmp_path / "typeshed.md"
    results = tmp_path / "results"
    args = ["--cache", str(tmp_path / "cache"), "--out", str(out), "--typeshed", str(typeshed),
            "--results", str(results)]  # fmt: skip
    # LS302 at the log call (strict) has no label: the run fails and lists it.
    assert impact.main(args) == 1
    report = out.read_text(encoding="utf-8")
    # Three sink calls: the log call of the strict profile counts (its message is asked about).
    assert "| tinyproj==0.1 | test | a test | 0.0 | 1 / 2 | 1 / 2 | 3: 1, 0 |" in report
    assert "**unlabelled**" in report
    data = json.loads((results / "tinyproj.json").read_text(encoding="utf-8"))
    found = {(f["number"], f["rule"], f.get("logger", "")) for f in data["findings"]}
    assert found == {(8, "LS101", ""), (10, "LS302", "logging.getLogger()")}
    # Rendered again from the published results alone, with the rule: complete.
    (tmp_path / "rules.toml").write_text(RULE, encoding="utf-8")
    assert impact.main([*args, "--render-only"]) == 0
    report = out.read_text(encoding="utf-8")
    assert "1 real (50%; 1 injections, 0 lost log records), 1 benign (50%)" in report
    assert (
        "| sqlite3 Connection/Cursor.execute | LS101 | 2 | 1 | 1 | 0 | 1 | 0 | 0 | 0 | 0 |"
        in report
    )
