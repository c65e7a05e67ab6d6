"""Quick fixes for a finding, where the fix is mechanical.

- An SQL ``IN`` list built by joining values into the text (``f"... IN ({', '.join(ids)})"``,
  given straight to the call or through a name assigned once): its markers from
  ``typing_literalstring.sql.placeholders`` and the values passed as the query's parameters,
  for the drivers whose marker we know (``?`` for sqlite3 and aiosqlite, ``%s`` for psycopg2,
  PyMySQL and mysqlclient), when the call passes no parameters yet.
- A shell command built from values (an f-string or ``+``): each value quoted with
  ``typing_literalstring.shell.quote``.  Only the values in view are quoted: a part that is
  itself a piece of command line (a program and its options held in a variable) would become
  one word, so read the change before saving it; the checker then judges the result.
- Any finding: our suppression comment on its statement, with a reason to write
  (``# typing-literalstring: ignore[LS101] TODO: why this is safe``), or the rule added to the
  statement's comment when it has one.

Each works on the document as the editor holds it now; a document that does not parse gets no
fix.  Positions come and go in the editor's position encoding.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass
from typing import Iterator, Sequence, cast

from lsprotocol import types

from typing_literalstring.analysis.statements import Statements, all_nodes
from typing_literalstring.core import sources
from typing_literalstring.specs.sinks import callee_name

REASON = "TODO: why this is safe"
_SUPPRESSION = re.compile(r"#\s*typing-literalstring\s*:\s*ignore\[(?P<codes>[^\]]*)\]")
_IN_LIST = re.compile(r"\bIN\s*\(\s*$", re.IGNORECASE)
# The parameter markers of the drivers whose findings name them (Finding.api's first word).
_MARKERS = {"sqlite3": "?", "aiosqlite": "?", "psycopg2": "%s", "PyMySQL": "%s"}
_MARKERS.update({"mysqlclient": "%s", "MySQLdb": "%s"})
# Keywords that carry the text of an SQL or shell call, and the parameters of an SQL call.
_TEXT_KEYWORDS = ("sql", "query", "operation", "statement", "args", "command", "cmd")
_PARAMETER_KEYWORDS = ("parameters", "params", "args", "vars", "seq_of_parameters")


@dataclass(frozen=True)
class _Document:
    uri: str
    lines: list[str]
    tree: ast.Module
    encoding: str

    def units(self, line: int, offset: int) -> int:
        """A UTF-8 byte offset of 1-based ``line`` in the editor's units."""
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        prefix = text.encode("utf-8")[:offset].decode("utf-8", errors="ignore")
        if self.encoding == "utf-8":
            return len(prefix.encode("utf-8"))
        if self.encoding == "utf-32":
            return len(prefix)
        return len(prefix.encode("utf-16-le", errors="surrogatepass")) // 2

    def offset(self, position: types.Position) -> tuple[int, int]:
        """An editor position as (1-based line, UTF-8 byte offset)."""
        line = position.line + 1
        text = self.lines[line - 1] if 0 < line <= len(self.lines) else ""
        count, characters = 0, 0
        for character in text:
            if count >= position.character:
                break
            count += self._width(character)
            characters += 1
        return line, len(text[:characters].encode("utf-8"))

    def _width(self, character: str) -> int:
        if self.encoding == "utf-8":
            return len(character.encode("utf-8"))
        if self.encoding == "utf-32":
            return 1
        return 2 if ord(character) > 0xFFFF else 1

    def position(self, line: int, offset: int) -> types.Position:
        return types.Position(line=line - 1, character=self.units(line, offset))

    def segment(self, node: ast.AST) -> str:
        return ast.get_source_segment("\n".join(self.lines), node) or ""

    def replace(self, node: ast.expr, text: str) -> types.TextEdit:
        start = self.position(node.lineno, node.col_offset)
        end = self.position(node.end_lineno or node.lineno, node.end_col_offset or 0)
        return types.TextEdit(range=types.Range(start=start, end=end), new_text=text)

    def insert(self, line: int, offset: int, text: str) -> types.TextEdit:
        at = self.position(line, offset)
        return types.TextEdit(range=types.Range(start=at, end=at), new_text=text)


def code_actions(
    uri: str, text: str, diagnostics: Sequence[types.Diagnostic], encoding: str
) -> list[types.CodeAction]:
    """The quick fixes of our ``diagnostics`` in the document ``text``."""
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError):
        return []
    document = _Document(uri, sources.lines(text), tree, encoding)
    found: list[types.CodeAction] = []
    for diagnostic in diagnostics:
        data = _data(diagnostic)
        rule = str(diagnostic.code)
        call = _call_at(document, diagnostic.range.start, data.get("callee", ""))
        if call is not None and not data.get("through"):
            if rule == "LS101":
                found += _placeholders(document, diagnostic, call, data.get("api", ""))
            elif rule == "LS201":
                found += _quote(document, diagnostic, call)
        found += _suppress(document, diagnostic, rule)
    return found


