"""From the tightened run's errors to findings: each error is a sink finding of its family, an
LS001 (a LiteralString of the project or a library refused a str), an unresolved import, or
one of the checker's other errors; then each finding is fingerprinted, given its fix and
matched against the suppression comments."""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

from typing_literalstring.analysis import (
    callees,
    fix_hints,
    flow,
    own_sinks,
)
from typing_literalstring.analysis.findings import PSYCOPG, CheckResult, Finding, source_line
from typing_literalstring.analysis.literal_errors import (
    callee_in,
    is_no_matching_overload,
    is_untyped_module,
    unresolved_module,
)
from typing_literalstring.analysis.parsed import Parsed, sink_call_of
from typing_literalstring.analysis.runs import Key, error_key
from typing_literalstring.analysis.statements import all_nodes, imported_packages
from typing_literalstring.analysis.suppressions import Malformed, Suppression
from typing_literalstring.checkers import (
    Diagnostic,
)
from typing_literalstring.specs.sinks import (
    NON_LITERAL,
    SQL,
    SinkCall,
    qualified_api,
)
from typing_literalstring.specs.typeshed_literals import (
    literal_preserving_parameters,
    requires_literal_string,
)


def _stub_finding(call: SinkCall, diagnostics: list[Diagnostic], entry: Parsed) -> Finding:
    messages = tuple(d.message for d in diagnostics)
    return Finding(
        diagnostics[0].path,
        call.line,
        call.column,
        call.rule,
        third_party_api(call, diagnostics, entry) or _table_api(call, messages, entry),
        call.callee,
        source_line(entry.source, call.line),
        messages,
    )


def _table_api(call: SinkCall, messages: tuple[str, ...], entry: Parsed) -> str:
    """The sink's name when no specification of an imported package matched: as the checker's
    message names its class, else by the file's imports (an `execute` in a file without
    sqlite3 is not sqlite3's)."""
    qualified = qualified_api(call, messages)
    if qualified != call.api:
        return qualified
    return own_sinks.named_by_imports(call.called_as, qualified, imported_packages(entry.tree))


# The class a message names: zuban's `"execute" of "Cursor"`, ty's `Cursor.execute`.
_CLASS_NAMED = re.compile(r'"\w+" of "(\w+)"|`(?:\w+\.)*(\w+)\.\w+`')


def third_party_api(call: SinkCall, diagnostics: list[Diagnostic], entry: Parsed) -> str:
    """A third-party sink's name, where the messages tell which one it is; else, when they
    name only the method (zuban's "No overload variant of "execute" of "Cursor""), the
    sinks of that name in the distributions the file imports ("" when none)."""
    called_as = call.called_as
    imported = {qualified.split(".")[0] for qualified in entry.names.values()}
    imported |= imported_packages(entry.tree)  # also under `if TYPE_CHECKING:`
    # Only a package the file imports: sqlite3's and aiosqlite's `execute(sql: LiteralString)`
    # read alike (beets 2.14.1 was told aiosqlite).
    named = {
        t.api
        for d in diagnostics
        for t in own_sinks.matching(d, called_as)
        if t.distribution and t.module.split(".")[0] in imported
    }
    if not named and not any(own_sinks.matching(d, called_as) for d in diagnostics):
        classes = {c for d in diagnostics for m in _CLASS_NAMED.findall(d.message) for c in m if c}
        named = {
            t.api
            for t in own_sinks.tightened_parameters()
            if t.distribution
            and t.called_as == called_as
            and t.module.split(".")[0] in imported
            and (not classes or t.owner in classes)
            and "sqlite3" not in imported
        }
    return " or ".join(sorted(named))


