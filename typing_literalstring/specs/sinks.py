"""The sinks we tighten, by family, and how to find the sink call a diagnostic points into."""

from __future__ import annotations

import ast
import functools
import re
from dataclasses import dataclass
from typing import Iterable, Mapping, Sequence

from typing_literalstring.core.source_edits import byte_offsets, insert_at, segment


@dataclass(frozen=True)
class Rule:
    id: str
    name: str
    family: str
    summary: str
    fix: str

    def __reduce__(self) -> tuple[object, tuple[str]]:
        # Unpickled (analysis/probe_cache.py) as the rule itself: rules are compared with `is`.
        return _rule, (self.id,)


NON_LITERAL = Rule(
    "LS001",
    "non-literal-string",
    "LiteralString",
    "A non-literal string reaches a LiteralString.",
    "Keep the text literal and pass values separately (as query parameters or arguments); "
    "build any dynamic part from literal strings only.",
)
SQL = Rule(
    "LS101",
    "sql-injection",
    "SQL",
    "A non-literal string reaches the SQL text of a query: an execute method (sqlite3, and the "
    "drivers `doctor` lists as tightened), or raw SQL of a query builder or ORM "
    "(psycopg2.sql.SQL, SQLAlchemy text and exec_driver_sql, Django raw, RawSQL and extra).",
    "Keep the SQL text literal and pass values as query parameters: "
    'conn.execute("SELECT * FROM t WHERE id = ?", (value,)).',
)
SHELL = Rule(
    "LS201",
    "shell-injection",
    "shell",
    "A non-literal string reaches a shell command.",
    'Pass a list of arguments and no shell=True: subprocess.run(["ls", path]); if you need a '
    "shell, keep its script literal and pass values as arguments to it.",
)
SHELL_ARGV = Rule(
    "LS202",
    "shell-injection-argv",
    "shell",
    "An argument list starts a shell (sh -c, bash -lc, cmd /c, powershell -Command) whose "
    "script is not a literal string.",
    "Run the program directly with a list of arguments, or keep the shell script literal and "
    'pass values as its positional parameters: ["sh", "-c", \'ls "$1"\', "sh", path].',
)
LOGGING = Rule(
    "LS301",
    "log-format-injection",
    "logging",
    "A non-literal string is used as a logging format string.",
    'Keep the message literal and pass values as logging arguments: logger.info("Got %s", value).',
)
LOGGING_MESSAGE = Rule(
    "LS302",
    "log-message-not-literal",
    "logging",
    "A non-literal string is a log message without formatting arguments (strict profile).",
    "The standard logging module does not format a message that has no arguments, so this is "
    'not an injection there; to keep messages literal, pass values as arguments: logger.info("Got '
    '%s", value). Adopt the default profile first and this rule later.',
)
TEMPLATE = Rule(
    "LS401",
    "template-injection",
    "template",
    "A non-literal string is compiled as a template (Jinja2, Flask, Django): server-side "
    "template injection runs the attacker's template code.",
    "Keep the template source literal, or load it with the engine's loader from a file, and pass "
    'values in the render context: Template("Hello {{ name }}").render(name=value).',
)
MARKUP = Rule(
    "LS402",
    "unsafe-markup",
    "markup",
    "A non-literal string is declared safe HTML (MarkupSafe's Markup, Django's mark_safe or "
    "format_html's format string): cross-site scripting.",
    "Keep the markup literal and let the library escape the values: "
    'Markup("<b>%s</b>") % value, format_html("<b>{}</b>", value), or escape(value).',
)
UNVERIFIED = Rule(
    "LS901",
    "unverified-any",
    "Any",
    "A value of type Any reaches a LiteralString, and the checker lets it through unverified.",
    "Give the value a type where it enters the program (annotate the variable, the function's "
    "return or the JSON shape as str or a TypedDict): the checker then judges it, and the "
    "sink's own rule says how to fix it.",
)
# Sink calls the checker let through without judging their text (``analysis.sink_outcomes``):
# findings by default, where real vulnerabilities show the unjudged value is worth one.
UNVERIFIED_BUILT = Rule(
    "LS902",
    "unverified-built-text",
    "Any",
    "The text of an SQL, shell, template or markup sink is built in view (an f-string, `%`, "
    "`format`, `+` or `join`) from a value of type Any: the literal parts are proven, the Any "
    "part is not, and the checker lets it through.",
    "Give the Any part a type where it enters the program (annotate the parameter, the "
    "attribute or the function's return as str, or the input's shape as a TypedDict): the "
    "checker then judges it, and the sink's own rule says how to fix it.",
)
UNVERIFIED_UNTYPED = Rule(
    "LS903",
    "unverified-untyped-code",
    "Any",
    "The text of an SQL, shell, template or markup sink comes from the project's own untyped "
    "code (a parameter without an annotation, a function without a return annotation), so it "
    "is Any and the checker lets it through.",
    "Annotate that parameter or return: LiteralString if only literal text may come, else str, "
    "and the checker judges every caller.",
)
UNVERIFIED_SINK = Rule(
    "LS904",
    "unverified-sink-receiver",
    "Any",
    "SQL text, a shell command, a template or markup is built in view from non-literal parts "
    "and passed to a sink the checker cannot see: a receiver of unknown type (an unannotated "
    "attribute or property, an untyped package) or the project's own method typed str.",
    "Type the receiver (annotate the attribute or the property's return with the driver's "
    "class), or annotate the project's own sink parameter LiteralString; keep the text literal "
    "and pass values separately.",
)
RULES = (
    NON_LITERAL,
    SQL,
    SHELL,
    SHELL_ARGV,
    LOGGING,
    LOGGING_MESSAGE,
    TEMPLATE,
    MARKUP,
    UNVERIFIED,
    UNVERIFIED_BUILT,
    UNVERIFIED_UNTYPED,
    UNVERIFIED_SINK,
)


