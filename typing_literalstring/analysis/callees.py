"""Name the function a LiteralString error is about: ``myapp.reports.run_report``.

pyright says only ``in function "run_report"``; the import that brought the name into the file
says where it lives.  This reads the file's imports and top-level definitions (no execution, no
checker run) and combines them with what the checker's message tells (a class name from zuban or
mypy, a qualified name from pyrefly or our mypy plugin).
"""

from __future__ import annotations

import ast
import builtins
import functools
import sys
from dataclasses import dataclass
from typing import Callable, Collection, cast

from typing_literalstring.analysis.literal_errors import Callee
from typing_literalstring.analysis.statements import all_nodes, all_statements
from typing_literalstring.specs.sinks import callee_name


@dataclass(frozen=True)
class Site:
    """Where an error falls: the innermost call whose arguments hold it, and what kind it is."""

    kind: str  # "argument", "return", "assignment"
    call: ast.Call | None
    function: ast.FunctionDef | ast.AsyncFunctionDef | None  # the enclosing function


def contains(node: ast.AST, line: int, column: int) -> bool:
    start = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0) + 1)
    end_line = getattr(node, "end_lineno", None) or start[0]
    # end_col_offset is exclusive and 0-based: the last character's 1-based column.
    end = (end_line, getattr(node, "end_col_offset", None) or 10**9)
    return start <= (line, column) <= end


class Sites:
    """A file's functions, and the calls and returns of the statements asked about.

    A file with many errors is asked where each falls.  Walking the whole tree for each one,
    then once for all, were the slowest steps of ``check`` on large modules: the statements
    are listed without visiting an expression (``all_statements``), and only the expressions
    of a statement that holds an error are walked, once.  ``keep``: the calls that count
    (``--report-any`` leaves out the probes its copy adds).
    """

    def __init__(self, tree: ast.Module, keep: Callable[[ast.Call], bool] | None = None) -> None:
        self._tree = tree
        self._keep = keep
        self._statements = all_statements(tree)
        self.functions = [
            s for s in self._statements if isinstance(s, (ast.FunctionDef, ast.AsyncFunctionDef))
        ]
        self._walked: dict[int, tuple[list[ast.Call], list[ast.expr]]] = {}

    @functools.cached_property
    def calls(self) -> list[ast.Call]:
        """Every call of the file, in the order ``ast.walk`` finds them."""
        return [
            n
            for n in all_nodes(self._tree)
            if isinstance(n, ast.Call) and (self._keep is None or self._keep(n))
        ]

    def calls_on(self, line: int) -> list[ast.Call]:
        """The calls of the statements that hold ``line``."""
        return [c for s in self._holding(line) for c in self._expressions(s)[0]]

    def _holding(self, line: int) -> list[ast.stmt]:
        return [s for s in self._statements if _first_line(s) <= line <= (s.end_lineno or 0)]

    def _expressions(self, statement: ast.stmt) -> tuple[list[ast.Call], list[ast.expr]]:
        """The calls and returned values of a statement, its nested blocks left out (their
        own statements are walked when they hold a line)."""
        walked = self._walked.get(id(statement))
        if walked is None:
            calls: list[ast.Call] = []
            returns: list[ast.expr] = []
            if isinstance(statement, ast.Return) and statement.value is not None:
                returns.append(statement.value)
            for node in _own_parts(statement):
                for inner in ast.walk(node):
                    if isinstance(inner, ast.Call) and (self._keep is None or self._keep(inner)):
                        calls.append(inner)
            walked = self._walked[id(statement)] = (calls, returns)
        return walked

    def at(self, line: int, column: int, callee: str | None = None) -> Site:
        """The innermost call holding (line, column) outside its callee, else the statement kind.

        ``callee`` is what the checker's message says: the called function's name, which
        picks among nested calls (mypy puts "Argument 1 to "execute"" at the argument, which
        may itself be a call: ``cur.execute(q())``), or "" for an error about an assignment or
        a return, which no call starting at that place is the site of (``q = q.decode()``).
        """
        function: ast.FunctionDef | ast.AsyncFunctionDef | None = None
        for definition in self.functions:
            if contains(definition, line, column) and (
                function is None or definition.lineno >= function.lineno
            ):
                function = definition
        candidates: list[ast.Call] = []
        holders: list[ast.Call] = []  # the calls with an argument at (line, column)
        holding = self._holding(line)
        for node in (c for s in holding for c in self._expressions(s)[0]):
            if not node.lineno <= line <= (node.end_lineno or node.lineno):
                continue
            # A keyword argument from its name on (ty points there); Python 3.8's keyword
            # nodes have no position, so there only its value.
            arguments: list[ast.AST] = [
                *node.args,
                *(k if hasattr(k, "lineno") else k.value for k in node.keywords),
            ]
            # Checkers place "no overload matches" at the call itself or its parentheses,
            # the rest at an argument.
            starts_here = (node.lineno, node.col_offset + 1) == (line, column)
            at_call = (starts_here and callee != "") or (
                contains(node, line, column) and not contains(node.func, line, column)
            )
            if at_call or any(contains(a, line, column) for a in arguments):
                candidates.append(node)
                if any(contains(a, line, column) for a in arguments):
                    holders.append(node)
        named = [c for c in candidates if callee and callee_name(c.func) == callee.split(".")[-1]]
        if not named and callee:
            # "Argument 1 to "function"" (mypy on `debug = log.debug; debug("..".format(x))`):
            # the error is about an argument, so the call is one that holds it, not the call
            # the argument itself is.
            named = holders
        best_call = max(named or candidates, key=_start, default=None)
        if best_call is not None:
            return Site("argument", best_call, function)
        returns = (r for s in holding for r in self._expressions(s)[1])
        kind = "return" if any(contains(r, line, column) for r in returns) else "assignment"
        return Site(kind, None, function)