def _literal_finding(parsed: Parsed, diagnostics: list[Diagnostic]) -> Finding:
    """An LS001 finding: the checker's own LiteralString error, with the callee named."""
    first = diagnostics[0]
    messages = tuple(d.message for d in diagnostics)
    named = callee_in(messages)
    site = parsed.sites.at(first.line, first.column, callee_hint(diagnostics))
    callee = ""
    api = ""
    line, column = first.line, first.column
    if site.call is not None:
        callee = ast.get_source_segment(parsed.source, site.call.func) or ""
        api = callees.qualify(site.call, named, parsed.names, parsed.source)
        line, column = site.call.lineno, site.call.col_offset + 1
    elif named is not None and named.function:
        api = named.function
    if not api:
        function = site.function.name if site.function else ""
        if site.kind == "return" and function:
            owner = f"{parsed.module}." if parsed.module else ""
            api = f"the return value of {owner}{function}"
        else:
            api = "a variable, attribute or item declared LiteralString"
    return Finding(
        first.path,
        line,
        column,
        NON_LITERAL,
        api,
        callee,
        source_line(parsed.source, line),
        messages,
        named.parameter if named is not None else "",
        any(q.split(".")[0] in PSYCOPG for q in (api, *parsed.names.values())),
    )


def _string_argument(entry: Parsed, finding: Finding) -> ast.expr | None:
    """The argument that carries the string a finding is about: the one its parameter names,
    else the first."""
    call = entry.sites.at(finding.line, finding.column).call
    if call is None:
        return None
    for keyword in call.keywords:
        if keyword.arg and keyword.arg == finding.parameter:
            return keyword.value
    return call.args[0] if call.args else None


def _sink_family(entry: Parsed, finding: Finding) -> str:
    """The family of the sink called where the finding is ("" when the call is none of ours):
    an LS001 or LS901 at `Markup(...)` is markup, whose fix is no SQL helper."""
    return next(
        (
            c.rule.family
            for c in entry.sink_calls
            if (c.line, c.column) == (finding.line, finding.column)
        ),
        "",
    )


def finish_findings(result: CheckResult, parsed: dict[str, Parsed]) -> None:
    """Fingerprint each finding and say which fix applies, and set apart those a suppression
    comment names."""
    used: set[Suppression] = set()
    kept: list[Finding] = []
    for finding in result.findings:
        entry = parsed[finding.path]
        family = _sink_family(entry, finding)
        fingerprinted = replace(
            finding,
            # psycopg's composition fixes SQL only, not markup built in a file that uses it.
            uses_psycopg=finding.uses_psycopg and family in ("", SQL.family),
            # What the user wrote, even where its newer grammar was rewritten for our parser.
            source=source_line(entry.read.text, finding.line) if entry.read else finding.source,
            fingerprint=entry.statements.fingerprint(
                finding.line,
                finding.rule.id,
                finding.sink,
                flow=flow.building_lines(entry.tree, _string_argument(entry, finding)),
            ),
            # A hint the finding came with (a wrapper's parameter to annotate) comes last.
            hint=" ".join(
                h
                for h in (
                    fix_hints.hint(
                        finding.rule,
                        _string_argument(entry, finding),
                        entry.constants_declared_str,
                        family,
                    ),
                    finding.hint,
                )
                if h
            ),
        )
        span = entry.statements.span(finding.line)
        matching = [
            s
            for s in entry.suppressions
            if isinstance(s, Suppression) and s.line in span and finding.rule.id in s.codes
        ]
        if matching:
            used.add(matching[0])
            result.suppressed.append((fingerprinted, matching[0]))
        else:
            kept.append(fingerprinted)
    result.findings = kept
    for entry in parsed.values():
        for comment in entry.suppressions:
            if isinstance(comment, Malformed):
                result.malformed_suppressions.append(comment)
            elif comment not in used:
                result.unused_suppressions.append(comment)


@dataclass(frozen=True)
class Stdlib:
    """The checker's typeshed, and the standard library's top-level modules as it lists them."""

    typeshed: Path
    modules: frozenset[str]