def _rule(id_: str) -> Rule:
    return next(rule for rule in RULES if rule.id == id_)


# The name a sink is called by -> (its rule, what it is).  Methods are matched by name alone:
# which class they belong to is the checker's business, and only calls the checker flagged with
# the tightened stubs (and not without them) are looked up here.
# subprocess's functions that run a shell only when given `shell=` something true.
SUBPROCESS_FUNCTIONS = ("run", "call", "check_call", "check_output", "Popen")
SINK_NAMES: dict[str, tuple[Rule, str]] = {
    **{
        m: (SQL, f"sqlite3 Connection/Cursor.{m}")
        for m in ("execute", "executemany", "executescript")
    },
    # Third-party sinks (stubs/<distribution>/): named by their specification where the
    # checker's message tells which one it is.
    **{m: (SQL, f"a driver's cursor.{m}") for m in ("mogrify", "copy_expert")},
    **{m: (SQL, f"aiosqlite Connection.{m}") for m in ("execute_fetchall", "execute_insert")},
    "SQL": (SQL, "psycopg2.sql.SQL"),
    "text": (SQL, "sqlalchemy.text"),
    "TextClause": (SQL, "sqlalchemy.sql.elements.TextClause"),
    "exec_driver_sql": (SQL, "SQLAlchemy Connection.exec_driver_sql"),
    "raw": (SQL, "Django QuerySet.raw"),
    "extra": (SQL, "Django QuerySet.extra"),
    "RawSQL": (SQL, "django.db.models.expressions.RawSQL"),
    "exec_command": (SHELL, "paramiko SSHClient.exec_command"),
    "from_string": (TEMPLATE, "jinja2 Environment.from_string"),
    "Template": (TEMPLATE, "jinja2.Template or django.template.Template"),
    "render_template_string": (TEMPLATE, "flask.render_template_string"),
    "stream_template_string": (TEMPLATE, "flask.stream_template_string"),
    "Markup": (MARKUP, "markupsafe.Markup"),
    "mark_safe": (MARKUP, "django.utils.safestring.mark_safe"),
    "format_html": (MARKUP, "django.utils.html.format_html"),
    "format_html_join": (MARKUP, "django.utils.html.format_html_join"),
    **{f: (SHELL, f"subprocess.{f}") for f in SUBPROCESS_FUNCTIONS},
    "getoutput": (SHELL, "subprocess.getoutput"),
    "getstatusoutput": (SHELL, "subprocess.getstatusoutput"),
    "system": (SHELL, "os.system"),
    "popen": (SHELL, "os.popen"),
    "create_subprocess_shell": (SHELL, "asyncio.create_subprocess_shell"),
    "subprocess_shell": (SHELL, "asyncio event loop subprocess_shell"),
    **{
        m: (LOGGING, f"logging {m} (Logger, LoggerAdapter or module)")
        for m in (
            "debug",
            "info",
            "warning",
            "warn",
            "error",
            "exception",
            "critical",
            "fatal",
            "log",
        )
    },
}

