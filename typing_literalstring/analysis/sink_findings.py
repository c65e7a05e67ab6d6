"""The findings and unverified entries a sink call's outcome makes (``sink_outcomes``): their
rule, their message, and what the run revealed to explain them; and where an Any comes from
the project's own untyped code."""

from __future__ import annotations

import ast
import io
import re
import tokenize
from typing import Iterable, Sequence

from typing_literalstring.analysis.findings import PSYCOPG, Finding, Unverified, source_line
from typing_literalstring.analysis.literal_syntax import literal_argv, literal_in_view
from typing_literalstring.analysis.scoped_bindings import binding_of
from typing_literalstring.analysis.sink_looks import Look
from typing_literalstring.analysis.statements import all_statements
from typing_literalstring.analysis.unverified import (
    Instrumented,
    composition_parts,
)
from typing_literalstring.core.source_edits import segment
from typing_literalstring.specs.sinks import (
    SHELL,
    SQL,
    UNVERIFIED_BUILT,
    UNVERIFIED_SINK,
    UNVERIFIED_UNTYPED,
    Rule,
    callee_name,
)

# Only these are sink-looking when the callee is typed with plain `str`: a project's own
# `execute(sql: str)`.  A `Template` or `text` typed `str` is most often something else
# (string.Template, a project's own `text()` helper).
_STR_TYPED_SQL = frozenset(("execute", "executemany", "executescript", "mogrify", "raw"))

# What an SQL statement's literal text starts a clause with.
SQL_WORDS = re.compile(
    r"\b(?:select|insert|update|delete|replace|pragma|create|drop|alter|where|from|into|"
    r"values|set|order\s+by|group\s+by|limit|join|truncate|attach|vacuum|with)\b",
    re.IGNORECASE,
)

LITERAL = re.compile(r"(?:LiteralString|Literal\[.*\]\??|None)$")

# A number formatted into a wrapper's text: no injection is made of it.
NUMBER = re.compile(r"(?:builtins\.)?(?:int|float|bool)(?: \| None)?$")

# The receivers named like the instance or the class: their Any is the class's, not untyped
# input.
_SELF = frozenset(("self", "cls", "mcs", "metacls"))


def unverified_finding(
    path: str,
    look: Look,
    instrumented: Instrumented,
    callee_text: str,
    any_parts: Sequence[ast.expr],
    receiver: str,
    untyped_functions: frozenset[str],
) -> Finding | None:
    """The finding an unverified call is worth, if any (see the module's docstring)."""
    data, offsets = instrumented.encoded
    if receiver != "sink":
        name = callee_name(look.call.func) or ""
        if receiver == "str" and name not in _STR_TYPED_SQL:
            return None
        if not look.built:
            # The whole text is Any from the project's untyped code, at a sink it cannot see
            # either (django-debug-toolbar's `cursor.execute(form.cleaned_data["raw_sql"])`).
            untyped = [
                p for p in any_parts if from_untyped_code(p, instrumented, untyped_functions)
            ]
            if not untyped:
                return None
            what = "of unknown type" if receiver == "unknown" else "typed with str"
            return make(
                path,
                look,
                instrumented,
                UNVERIFIED_UNTYPED,
                f"{instrumented.explain(untyped)}; the callee `{callee_text}` is {what}",
                api=by_name(look),
            )
        open_parts = [
            p
            for p in look.parts
            if not LITERAL.match(instrumented.type_of(p) or "Any")
            and not literal_in_view(p, instrumented)
        ]
        composed = [p for p in open_parts if not isinstance(p, ast.Name) or p is look.argument]
        if not open_parts or (look.rule is SQL and not SQL_WORDS.search(look.literal_text)):
            return None
        shown = composed or open_parts
        what = "of unknown type" if receiver == "unknown" else "typed with str"
        return make(
            path,
            look,
            instrumented,
            UNVERIFIED_SINK,
            f"the callee `{callee_text}` is {what}; the text is built from "
            + named(data, offsets, shown, instrumented),
            api=by_name(look),
        )
    untyped = [p for p in any_parts if from_untyped_code(p, instrumented, untyped_functions)]
    if look.built:
        return make(
            path,
            look,
            instrumented,
            UNVERIFIED_BUILT,
            "the text is built from "
            + named(data, offsets, any_parts, instrumented)
            + "; the literal parts are proven",
        )
    if untyped:
        return make(
            path,
            look,
            instrumented,
            UNVERIFIED_UNTYPED,
            instrumented.explain(untyped),
        )
    return None


def named(
    data: bytes, offsets: Sequence[int], parts: Sequence[ast.expr], instrumented: Instrumented
) -> str:
    return ", ".join(
        f"`{short(segment(data, offsets, p))}` ({instrumented.type_of(p)})" for p in parts
    )


def short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def make(
    path: str, look: Look, instrumented: Instrumented, rule: Rule, message: str, api: str = ""
) -> Finding:
    data, offsets = instrumented.encoded
    call = look.call
    return Finding(
        path,
        call.lineno,
        call.col_offset + 1,
        rule,
        api or look.api,
        segment(data, offsets, call.func),
        source_line(instrumented.source, call.lineno),
        (message,),
        # psycopg's composition is the fix for SQL in a file that uses it.
        uses_psycopg=rule.family == SQL.family and bool(set(PSYCOPG) & instrumented.imported),
    )


# The checkers' own ignore comments: mypy, pyright, basedpyright, ty, zuban and pyrefly honour
# `# type: ignore`; each also its own (pyrefly's also `# pyre-ignore`).
_CHECKER_IGNORE = re.compile(
    r"#\s*(?:type|pyright|basedpyright|ty|zuban|mypy|pyrefly)\s*:\s*ignore\b|#\s*pyre-ignore\b"
)