def callee_hint(diagnostics: Sequence[Diagnostic]) -> str | None:
    """For ``Sites.at``: the function the messages name; "" when they are about an assignment
    or a return (no function named, no "no overload matches"); None when unknown."""
    named = callee_in(tuple(d.message for d in diagnostics))
    if named is not None and named.function:
        return named.function
    return None if any(is_no_matching_overload(d) for d in diagnostics) else ""


def _place(entry: Parsed, diagnostic: Diagnostic) -> tuple[str, int, int]:
    """Where an error falls: the call it is about, else its own position."""
    site = entry.sites.at(diagnostic.line, diagnostic.column, callee_hint([diagnostic]))
    if site.call is not None:
        return (diagnostic.path, site.call.lineno, site.call.col_offset)
    return (diagnostic.path, diagnostic.line, diagnostic.column)


def classify(
    errors: list[Diagnostic],
    from_stubs: set[Key],
    about: set[Key],
    parsed: dict[str, Parsed],
    result: CheckResult,
    stdlib: Stdlib,
) -> list[Finding]:
    """Sort the tightened run's errors into findings, unresolved imports and other errors."""
    at_stub_sink: dict[tuple[str, int, int], tuple[SinkCall, list[Diagnostic]]] = {}
    literal: dict[tuple[str, int, int], list[Diagnostic]] = {}
    rest: list[Diagnostic] = []
    unresolved: dict[str, None] = {}
    for diagnostic in errors:
        entry = parsed[diagnostic.path]
        module = unresolved_module(diagnostic)
        if module is not None:
            unresolved[module] = None
            result.unresolved_errors += 1
            if is_untyped_module(diagnostic) and module not in result.untyped:
                result.untyped.append(module)
            continue
        call = sink_call_of(entry, diagnostic) if error_key(diagnostic) in from_stubs else None
        if call is not None:
            key = (diagnostic.path, call.line, call.column)
            at_stub_sink.setdefault(key, (call, []))[1].append(diagnostic)
        elif error_key(diagnostic) in about:
            literal.setdefault(_place(entry, diagnostic), []).append(diagnostic)
        else:
            rest.append(diagnostic)
    grouped = {path for path, _, _ in literal}
    for diagnostic in rest:
        # pyright follows "no overloads match" with the last overload's complaint about the
        # same argument: part of the same finding.
        group = (
            literal.get(_place(parsed[diagnostic.path], diagnostic))
            if diagnostic.path in grouped
            else None
        )
        if group is not None and any(is_no_matching_overload(d) for d in group):
            group.append(diagnostic)
        else:
            result.other.append(diagnostic)
    result.unresolved = list(unresolved)
    findings = [
        _stub_finding(call, group, parsed[group[0].path]) for call, group in at_stub_sink.values()
    ]
    # A call the stubs already made a sink finding of is not reported twice.
    stub_calls = {(f.path, f.line, f.column) for f in findings}
    for group in literal.values():
        entry = parsed[group[0].path]
        finding = _literal_finding(entry, group)
        if (
            finding.api.split(".")[0] in stdlib.modules
            and not _named_by_a_local(entry, finding)
            and not requires_literal_string(stdlib.typeshed, finding.api)
        ):
            # typeshed's literal-preserving overloads (os.path.join, str methods) take any str in
            # another overload: an error there is about something else, such as None or bytes
            # (borgmatic: `os.path.join(state_directory, ...)` with `str | None`).
            result.other.extend(group)
        elif _fills_an_inferred_literal_list(entry, group[0]) or _literal_lost_in_typeshed(
            entry, group[0], stdlib.typeshed
        ):
            result.other.extend(group)
        elif (finding.path, finding.line, finding.column) not in stub_calls:
            findings.append(finding)
    result.other.sort()
    return findings