def _data(diagnostic: types.Diagnostic) -> dict[str, str]:
    """What the server put in the diagnostic's ``data`` (the editor sends it back as it was)."""
    raw: object = diagnostic.data
    if not isinstance(raw, dict):
        return {}
    return {str(k): str(v) for k, v in cast("dict[object, object]", raw).items()}


def _action(
    title: str, document: _Document, diagnostic: types.Diagnostic, edits: list[types.TextEdit]
) -> types.CodeAction:
    return types.CodeAction(
        title=title,
        kind=types.CodeActionKind.QuickFix,
        diagnostics=[diagnostic],
        edit=types.WorkspaceEdit(changes={document.uri: edits}),
    )


def _call_at(document: _Document, start: types.Position, callee: str) -> ast.Call | None:
    """The call the finding starts at: of its callee if one starts there, else the innermost."""
    line, offset = document.offset(start)
    calls = [
        node
        for node in all_nodes(document.tree)
        if isinstance(node, ast.Call) and node.lineno == line and node.col_offset == offset
    ]
    named = [c for c in calls if callee and document.segment(c.func) == callee]
    chosen = named or calls
    return min(chosen, key=lambda c: len(document.segment(c))) if chosen else None


def _suppress(
    document: _Document, diagnostic: types.Diagnostic, rule: str
) -> list[types.CodeAction]:
    line = diagnostic.range.start.line + 1
    span = Statements(document.tree, "\n".join(document.lines)).span(line)
    title = f"Suppress {rule} on this statement (typing-literalstring: ignore)"
    for number in range(span.first, span.last + 1):
        text = document.lines[number - 1]
        existing = _SUPPRESSION.search(text)
        if existing is not None and _is_comment(text, existing.start()):
            codes = [c.strip() for c in existing["codes"].split(",") if c.strip()]
            if rule in codes:
                return []
            at = len(text[: existing.end("codes")].encode("utf-8"))
            edit = document.insert(number, at, f", {rule}" if codes else rule)
            return [_action(title, document, diagnostic, [edit])]
    last = document.lines[span.last - 1]
    comment = f"  # typing-literalstring: ignore[{rule}] {REASON}"
    edit = document.insert(span.last, len(last.rstrip().encode("utf-8")), comment)
    return [_action(title, document, diagnostic, [edit])]


def _is_comment(text: str, index: int) -> bool:
    """Whether ``index`` of the line is inside a comment (a ``#`` outside strings before it)."""
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                return token.start[1] <= index
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return False
    return False


def _text_argument(call: ast.Call) -> ast.expr | None:
    if call.args and not isinstance(call.args[0], ast.Starred):
        return call.args[0]
    return next((k.value for k in call.keywords if k.arg in _TEXT_KEYWORDS), None)


def _built(document: _Document, call: ast.Call, text: ast.expr) -> ast.expr | None:
    """The expression building the call's text: the text itself, or the value of a name
    assigned once in the function (or module) holding the call, before it."""
    if not isinstance(text, ast.Name):
        return text
    scope = _scope_of(document.tree, call)
    assigned = [
        node
        for node in all_nodes(scope)
        if isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign, ast.NamedExpr))
        and any(callee_name(t) == text.id for t in _targets(node))
    ]
    if len(assigned) != 1 or assigned[0].lineno >= call.lineno:
        return None
    value = assigned[0].value
    return value if isinstance(assigned[0], ast.Assign) and value is not None else None


def _targets(node: ast.AST) -> list[ast.expr]:
    if isinstance(node, ast.Assign):
        return list(node.targets)
    if isinstance(node, (ast.AnnAssign, ast.AugAssign, ast.NamedExpr)):
        return [node.target]
    return []


def _scope_of(tree: ast.Module, call: ast.Call) -> ast.AST:
    functions = [
        node
        for node in all_nodes(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
        and node.lineno <= call.lineno <= (node.end_lineno or node.lineno)
    ]
    return max(functions, key=lambda f: f.lineno) if functions else tree


def _joined(value: ast.expr) -> ast.expr | None:
    """The sequence whose items ``sep.join(...)`` puts in the text: ``ids`` of
    ``", ".join(ids)``, ``",".join(map(str, ids))`` or ``",".join(str(i) for i in ids)``."""
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "join"
        and isinstance(value.func.value, ast.Constant)
        and len(value.args) == 1
        and not value.keywords
    ):
        return None
    items = value.args[0]
    if isinstance(items, ast.Call) and callee_name(items.func) == "map" and len(items.args) == 2:
        items = items.args[1]
    elif isinstance(items, (ast.GeneratorExp, ast.ListComp)) and len(items.generators) == 1:
        generator = items.generators[0]
        items = generator.iter if not generator.ifs and not generator.is_async else items
    return items if isinstance(items, (ast.Name, ast.Attribute, ast.Subscript)) else None