def _first_line(statement: ast.stmt) -> int:
    """A statement's first line: its decorators' when it has some."""
    decorators: list[ast.expr] = getattr(statement, "decorator_list", [])
    return min([statement.lineno, *(d.lineno for d in decorators)])


# A statement's fields that hold its nested blocks, walked as statements of their own.
_BLOCKS = frozenset({"body", "orelse", "finalbody"})


def _own_parts(statement: ast.stmt) -> list[ast.AST]:
    """The parts of a statement outside its nested blocks: an ``if``'s test, a ``def``'s
    decorators and defaults, an ``except``'s type, a ``case``'s pattern and guard."""
    parts: list[ast.AST] = []
    for name, value in ast.iter_fields(statement):
        if name in _BLOCKS:
            continue
        items: list[object] = cast("list[object]", value) if isinstance(value, list) else [value]
        for item in items:
            if isinstance(item, _CLAUSES):
                parts.extend(
                    v for f, v in ast.iter_fields(item) if f != "body" and isinstance(v, ast.AST)
                )
            elif isinstance(item, ast.AST):
                parts.append(item)
    return parts


# An `except` clause or a `case`: not statements, but they hold a block and an expression.
if sys.version_info >= (3, 10):
    _CLAUSES: tuple[type[ast.AST], ...] = (ast.ExceptHandler, ast.match_case)
else:
    _CLAUSES = (ast.ExceptHandler,)


def _start(node: ast.AST) -> tuple[int, int]:
    return (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))


def imported_names(
    tree: ast.Module, module: str | None, is_package: bool = False
) -> dict[str, str]:
    """Each name a file binds by import or top-level definition -> its qualified name.

    ``is_package``: the file is a package's ``__init__``, whose relative imports start from
    the package itself."""
    names: dict[str, str] = {}
    package = (module or "") if is_package else (module.rpartition(".")[0] if module else "")
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.asname:
                    names[alias.asname] = alias.name
                else:
                    top = alias.name.split(".")[0]
                    names[top] = top
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parts = package.split(".") if package else []
                parts = parts[: len(parts) - (node.level - 1)] if node.level > 1 else parts
                base = ".".join([*parts, *([node.module] if node.module else [])])
            for alias in node.names:
                names[alias.asname or alias.name] = f"{base}.{alias.name}" if base else alias.name
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names[node.name] = f"{module}.{node.name}" if module else node.name
    return names


def dotted_name(node: ast.expr) -> list[str] | None:
    """``a.b.c`` -> ``["a", "b", "c"]``; None unless it is names and attributes only."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return [node.id, *reversed(parts)]
    return None


def from_standard_library(call: ast.Call, names: dict[str, str], stdlib: Collection[str]) -> bool:
    """Whether the callee is a builtin, or reached through an import of a standard-library
    module (``stdlib``: its top-level names); False when the file binds the name itself."""
    dotted = dotted_name(call.func)
    if dotted is None:
        return False
    head = dotted[0]
    if head in names:
        return names[head].split(".")[0] in stdlib
    return hasattr(builtins, head)


def qualify(call: ast.Call, callee: Callee | None, names: dict[str, str], source: str) -> str:
    """The best qualified name of the called function that the file and the message allow."""
    if callee is not None and callee.qualified:
        # pyrefly names functions of the same file without their module: `Db.query`.
        head, _, rest = callee.function.partition(".")
        return (
            ".".join([names[head], *([rest] if rest else [])])
            if head in names
            else head + (f".{rest}" if rest else "")
        )
    dotted = dotted_name(call.func)
    if dotted is not None and dotted[0] in names:
        # `run_report(...)`, `reports.run_report(...)`, `sql.SQL(...)`: through the import.
        return ".".join([names[dotted[0]], *dotted[1:]])
    method = dotted[-1] if dotted else (callee.function if callee else "")
    if callee is not None and callee.cls:
        return f"{names.get(callee.cls, callee.cls)}.{method}"
    return ast.get_source_segment(source, call.func) or method