# Sinks named by a common word (`fetch`, `prepare`, `cursor`): sinks only in a file that imports
# their package, so that `repo.fetch(remote)` of another library is never taken for SQL.  A call
# in a file that does not import it is still reported when the checker refuses its text at our
# tightened parameter (classify.py), as any parameter of our specifications is.
SINK_NAMES_IF_IMPORTED: dict[str, tuple[str, tuple[Rule, str]]] = {
    **{
        m: ("asyncpg", (SQL, f"asyncpg Connection/Pool.{m}"))
        for m in (
            "fetch",
            "fetchrow",
            "fetchval",
            "fetchmany",
            "prepare",
            "cursor",
            "copy_from_query",
        )
    },
    # sqlite-utils' methods whose first argument is SQL text (stubs/sqlite-utils/): the others
    # it tightens (`create_view(name, sql)`, `where=` of `convert` and `search`) take it
    # later, and are reported as LS001.
    **{
        m: ("sqlite_utils", (SQL, f"sqlite-utils {owner}.{m}"))
        for owner, names in (
            ("Database", ("query", "execute_returning_dicts")),
            ("Queryable", ("rows_where", "count_where", "pks_and_rows_where")),
            ("Table", ("delete_where",)),
        )
        for m in names
    },
}


def sink_names(imported: Iterable[str]) -> dict[str, tuple[Rule, str]]:
    """The sink names of a file that imports the top-level packages ``imported``."""
    packages = frozenset(imported) & _GATING_PACKAGES
    return _sink_names(packages) if packages else SINK_NAMES


_GATING_PACKAGES = frozenset(package for package, _ in SINK_NAMES_IF_IMPORTED.values())


@functools.lru_cache(maxsize=None)
def _sink_names(packages: frozenset[str]) -> dict[str, tuple[Rule, str]]:
    gated = {n: sink for n, (p, sink) in SINK_NAMES_IF_IMPORTED.items() if p in packages}
    return {**SINK_NAMES, **gated}


# An SQL method of the names above on a receiver whose package is not told (an LS901 where the
# checker says only "no overload matches", in a file that imports no sqlite3): what is sure.
DB_API_LABELS: dict[str, str] = {
    m: f"a DB-API cursor's {m}" for m in ("execute", "executemany", "executescript")
}


@dataclass(frozen=True)
class SinkCall:
    line: int
    column: int  # 1-based, of the call expression
    end_line: int
    callee: str  # the callee as written, e.g. "conn.execute"
    rule: Rule
    api: str  # which stdlib API, e.g. "subprocess.run"
    name: str = ""  # the sink's own name, through an import alias: "Template" for DjangoTemplate

    @property
    def called_as(self) -> str:
        """The sink's own name: the alias's original, else the callee's last name."""
        return self.name or self.callee.rsplit(".", 1)[-1].strip()


# Where a checker's message names the class of the method it checked: ty ("bound method
# `Cursor.execute`"), zuban ('"execute" of "Cursor"'), pyrefly ("`sqlite3.Cursor.execute`").
_CLASS_IN_MESSAGE = (
    re.compile(r"`(?:\w+\.)*(?P<cls>[A-Z]\w*)\.(?P<method>\w+)`"),
    re.compile(r'"(?P<method>\w+)" of "(?P<cls>[A-Z]\w*)"'),
)
_MODULE_OF_FAMILY = {"SQL": "sqlite3", "logging": "logging"}


def qualified_api(call: SinkCall, messages: Sequence[str]) -> str:
    """The sink's full name when a checker's message names the method's class."""
    module = _MODULE_OF_FAMILY.get(call.rule.family)
    method = call.called_as
    for message in messages if module else ():
        for pattern in _CLASS_IN_MESSAGE:
            match = pattern.search(message)
            if match and match["method"] == method:
                return f"{module}.{match['cls']}.{method}"
    return call.api


def callee_name(node: ast.expr) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