def _named_by_a_local(entry: Parsed, finding: Finding) -> bool:
    """Whether the finding's callee is named by its text alone, through a name the file
    neither imports nor defines at its top (`cmd.append`, with a local `cmd`): a local that
    shares a standard module's name (`cmd`, `string`, `code`) is no call of that module."""
    head = finding.callee.split(".")[0].strip()
    if not finding.callee or finding.api != finding.callee or head in entry.names:
        return False
    # An import inside a function (`def f(): import os`) binds the module too.
    return not any(
        (alias.asname or alias.name.split(".")[0]) == head
        for node in all_nodes(entry.tree)
        if isinstance(node, (ast.Import, ast.ImportFrom))
        for alias in node.names
    )


# A list's methods that put an item into it: refused on a list the checker inferred to hold
# literal strings.
_FILLING = frozenset({"append", "extend", "insert"})
# str methods whose result, on a literal, pyright and our plugin type `list[LiteralString]`
# (PEP 675 Appendix C).
_SPLITTING = frozenset({"split", "rsplit", "splitlines"})


def _fills_an_inferred_literal_list(entry: Parsed, diagnostic: Diagnostic) -> bool:
    """Whether the error refuses a str put into a list that only the checker typed
    `list[LiteralString]`, from a literal's split: `cmd = "ipfs add -q -r".split()`, then
    `cmd.append(path)` (beets 2.14.1, 3 tool mistakes in IMPACT.md; pyright's hid only because
    a name `cmd` read as the standard module).  No declaration asked for literal items, and an
    argument list without a shell takes any str.  A list joined into text keeps the error:
    the checker then calls the joined text literal, so the refusal is the only trace."""
    site = entry.sites.at(diagnostic.line, diagnostic.column, callee_hint([diagnostic]))
    scope: ast.AST = site.function or entry.tree
    name = _filled_name(site.call, scope, diagnostic.line)
    if name is None:
        return False
    if site.function is not None:
        arguments = site.function.args
        every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
        every += [a for a in (arguments.vararg, arguments.kwarg) if a is not None]
        if any(a.arg == name for a in every):
            return False  # a parameter: its type is declared (or Any)
    values: list[ast.expr] = []
    for node in ast.walk(scope):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return False
        if isinstance(node, ast.AnnAssign) and _is_name(node.target, name):
            return False  # `cmd: list[LiteralString] = ...`: declared
        if isinstance(node, ast.Assign):
            for target in node.targets:
                if _is_name(target, name):
                    values.append(node.value)
                elif not isinstance(target, ast.Subscript) and any(
                    _is_name(n, name) for n in ast.walk(target)
                ):
                    return False  # unpacked into: not followed
        elif isinstance(node, (ast.For, ast.AsyncFor, ast.withitem, ast.NamedExpr)):
            bound = node.optional_vars if isinstance(node, ast.withitem) else node.target
            if bound is not None and any(_is_name(n, name) for n in ast.walk(bound)):
                return False
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "join"
            and any(_is_name(n, name) for a in node.args for n in ast.walk(a))
        ):
            return False  # joined into text
    return bool(values) and all(
        isinstance(v, ast.Call) and isinstance(v.func, ast.Attribute) and v.func.attr in _SPLITTING
        for v in values
    )


def _filled_name(call: ast.Call | None, scope: ast.AST, line: int) -> str | None:
    """The name of the list an item is put into at the error: `cmd.append(...)`,
    `cmd.insert(...)`, `cmd.extend(...)`, or `cmd[i] = ...` (mypy's index assignment)."""
    if call is not None:
        func = call.func
        if (
            isinstance(func, ast.Attribute)
            and func.attr in _FILLING
            and isinstance(func.value, ast.Name)
        ):
            return func.value.id
        return None
    for node in ast.walk(scope):
        if isinstance(node, ast.Assign) and node.lineno <= line <= (node.end_lineno or line):
            for target in node.targets:
                if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                    return target.value.id
    return None