def _placeholders(
    document: _Document, diagnostic: types.Diagnostic, call: ast.Call, api: str
) -> list[types.CodeAction]:
    marker = _MARKERS.get(api.split(" ", 1)[0].split(".", 1)[0])
    text = _text_argument(call)
    if marker is None or text is None or len(call.args) > 1:
        return []
    if any(k.arg in _PARAMETER_KEYWORDS for k in call.keywords):
        return []  # parameters given: where the list's values go among them is not mechanical
    built = _built(document, call, text)
    if not isinstance(built, ast.JoinedStr):
        return []
    edits: list[types.TextEdit] = []
    sequence: ast.expr | None = None
    before = ""
    for part in built.values:
        if isinstance(part, ast.Constant) and isinstance(part.value, str):
            before += part.value
            continue
        if isinstance(part, ast.FormattedValue) and _IN_LIST.search(before) and sequence is None:
            sequence = _joined(part.value)
            if sequence is not None:
                count = f"len({document.segment(sequence)})"
                argument = count if marker == "?" else f'{count}, "{marker}"'
                edits.append(document.replace(part.value, f"placeholders({argument})"))
        before = ""
    if sequence is None:
        return []
    end = _end_of_arguments(document, call)
    edits.append(document.insert(end[0], end[1], f", tuple({document.segment(sequence)})"))
    edits += _import(document, "typing_literalstring.sql", "placeholders")
    title = "Build the IN list with typing_literalstring.sql.placeholders and pass the values"
    return [_action(title, document, diagnostic, edits)]


def _end_of_arguments(document: _Document, call: ast.Call) -> tuple[int, int]:
    """Where a new last argument goes: after the last one (before a trailing comma)."""
    last = max(
        [*call.args, *(k.value for k in call.keywords)], key=lambda n: (n.lineno, n.col_offset)
    )
    return (last.end_lineno or last.lineno, last.end_col_offset or 0)


def _dynamic_parts(text: ast.expr) -> Iterator[ast.expr]:
    """The values an f-string or a ``+`` of strings puts into the command."""
    if isinstance(text, ast.JoinedStr):
        for part in text.values:
            if not isinstance(part, ast.FormattedValue):
                continue
            if part.conversion == -1 and part.format_spec is None:  # no !r, no format spec
                yield part.value
    elif isinstance(text, ast.BinOp) and isinstance(text.op, ast.Add):
        for side in (text.left, text.right):
            if isinstance(side, ast.Constant):
                continue
            if isinstance(side, (ast.JoinedStr, ast.BinOp)):
                yield from _dynamic_parts(side)
            else:
                yield side


def _quote(
    document: _Document, diagnostic: types.Diagnostic, call: ast.Call
) -> list[types.CodeAction]:
    text = _text_argument(call)
    built = _built(document, call, text) if text is not None else None
    if built is None:
        return []
    parts = [
        p
        for p in _dynamic_parts(built)
        if not (isinstance(p, ast.Call) and callee_name(p.func) in ("quote", "join", "shlex.quote"))
    ]
    if not parts:
        return []
    imported = _import(document, "typing_literalstring.shell", "quote")
    name = _bound_name(document, "typing_literalstring.shell", "quote")
    edits = [document.replace(p, f"{name}({document.segment(p)})") for p in parts]
    title = "Quote each value with typing_literalstring.shell.quote"
    return [_action(title, document, diagnostic, edits + imported)]


def _bound_name(document: _Document, module: str, name: str) -> str:
    """The name ``module.name`` is called by in the document: its own if it is free or
    already ours, else ``literal_<name>``."""
    for node in document.tree.body:
        if isinstance(node, (ast.Import, ast.ImportFrom)):
            for alias in node.names:
                bound = alias.asname or alias.name.split(".")[0]
                if bound != name:
                    continue
                ours = isinstance(node, ast.ImportFrom) and node.module == module
                return name if ours and alias.name == name else f"literal_{name}"
    return name


def _import(document: _Document, module: str, name: str) -> list[types.TextEdit]:
    """The import of ``module.name`` the fix calls, unless the document has it."""
    bound = _bound_name(document, module, name)
    for node in document.tree.body:
        names = node.names if isinstance(node, ast.ImportFrom) and node.module == module else []
        if any(a.name == name and (a.asname or a.name) == bound for a in names):
            return []
    alias = "" if bound == name else f" as {bound}"
    statement = f"from {module} import {name}{alias}\n"
    imports = [n for n in document.tree.body if isinstance(n, (ast.Import, ast.ImportFrom))]
    if imports:
        after = max((n.end_lineno or n.lineno) for n in imports)
        return [document.insert(after + 1, 0, statement)]
    body = document.tree.body
    docstring = (
        body
        and isinstance(body[0], ast.Expr)
        and isinstance(body[0].value, ast.Constant)
        and isinstance(body[0].value.value, str)
    )
    if docstring:
        return [document.insert((body[0].end_lineno or body[0].lineno) + 1, 0, statement)]
    return [document.insert(1, 0, statement)]