def find_sink_calls(
    calls: Iterable[ast.Call],
    source: str,
    imported: Mapping[str, str] | None = None,
    encoded: tuple[bytes, Sequence[int]] | None = None,
    packages: Iterable[str] | None = None,
) -> list[SinkCall]:
    """The calls, among a file's ``calls``, of a function named like one of our sinks, by its
    own name or, for a name imported under another (``imported``: local name -> qualified
    name), by the name it was imported as.  ``encoded``: the source's UTF-8 bytes and line
    offsets (``byte_offsets``), when the caller keeps them for many calls; ``packages``: the
    top-level packages the file imports anywhere (else those of ``imported``)."""
    found: list[SinkCall] = []
    data, offsets = encoded or (source.encode("utf-8"), byte_offsets(source))
    if packages is None:
        packages = (q.split(".", 1)[0] for q in (imported or {}).values())
    names = sink_names(packages)
    for node in calls:
        name = callee_name(node.func)
        if name not in names and isinstance(node.func, ast.Name) and imported:
            name = imported.get(node.func.id, "").rsplit(".", 1)[-1]
        if name not in names:
            continue
        rule, api = names[name]
        if rule is LOGGING and not has_format_arguments(node, name):
            rule = LOGGING_MESSAGE  # only the strict profile asks for a literal message here
        callee = segment(data, offsets, node.func) or name
        found.append(
            SinkCall(
                node.lineno,
                node.col_offset + 1,
                node.end_lineno or node.lineno,
                callee,
                rule,
                api,
                name,
            )
        )
    return found


def only_unpacked_arguments(call: ast.Call) -> ast.Starred | None:
    """The last ``*args`` of a logging call whose formatting arguments are all unpacked
    (``logger.log(level, msg, *args)``), else None.

    Its tightened overloads cannot require a literal message there: ``*args`` may be empty, so
    the overload without formatting arguments, which takes any str, matches.  ``check`` adds
    one argument after it in an instrumented copy, so that the other overload is chosen."""
    name = callee_name(call.func)
    if name not in SINK_NAMES or SINK_NAMES[name][0] is not LOGGING:
        return None
    extra = call.args[(1 if name == "log" else 0) + 1 :]
    if extra and all(isinstance(a, ast.Starred) for a in extra):
        last = extra[-1]
        assert isinstance(last, ast.Starred)
        return last
    return None


def one_more_argument(source: str, calls: Sequence[ast.Call]) -> list[tuple[int, bytes]]:
    """``logger.log(level, msg, *args)`` becomes ``logger.log(level, msg, *args, 0)``: the
    tightened overload with formatting arguments is chosen, which asks for a literal ``msg``
    (``sinks.only_unpacked_arguments``).  The insertions, (byte offset, text) each."""
    offsets = byte_offsets(source)
    insertions: list[tuple[int, bytes]] = []
    for call in calls:
        starred = only_unpacked_arguments(call)
        assert starred is not None
        assert starred.end_lineno is not None
        insertions.append((offsets[starred.end_lineno - 1] + (starred.end_col_offset or 0), b", 0"))
    return insertions


def with_one_more_argument(source: str, calls: Sequence[ast.Call]) -> str:
    """The source with ``one_more_argument`` inserted.  Nothing before the insertion moves."""
    return insert_at(source, one_more_argument(source, calls)).text


def has_format_arguments(call: ast.Call, name: str) -> bool:
    """Whether a logging call passes arguments to format its message with (``log`` takes the
    level first); ``*args`` may hold some."""
    message_at = 1 if name == "log" else 0
    extra = call.args[message_at + 1 :]
    return bool(extra) or any(isinstance(a, ast.Starred) for a in call.args)


def log_message(call: ast.Call, name: str) -> ast.expr | None:
    """The message of a logging call (``log`` takes the level first), or None where it is
    unpacked or missing."""
    message_at = 1 if name == "log" else 0
    given = call.args[: message_at + 1]
    if len(given) > message_at and not any(isinstance(a, ast.Starred) for a in given):
        return given[message_at]
    return next((k.value for k in call.keywords if k.arg == "msg"), None)


def innermost_sink_call(calls: list[SinkCall], line: int, column: int) -> SinkCall | None:
    """The sink call that contains a diagnostic's position (the innermost, if nested)."""
    containing = [c for c in calls if (c.line, c.column) <= (line, column) and line <= c.end_line]
    return max(containing, key=lambda c: (c.line, c.column), default=None)