def _is_name(node: ast.AST, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def _literal_lost_in_typeshed(entry: Parsed, diagnostic: Diagnostic, typeshed: Path) -> bool:
    """Whether the error refuses, at an assignment or a `for` target, what a literal-preserving
    function of typeshed returns for text the file declares literal: psycopg 3.3.9's sql.py
    declares `pre: LiteralString`, then `for pre, name, spec, conv in
    self._formatter.parse(self._obj)` with `_obj: LiteralString`.  typeshed types
    `Formatter.parse` with `StrOrLiteralStr`, yet pyright solves it to `str` even for a literal
    (and our plugin, as mypy, likewise): the plain checker reports the error on its own stubs,
    and no non-literal text flows there.  The same call given a `str` keeps its finding."""
    site = entry.sites.at(diagnostic.line, diagnostic.column, callee_hint([diagnostic]))
    if site.call is not None:
        return False
    value = _assigned_value(site.function or entry.tree, diagnostic.line)
    if not isinstance(value, ast.Call) or not (value.args or value.keywords):
        return False
    func = value.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    preserving = literal_preserving_parameters(typeshed).get(name)
    if preserving is None or name in own_sinks.literal_string_functions(entry.tree, entry.source):
        return False
    arguments = [*value.args, *(k.value for k in value.keywords)]
    if "self" in preserving and isinstance(func, ast.Attribute):
        arguments.append(func.value)  # a str method: `user.replace("a", "b")` is not literal
    return all(_declared_literal(a, entry.tree, site.function) for a in arguments)


def _assigned_value(scope: ast.AST, line: int) -> ast.expr | None:
    """The value assigned by the assignment, or iterated by the `for` header, at ``line``."""
    for node in ast.walk(scope):
        if isinstance(node, (ast.For, ast.AsyncFor)):
            if node.lineno <= line <= (node.iter.end_lineno or node.lineno):
                return node.iter
        elif (
            isinstance(node, (ast.Assign, ast.AnnAssign))
            and node.value is not None
            and node.lineno <= line <= (node.end_lineno or node.lineno)
        ):
            return node.value
    return None


def _is_literal_string(annotation: ast.expr | None) -> bool:
    """`LiteralString`, `typing.LiteralString` or `"LiteralString"`: exactly, no union."""
    if isinstance(annotation, ast.Constant):
        return annotation.value == "LiteralString"
    if isinstance(annotation, ast.Attribute):
        return annotation.attr == "LiteralString"
    return isinstance(annotation, ast.Name) and annotation.id == "LiteralString"


def _declared_literal(
    argument: ast.expr,
    tree: ast.Module,
    function: ast.FunctionDef | ast.AsyncFunctionDef | None,
) -> bool:
    """Whether an argument is a str literal, or a name or `self` attribute the file declares
    exactly LiteralString (a parameter of the enclosing function, or an annotated assignment:
    `_obj: LiteralString` in the body of the method's class, `self._obj: LiteralString`)."""
    if isinstance(argument, ast.Constant):
        return isinstance(argument.value, str)
    if isinstance(argument, ast.Name):
        name, scope = argument.id, function or tree
        if function is not None:
            arguments = function.args
            every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
            if any(a.arg == name and _is_literal_string(a.annotation) for a in every):
                return True
        return any(
            isinstance(n, ast.AnnAssign)
            and _is_name(n.target, name)
            and _is_literal_string(n.annotation)
            for n in ast.walk(scope)
        )
    if isinstance(argument, ast.Attribute) and isinstance(argument.value, ast.Name):
        if argument.value.id not in ("self", "cls"):
            return False
        attribute = argument.attr
        for node in ast.walk(tree):
            if isinstance(node, ast.ClassDef):
                if function is not None and function not in node.body:
                    continue  # another class's attribute of that name
                if any(
                    isinstance(s, ast.AnnAssign)
                    and _is_name(s.target, attribute)
                    and _is_literal_string(s.annotation)
                    for s in node.body
                ):
                    return True
            elif (
                isinstance(node, ast.AnnAssign)
                and isinstance(node.target, ast.Attribute)
                and node.target.attr == attribute
                and _is_name(node.target.value, argument.value.id)
                and _is_literal_string(node.annotation)
            ):
                return True
    return False