def checker_ignored(source: str, call: ast.Call) -> bool:
    """Whether a line of the call carries a checker's ignore comment (its comments only, not
    the text of its strings)."""
    lines = source.splitlines()[call.lineno - 1 : call.end_lineno or call.lineno]
    if not any(_CHECKER_IGNORE.search(line) for line in lines):
        return False
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("\n".join(lines) + "\n").readline))
    except (tokenize.TokenError, SyntaxError):
        return True  # a call cut mid-string: its lines named an ignore comment, keep it
    return any(t.type == tokenize.COMMENT and _CHECKER_IGNORE.search(t.string) for t in tokens)


def by_name(look: Look) -> str:
    """What a call is known as when the checker cannot see its sink: its name's family."""
    article = "an" if look.rule is SQL else "a"
    return f"{callee_name(look.call.func)}, named like {article} {look.rule.family} sink"


def unverified_call(path: str, look: Look, callee: str, reason: str, detail: str) -> Unverified:
    call = look.call
    api = look.api
    if reason in ("receiver-unknown", "callee-str"):
        api = by_name(look)
    return Unverified(path, call.lineno, call.col_offset + 1, callee, api, reason, detail)


def from_untyped_code(
    node: ast.expr, instrumented: Instrumented, untyped_functions: frozenset[str], depth: int = 0
) -> bool:
    """Whether an Any comes from the project's own unannotated code: a parameter without an
    annotation (not ``self``), or the return of a project function without a return
    annotation, read through attributes, subscripts, method calls, the arguments of a class
    built in view and names assigned in view."""
    if depth > 8:
        return False
    if isinstance(node, ast.Call):
        name = callee_name(node.func)
        if name in untyped_functions and not _rooted_at_self(node.func):
            return True
        if isinstance(node.func, ast.Attribute):
            return from_untyped_code(node.func.value, instrumented, untyped_functions, depth + 1)
        if name is not None and name[:1].isupper():
            # An object built from untyped input carries it: `SQLSelectForm(request.POST)`.
            return any(
                from_untyped_code(a, instrumented, untyped_functions, depth + 1)
                for a in [*node.args, *(k.value for k in node.keywords)]
                if not isinstance(a, ast.Starred)
            )
        return False
    if isinstance(node, (ast.Attribute, ast.Subscript)):
        return from_untyped_code(node.value, instrumented, untyped_functions, depth + 1)
    if isinstance(node, (ast.BoolOp, ast.IfExp)):  # `request.POST or None`
        values = node.values if isinstance(node, ast.BoolOp) else [node.body, node.orelse]
        return any(from_untyped_code(v, instrumented, untyped_functions, depth + 1) for v in values)
    if isinstance(node, ast.Name):
        binding = binding_of(node, instrumented.scopes.get(id(node), []))
        if binding is None:
            return False
        if binding.kind == "parameter":
            return binding.annotation is None and node.id not in _SELF
        if binding.value is not None and binding.annotation is None:
            return any(
                from_untyped_code(p, instrumented, untyped_functions, depth + 1)
                for p in composition_parts(binding.value)
            )
    return False


def _rooted_at_self(node: ast.expr) -> bool:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return isinstance(node, ast.Name) and node.id in _SELF


def untyped_functions(trees: Iterable[ast.Module]) -> frozenset[str]:
    """The names of the project's functions without a return annotation: under mypy their
    calls are Any, and pyright's Unknown says it could not infer them either."""
    return frozenset(
        node.name
        for tree in trees
        for node in all_statements(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.returns is None
        and not node.name.startswith("__")
    )


# A list of plain strings (not of LiteralString), as each checker writes it.
_STR_LIST = re.compile(r"(?:builtins\.)?(?:list|List|Sequence|tuple|Tuple)\[str(?:, \.\.\.)?\]$")


def str_list_to_a_shell(path: str, look: Look, instrumented: Instrumented) -> Finding | None:
    """A list of str given to a standard shell function whose ``shell=`` is an expression, or
    which a ``**mapping`` may give it (``Look.mapping``): when it is true, the list's first item
    is the shell's script (ansys-geometry-core's ``Popen(args, shell=os.name != "nt")``,
    CVE-2024-29189; pyright reads the comparison as False on Linux, mypy as bool, and neither
    sees a script)."""
    if look.rule is not SHELL or look.callee is not None or look.argument not in look.parts:
        return None
    revealed = instrumented.type_of(look.argument) or ""
    if not _STR_LIST.match(revealed.strip()):
        return None
    data, offsets = instrumented.encoded
    shell = next((k.value for k in look.call.keywords if k.arg == "shell"), None)
    if shell is not None and not isinstance(shell, ast.Constant):
        turned = f"`shell={short(segment(data, offsets, shell))}` may be true"
    elif shell is None and look.mapping is not None:
        turned = f"`**{short(segment(data, offsets, look.mapping))}` may turn on the shell"
    else:
        return None  # shell=True with a list: the checker judges it against our stubs
    if literal_argv(look.argument):
        return None  # beets' `run(["ffprobe", "-version"], shell=os.name == "nt")`
    return make(
        path,
        look,
        instrumented,
        SHELL,
        f"`{short(segment(data, offsets, look.argument))}` is {revealed} and {turned}: its "
        "first item is then the shell's script, which no LiteralString proves",
    )


__all__ = [
    "LITERAL",
    "NUMBER",
    "SQL_WORDS",
    "by_name",
    "checker_ignored",
    "from_untyped_code",
    "make",
    "named",
    "short",
    "str_list_to_a_shell",
    "untyped_functions",
    "unverified_call",
    "unverified_finding",
]
