"""Every sink call has one outcome: proven literal, a finding, or unverified.

A value of type Any passes a LiteralString parameter silently, and so does any value at a
sink-looking call whose receiver the checker cannot type (``self.c.execute(...)`` on an
unknown attribute, a cursor from an unannotated ``cached_property``) or whose callee the project
typed ``str`` (its own cursor Protocol).  Real vulnerabilities hide exactly there.

So the tightened run itself is asked, in the probed copies, what each SQL, shell, template
and markup call receives and what its callee is (``sink_looks``).  Then (``outcomes``):

- the checker reported the call: a finding (already made from its error);
- the callee takes a LiteralString and no part is Any: proven literal by the checker;
- a part is Any: LS902 when the text is built in view (the literal parts are proven, the Any
  part is named), LS903 when the Any comes from the project's own untyped code (a parameter
  without annotation, a project function without a return annotation); otherwise unverified;
- the receiver is unknown, or the callee takes ``str``: LS904 when the text is built in view
  from a non-literal part (and, for SQL, its literal text reads as SQL); otherwise unverified.

- a call of one of the project's own sink wrappers (``wrappers``): proven when what it passes
  is literal, a finding of the sink's family with the chain when it is not, as above when Any.

Logging calls are left to the checker's own verdict: a log message of type Any is not an
injection, and counting every one would drown the calls that are.
"""

from __future__ import annotations

import ast
import io
import re
import tokenize
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Sequence

from typing_literalstring.analysis.callees import imported_names
from typing_literalstring.analysis.findings import Finding, Unverified, source_line
from typing_literalstring.analysis.own_sinks import tightened_parameters
from typing_literalstring.analysis.sink_looks import Look, is_composition
from typing_literalstring.analysis.statements import all_statements
from typing_literalstring.analysis.unverified import (
    Instrumented,
    binding_of,
    composition_parts,
    is_any,
    members,
)
from typing_literalstring.analysis.wrappers import Wrapper, imports_a_sandbox
from typing_literalstring.core.source_edits import segment
from typing_literalstring.specs import argv_lists
from typing_literalstring.specs.sinks import (
    MARKUP,
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
_SQL_WORDS = re.compile(
    r"\b(?:select|insert|update|delete|replace|pragma|create|drop|alter|where|from|into|"
    r"values|set|order\s+by|group\s+by|limit|join|truncate|attach|vacuum|with)\b",
    re.IGNORECASE,
)
_LITERAL = re.compile(r"(?:LiteralString|Literal\[.*\]\??|None)$")
# A number formatted into a wrapper's text: no injection is made of it.
_NUMBER = re.compile(r"(?:builtins\.)?(?:int|float|bool)(?: \| None)?$")
# A revealed type's members that may hold text: str and its literal forms, and what the checker
# could not tell (Any, Unknown, object, a type variable's bound is not known here).
_TEXT_MEMBER = re.compile(
    r"(?:builtins\.)?(?:str|LiteralString|Any|Unknown|object)\*?$|Literal\[['\"]|.*\bstr\b"
)


def _may_be_text(revealed: str) -> bool:
    """Whether a value of the revealed type may be a string: some member of its top-level
    union is.  `Select[tuple[int]]`, `TextClause` or `int | None` is not; `str | None`,
    `Union[str, bytes]` or `Literal['a']` is."""
    return any(_TEXT_MEMBER.match(member.strip()) for member in members(revealed))


# The receivers named like the instance or the class: their Any is the class's, not untyped
# input.
_SELF = frozenset(("self", "cls", "mcs", "metacls"))


@dataclass
class Outcomes:
    """What became of every sink-looking call of the probed files."""

    calls: int = 0
    proven: int = 0
    findings: list[Finding] = field(default_factory=lambda: [])
    unverified: list[Unverified] = field(default_factory=lambda: [])
    # The checker's findings at calls that are no sink after all, by (line, column) span of
    # the call: a template compiled in a sandbox, markup built from escaped text.
    cleared: list[tuple[tuple[int, int], tuple[int, int]]] = field(default_factory=lambda: [])
    # Where the calls proven literal are (line, column), and the findings made at calls of
    # the project's wrappers with the wrapper each went through: a wrapper whose own call
    # is proven (it checked its parameter) makes no finding (``drop_validated_wrappers``).
    proven_at: list[tuple[int, int]] = field(default_factory=lambda: [])
    through: list[tuple[Finding, Wrapper]] = field(default_factory=lambda: [])

    def clears(self, finding: Finding) -> bool:
        return any(a <= (finding.line, finding.column) <= b for a, b in self.cleared)


def outcomes(
    path: str,
    found: Sequence[Look],
    instrumented: Instrumented,
    reported: Sequence[Finding],
    untyped_functions: frozenset[str],
) -> Outcomes:
    """Each call's outcome, once the run revealed its types (``instrumented.types``)."""
    out = Outcomes()
    data, offsets = instrumented.encoded
    spans = [(f.line, f.column) for f in reported if f.path == path]
    for look in found:
        out.calls += 1
        call = look.call
        end = (call.end_lineno or call.lineno, (call.end_col_offset or 0) + 1)
        start = (call.lineno, call.col_offset + 1)
        if _no_sink_after_all(look, instrumented):
            out.calls -= 1
            out.cleared.append((start, end))
            continue
        if _literal_by_lookup(look):
            # Literal text each checker types str: its error is cleared, the call proven.
            out.cleared.append((start, end))
            out.proven += 1
            out.proven_at.append((call.lineno, call.col_offset + 1))
            continue
        if any(start <= s <= end for s in spans):
            continue  # the checker's own finding
        callee_text = segment(data, offsets, call.func)
        if _checker_ignored(instrumented.source, call):
            # `# type: ignore` or `# pyright: ignore[...]` on the call: the checker keeps its
            # error (and its reveals) to itself, so a silent run proves nothing there.
            out.unverified.append(
                _unverified(path, look, callee_text, "checker-ignore", "an ignore comment")
            )
            continue
        types = [instrumented.type_of(p) for p in look.parts]
        callee_type = instrumented.type_of(look.callee) if look.callee is not None else None
        if look.weak and "LiteralString" not in (callee_type or ""):
            out.calls -= 1  # a `fetch` that is not asyncpg's (or not known to be)
            continue
        if (
            look.wrapper is not None
            and look.callee is not None
            and (callee_type is None or not _is_the_wrapper(look.wrapper, callee_type))
        ):
            out.calls -= 1  # another function of the wrapper's name, or unknown
            continue
        if None in types or (look.callee is not None and callee_type is None):
            out.unverified.append(
                _unverified(path, look, callee_text, "not-revealed", "no type was revealed")
            )
            continue
        any_parts = [p for p in look.parts if instrumented.unverified(p)]
        if look.wrapper is not None:
            _wrapper_outcome(out, path, look, instrumented, any_parts, untyped_functions)
            continue
        receiver = _receiver_kind(look, callee_type, instrumented.tree)
        listed = _str_list_to_a_shell(path, look, instrumented)
        if listed is not None:
            out.findings.append(listed)
            continue
        if receiver == "inherits":
            _inherited_outcome(out, path, look, instrumented, any_parts, untyped_functions)
            continue
        if receiver == "sink" and not any_parts:
            out.proven += 1
            out.proven_at.append((call.lineno, call.col_offset + 1))
            continue
        if receiver != "sink" and _no_text(look, instrumented):
            # A query object the checker cannot see the sink of, passed as it is (pgcli's
            # `cur.execute(sql.SQL("set time zone {}").format(sql.Identifier(tz)))` on an
            # untyped connection's cursor): no text reaches it, whatever it formats.
            out.calls -= 1
            continue
        if look.foreign and receiver != "sink":
            # Another package's function of a sink's name (tblib's Traceback.from_string):
            # what it does with the text is not ours to know, so never a finding by name.
            reason = "receiver-unknown" if receiver == "unknown" else "callee-str"
            detail = f"`{callee_text}` is {look.foreign}'s, only named like a sink"
            out.unverified.append(_unverified(path, look, callee_text, reason, detail))
            continue
        finding = _finding(
            path, look, instrumented, callee_text, any_parts, receiver, untyped_functions
        )
        if finding is not None:
            out.findings.append(finding)
            continue
        if receiver == "sink":
            detail = instrumented.explain(any_parts)
            out.unverified.append(_unverified(path, look, callee_text, "value-any", detail))
        else:
            reason = "receiver-unknown" if receiver == "unknown" else "callee-str"
            detail = f"`{callee_text}` is {callee_type}"
            out.unverified.append(_unverified(path, look, callee_text, reason, detail))
    return out


# The sinks that are classes (their constructor is tightened): a subclass that overrides it
# untyped is still one.
_CONSTRUCTED = frozenset(
    t.owner for t in tightened_parameters() if t.function in ("__init__", "__new__") and t.owner
)
# The packages whose classes may override one of those constructors untyped: a library we
# tighten (Jinja2 3.0's `jinja2.Markup` over markupsafe's).  A project's own class of such a
# name (peewee's `SQL`, Pony's `RawSQL`) inherits nothing of ours.
_TIGHTENED_PACKAGES = frozenset(t.module.split(".")[0] for t in tightened_parameters())
# Jinja2's sandboxes, as each checker writes their type.
_SANDBOX = re.compile(r"\b(?:Immutable)?SandboxedEnvironment\b")
# The functions whose result is escaped HTML (Django, MarkupSafe, the standard library).
_ESCAPES = frozenset(("escape", "conditional_escape", "escape_silent", "format_html"))
# str methods that keep escaped text escaped: pieces of it, cased or trimmed.
_KEEPS_ESCAPED = frozenset(
    ("split", "rsplit", "splitlines", "strip", "lstrip", "rstrip", "lower", "upper")
)


def _no_text(look: Look, instrumented: Instrumented) -> bool:
    """Whether the call's argument, passed as a name or value, is revealed to be no string:
    a psycopg ``Composed``, a SQLAlchemy ``TextClause``."""
    if look.argument not in look.parts:
        return False
    revealed = instrumented.type_of(look.argument)
    return revealed is not None and not _may_be_text(revealed)


def _no_sink_after_all(look: Look, instrumented: Instrumented) -> bool:
    """Whether the call is none of the sinks its name says: a template compiled on one of
    Jinja2's sandboxes (the standard fix, haystack's and llama-cpp-python's), or markup built
    in view from text that was escaped first (djangorestframework's fix of CVE-2024-21520,
    ``mark_safe("<br> " + ", <br>".join(escape(header).split(",")))``)."""
    if look.receiver is not None:
        revealed = instrumented.type_of(look.receiver) or ""
        if (
            _SANDBOX.search(revealed)
            and not is_any(revealed)
            and imports_a_sandbox(instrumented.tree)
        ):
            return True
    return (
        look.rule is MARKUP
        and look.built
        and all(_escaped(p, instrumented) for p in composition_parts(look.argument))
    )


def _literal_by_lookup(look: Look) -> bool:
    """Whether the text is literal, built in view of literals and lookups in dict displays of
    literal strings, though each checker types such a lookup ``str``: djangorestframework's
    ``mark_safe('<code>%s</code>' % {True: 'true', False: 'false', None: 'null'}[value])``.
    No call but the composition's own ``format`` and ``join`` may run in the call's arguments:
    the checker's findings at a call nested there would be cleared too."""
    argument = look.argument
    if not any(_literal_lookup(node) for node in ast.walk(argument)):
        return False
    if not _literal_text(argument):
        return False
    others = [
        a for a in [*look.call.args, *(k.value for k in look.call.keywords)] if a is not argument
    ]
    return not any(isinstance(node, ast.Call) for other in others for node in ast.walk(other))


def _literal_lookup(node: ast.AST) -> bool:
    """``{...}[key]``: a dict display whose values are all literal strings, indexed by a key
    that runs no code of its own (no call, no walrus)."""
    if not isinstance(node, ast.Subscript) or not isinstance(node.value, ast.Dict):
        return False
    table = node.value
    return (
        bool(table.values)
        # No `**other` merged in (its key is None).
        and all(key is not None and _runs_nothing(key) for key in table.keys)
        and all(isinstance(v, ast.Constant) and isinstance(v.value, str) for v in table.values)
        and _runs_nothing(node.slice)
    )


def _runs_nothing(node: ast.AST) -> bool:
    return not any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await)) for n in ast.walk(node))


def _literal_text(node: ast.expr) -> bool:
    """Whether ``node`` is literal text composed in view: constants, literal lookups, and
    f-strings, ``+``, ``%``, conditional expressions, ``format`` and ``join`` of those."""
    if isinstance(node, ast.Constant) or _literal_lookup(node):
        return True
    if isinstance(node, ast.JoinedStr):
        return all(_literal_text(v) for v in node.values)
    if isinstance(node, ast.FormattedValue):
        spec = node.format_spec
        return _literal_text(node.value) and (spec is None or _literal_text(spec))
    if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.Add, ast.Mod)):
        right = node.right
        if isinstance(node.op, ast.Mod) and isinstance(right, ast.Tuple):
            return _literal_text(node.left) and all(_literal_text(e) for e in right.elts)
        return _literal_text(node.left) and _literal_text(right)
    if isinstance(node, ast.IfExp):
        return _runs_nothing(node.test) and _literal_text(node.body) and _literal_text(node.orelse)
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Attribute)
        and node.func.attr in ("format", "join")
        and _literal_text(node.func.value)
    ):
        values = [*node.args, *(k.value for k in node.keywords)]
        if node.func.attr == "join":
            display = values[0] if len(values) == 1 and not node.keywords else None
            if not isinstance(display, (ast.List, ast.Tuple, ast.Set)):
                return False
            values = list(display.elts)
        return all(_literal_text(v) for v in values)
    return False


def _escaped(node: ast.expr, instrumented: Instrumented, depth: int = 0) -> bool:
    if depth > 4:
        return False
    if isinstance(node, ast.Call):
        func = node.func
        if callee_name(func) in _ESCAPES:
            return True
        if isinstance(func, ast.Attribute) and func.attr in _KEEPS_ESCAPED:
            return _escaped(func.value, instrumented, depth + 1)
        return False
    if isinstance(node, ast.Name):
        binding = binding_of(node, instrumented.scopes.get(id(node), []))
        if binding is not None and binding.kind == "assigned" and binding.value is not None:
            parts = list(composition_parts(binding.value))
            return bool(parts) and all(_escaped(p, instrumented, depth + 1) for p in parts)
    return False


def drop_validated_wrappers(
    findings: list[Finding],
    through: Sequence[tuple[Finding, Wrapper]],
    proven: set[tuple[str, int, int]],
) -> tuple[list[Finding], int]:
    """The findings without those made at calls of a wrapper whose own call to the sink (or
    to the next wrapper) the run proved literal: the function checked its parameter against
    literals first (``if column not in VALID_COLUMNS: raise``, which pyright narrows), so
    nothing its callers pass reaches the sink unchecked.  Such a call is proven in turn, for
    the wrappers of that wrapper.  And how many calls that proves."""
    proven = set(proven)
    dropped: set[int] = set()
    changed = True
    while changed:
        changed = False
        for finding, wrapper in through:
            if id(finding) not in dropped and (wrapper.path, *wrapper.site) in proven:
                dropped.add(id(finding))
                proven.add((finding.path, finding.line, finding.column))
                changed = True
    return [f for f in findings if id(f) not in dropped], len(dropped)


def _is_the_wrapper(wrapper: Wrapper, callee_type: str) -> bool:
    """Whether a revealed callee is the wrapper: its signature names the parameter (or, for
    a class, its type names the class); an Any callee may be anything."""
    if is_any(callee_type):
        return False
    if "(...)" in callee_type:
        return True  # pyright's `cls(*args, **kwargs)`: a signature that takes anything
    named = wrapper.parameter.lstrip("*") if wrapper.position is not None else wrapper.keyword
    return any(
        re.search(rf"\b{re.escape(word)}\b", callee_type) is not None
        for word in (named, wrapper.name if wrapper.is_class else None)
        if word
    )


def _open_parts(
    out: Outcomes,
    path: str,
    look: Look,
    instrumented: Instrumented,
    any_parts: Sequence[ast.expr],
    untyped_functions: frozenset[str],
    made: Callable[[Finding], Finding],
) -> list[ast.expr]:
    """For a call whose sink the checker does not judge itself (a wrapper, an untyped
    override): with an Any part, its LS902/LS903 finding (through ``made``) or its unverified
    entry; with literal parts only, proven.  The non-literal parts left to report, else []."""
    if any_parts:
        callee = segment(*instrumented.encoded, look.call.func)
        finding = _finding(path, look, instrumented, callee, any_parts, "sink", untyped_functions)
        if finding is not None:
            out.findings.append(made(finding))
        else:
            detail = instrumented.explain(any_parts)
            out.unverified.append(_unverified(path, look, callee, "value-any", detail))
        return []
    # A value passed as it is that cannot be a string (a query object given to a wrapper
    # that takes `ClauseElement | str` and compiles only a str: databases 0.9.0's fetch_all):
    # no text reaches the sink from this call.  Text composed in view is text whatever its
    # parts are (`f"Cli: {ex}"` formats an exception: Flask-Admin's reflected markup).
    texts = [p for p in look.parts if look.built or _may_be_text(instrumented.type_of(p) or "Any")]
    if look.parts and not texts:
        out.calls -= 1
        return []
    open_parts = [
        p
        for p in texts
        if not _LITERAL.match(instrumented.type_of(p) or "Any")
        and not _NUMBER.match(instrumented.type_of(p) or "Any")
        and not _literal_in_view(p, instrumented)
    ]
    if not open_parts:
        out.proven += 1
        out.proven_at.append((look.call.lineno, look.call.col_offset + 1))
    return open_parts


def _wrapper_outcome(
    out: Outcomes,
    path: str,
    look: Look,
    instrumented: Instrumented,
    any_parts: Sequence[ast.expr],
    untyped_functions: frozenset[str],
) -> None:
    """A wrapper call's outcome: proven when what it passes is literal, a finding when it
    is not (the sink's family's rule, with the chain), an LS902/LS903 or unverified when Any."""
    wrapper = look.wrapper
    assert wrapper is not None

    def made(finding: Finding) -> Finding:
        found = replace(finding, hint=_annotate(wrapper), through=_via(wrapper))
        out.through.append((found, wrapper))
        return found

    open_parts = _open_parts(out, path, look, instrumented, any_parts, untyped_functions, made)
    if not open_parts:
        return
    data, offsets = instrumented.encoded
    composed = [p for p in open_parts if not isinstance(p, ast.Name) or p is look.argument]
    finding = _make(
        path,
        look,
        instrumented,
        look.rule,
        f"{_named(data, offsets, composed or open_parts, instrumented)} reaches {wrapper.sink} "
        f"through the project's own {' -> '.join(wrapper.chain)} ({wrapper.where})",
        api=f"{wrapper.sink}, through {wrapper.name}",
    )
    out.findings.append(made(replace(finding, parameter=wrapper.parameter)))


def _inherited_outcome(
    out: Outcomes,
    path: str,
    look: Look,
    instrumented: Instrumented,
    any_parts: Sequence[ast.expr],
    untyped_functions: frozenset[str],
) -> None:
    """A call of a subclass of a tightened class whose constructor it overrides untyped: its
    text is judged as the base's would be (what pyright does with the override's parameter)."""
    open_parts = _open_parts(
        out, path, look, instrumented, any_parts, untyped_functions, lambda f: f
    )
    if not open_parts:
        return
    data, offsets = instrumented.encoded
    callee = segment(data, offsets, look.call.func)
    out.findings.append(
        _make(
            path,
            look,
            instrumented,
            look.rule,
            f"{_named(data, offsets, open_parts, instrumented)} reaches `{callee}`, which "
            f"overrides the constructor of {look.api} without annotations, so the checker "
            "lets any str through",
        )
    )


def _via(wrapper: Wrapper) -> tuple[str, ...]:
    return (*wrapper.chain[:-1], f"{wrapper.chain[-1]} ({wrapper.sink})")


def _annotate(wrapper: Wrapper) -> str:
    if wrapper.parameter.startswith("*"):
        return f"Or give `{wrapper.name}` ({wrapper.where}) a parameter annotated LiteralString."
    return (
        f"Or annotate `{wrapper.parameter}` of `{wrapper.name}` ({wrapper.where}) with "
        "LiteralString: the checker then judges each of its callers."
    )


# A list of plain strings (not of LiteralString), as each checker writes it.
_STR_LIST = re.compile(r"(?:builtins\.)?(?:list|List|Sequence|tuple|Tuple)\[str(?:, \.\.\.)?\]$")


def _str_list_to_a_shell(path: str, look: Look, instrumented: Instrumented) -> Finding | None:
    """A list of str given to a standard shell function whose ``shell=`` is an expression: when
    it is true, the list's first item is the shell's script (ansys-geometry-core's
    ``Popen(args, shell=os.name != "nt")``, CVE-2024-29189; pyright reads the comparison as
    False on Linux, mypy as bool, and neither sees a script)."""
    if look.rule is not SHELL or look.callee is not None or look.argument not in look.parts:
        return None
    revealed = instrumented.type_of(look.argument) or ""
    if not _STR_LIST.match(revealed.strip()):
        return None
    shell = next((k.value for k in look.call.keywords if k.arg == "shell"), None)
    if shell is None or isinstance(shell, ast.Constant):
        return None  # shell=True with a list: the checker judges it against our stubs
    if _literal_argv(look.argument):
        return None  # beets' `run(["ffprobe", "-version"], shell=os.name == "nt")`
    data, offsets = instrumented.encoded
    return _make(
        path,
        look,
        instrumented,
        SHELL,
        f"`{_short(segment(data, offsets, look.argument))}` is {revealed} and "
        f"`shell={_short(segment(data, offsets, shell))}` may be true: its first item is then "
        "the shell's script, which no LiteralString proves",
    )


def _literal_argv(argument: ast.expr) -> bool:
    """Whether the argument is a display (or ``+`` of displays) of literal strings only, which
    each checker types ``list[str]``.  Every item, not only the first: on Windows the shell is
    given the whole list joined into one command line."""
    found = argv_lists.displayed(argument)
    return bool(found) and all(
        bool(sequence)
        and all(isinstance(i, ast.Constant) and isinstance(i.value, str) for i in sequence)
        for sequence in found or ()
    )


def _receiver_kind(look: Look, callee_type: str | None, tree: ast.Module) -> str:
    """ "sink" (the callee takes a LiteralString, is a standard shell function, or takes a type
    of its own: psycopg's ``Query``, a class whose constructor the checker judges), "unknown"
    (Any or Unknown), or "str" (its text parameter takes any str, or Any)."""
    if look.callee is None or callee_type is None:
        return "sink"
    if is_any(callee_type):
        return "unknown"
    if "LiteralString" in callee_type:
        return "sink"
    # A union of signatures (a cursor that is one of two classes) takes str if each does.
    # A member that is Any (`MySQLCursor | Any` when the C extension is absent) takes anything.
    firsts = [
        m.strip() if m.strip() in ("Any", "Unknown") else first_parameter(_unwrapped(m))
        for m in members(callee_type.strip())
    ]
    if firsts and all(f in ("str", "str | None", "Any", "Unknown") for f in firsts):
        # A class named like one whose constructor we tighten, its first parameter left
        # untyped: a subclass overriding it without annotations (Jinja2 3.0's
        # `jinja2.Markup(base="")` over markupsafe.Markup), which pyright gives the base's
        # type and mypy leaves Any.  Its text is judged as the base's would be.
        if (
            callee_name(look.call.func) in _CONSTRUCTED
            and all(f in ("Any", "Unknown") for f in firsts)
            and _imported_from_a_tightened_package(look.call.func, tree)
        ):
            return "inherits"
        return "str"
    return "sink"


def _imported_from_a_tightened_package(func: ast.expr, tree: ast.Module) -> bool:
    """Whether the callee (`Markup`, `jinja2.Markup`) is bound by an import from one of the
    packages we tighten, or is a class of this module with such a base
    (`class Markup(markupsafe.Markup)`): not a class of the project's own of that name
    (peewee's `class SQL(ColumnBase)`) or another library's."""
    names = imported_names(tree, None)

    def imported(node: ast.expr) -> bool:
        head = node
        while isinstance(head, ast.Attribute):
            head = head.value
        if not isinstance(head, ast.Name) or head.id not in names:
            return False
        return names[head.id].split(".")[0] in _TIGHTENED_PACKAGES

    if imported(func):
        return True
    defined = next(
        (
            node
            for node in tree.body
            if isinstance(node, ast.ClassDef)
            and isinstance(func, ast.Name)
            and node.name == func.id
        ),
        None,
    )
    return defined is not None and any(imported(base) for base in defined.bases)


def _unwrapped(member: str) -> str:
    """A union member without the parentheses pyright puts around a signature."""
    member = member.strip()
    while member.startswith("(") and member.endswith(")"):
        depth = 0
        for index, char in enumerate(member):
            depth += char in "[("
            depth -= char in "])"
            if depth == 0 and index < len(member) - 1:
                return member  # the first parenthesis closes before the end: the parameters
        member = member[1:-1].strip()
    return member


# Where a revealed signature's parameters start: `(sql: str) -> None` (pyright, pyrefly),
# `bound method C.execute(sql: str) -> None` (ty), `def (sql: str)` (zuban),
# `Callable[[str], None]` (mypy).
_PARAMETERS = re.compile(r"^(?:bound method [\w.]+|def |Overload\[)?\(|^Callable\[\[")


def first_parameter(signature: str) -> str | None:
    """The type of a revealed signature's first parameter, without its name; None when the
    text is no signature that we read."""
    start = _PARAMETERS.match(signature.strip())
    if start is None:
        return None
    depth, begin = 0, start.end()
    for index in range(begin, len(signature)):
        char = signature[index]
        if char in "[(":
            depth += 1
        elif char in "])" and depth:
            depth -= 1
        elif depth == 0 and char in ",)]":
            parameter = signature[begin:index].strip()
            name, colon, annotation = parameter.partition(": ")
            # A default: `sql: str = ...` (pyright), `base: Any =` (mypy writes no value).
            return (annotation if colon else name).split(" =")[0].strip() or None
    return None


def _finding(
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
                p for p in any_parts if _from_untyped_code(p, instrumented, untyped_functions)
            ]
            if not untyped:
                return None
            what = "of unknown type" if receiver == "unknown" else "typed with str"
            return _make(
                path,
                look,
                instrumented,
                UNVERIFIED_UNTYPED,
                f"{instrumented.explain(untyped)}; the callee `{callee_text}` is {what}",
                api=_by_name(look),
            )
        open_parts = [
            p
            for p in look.parts
            if not _LITERAL.match(instrumented.type_of(p) or "Any")
            and not _literal_in_view(p, instrumented)
        ]
        composed = [p for p in open_parts if not isinstance(p, ast.Name) or p is look.argument]
        if not open_parts or (look.rule is SQL and not _SQL_WORDS.search(look.literal_text)):
            return None
        shown = composed or open_parts
        what = "of unknown type" if receiver == "unknown" else "typed with str"
        return _make(
            path,
            look,
            instrumented,
            UNVERIFIED_SINK,
            f"the callee `{callee_text}` is {what}; the text is built from "
            + _named(data, offsets, shown, instrumented),
            api=_by_name(look),
        )
    untyped = [p for p in any_parts if _from_untyped_code(p, instrumented, untyped_functions)]
    if look.built:
        return _make(
            path,
            look,
            instrumented,
            UNVERIFIED_BUILT,
            "the text is built from "
            + _named(data, offsets, any_parts, instrumented)
            + "; the literal parts are proven",
        )
    if untyped:
        return _make(
            path,
            look,
            instrumented,
            UNVERIFIED_UNTYPED,
            instrumented.explain(untyped),
        )
    return None


def _literal_in_view(node: ast.expr, instrumented: Instrumented, depth: int = 0) -> bool:
    """Whether a name holds literal text in view: mypy reveals ``TABLE = "users"`` as ``str``
    while the module is being checked; or the part is a lookup in a dict display of literal
    strings, which each checker types ``str``."""
    if _literal_lookup(node):
        return True
    if not isinstance(node, ast.Name) or depth > 3:
        return False
    binding = binding_of(node, instrumented.scopes.get(id(node), []))
    if binding is None or binding.kind != "assigned" or binding.value is None:
        return False
    value = binding.value
    if isinstance(value, ast.Constant):
        return isinstance(value.value, str)
    if _literal_lookup(value):
        return True
    parts = list(composition_parts(value))
    return is_composition(value) and all(
        _literal_in_view(p, instrumented, depth + 1) for p in parts
    )


def _named(
    data: bytes, offsets: Sequence[int], parts: Sequence[ast.expr], instrumented: Instrumented
) -> str:
    return ", ".join(
        f"`{_short(segment(data, offsets, p))}` ({instrumented.type_of(p)})" for p in parts
    )


def _short(text: str, limit: int = 40) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _make(
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
    )


# The checkers' own ignore comments: mypy, pyright, basedpyright, ty, zuban and pyrefly honour
# `# type: ignore`; each also its own (pyrefly's also `# pyre-ignore`).
_CHECKER_IGNORE = re.compile(
    r"#\s*(?:type|pyright|basedpyright|ty|zuban|mypy|pyrefly)\s*:\s*ignore\b|#\s*pyre-ignore\b"
)


def _checker_ignored(source: str, call: ast.Call) -> bool:
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


def _by_name(look: Look) -> str:
    """What a call is known as when the checker cannot see its sink: its name's family."""
    article = "an" if look.rule is SQL else "a"
    return f"{callee_name(look.call.func)}, named like {article} {look.rule.family} sink"


def _unverified(path: str, look: Look, callee: str, reason: str, detail: str) -> Unverified:
    call = look.call
    api = look.api
    if reason in ("receiver-unknown", "callee-str"):
        api = _by_name(look)
    return Unverified(path, call.lineno, call.col_offset + 1, callee, api, reason, detail)


def _from_untyped_code(
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
            return _from_untyped_code(node.func.value, instrumented, untyped_functions, depth + 1)
        if name is not None and name[:1].isupper():
            # An object built from untyped input carries it: `SQLSelectForm(request.POST)`.
            return any(
                _from_untyped_code(a, instrumented, untyped_functions, depth + 1)
                for a in [*node.args, *(k.value for k in node.keywords)]
                if not isinstance(a, ast.Starred)
            )
        return False
    if isinstance(node, (ast.Attribute, ast.Subscript)):
        return _from_untyped_code(node.value, instrumented, untyped_functions, depth + 1)
    if isinstance(node, (ast.BoolOp, ast.IfExp)):  # `request.POST or None`
        values = node.values if isinstance(node, ast.BoolOp) else [node.body, node.orelse]
        return any(
            _from_untyped_code(v, instrumented, untyped_functions, depth + 1) for v in values
        )
    if isinstance(node, ast.Name):
        binding = binding_of(node, instrumented.scopes.get(id(node), []))
        if binding is None:
            return False
        if binding.kind == "parameter":
            return binding.annotation is None and node.id not in _SELF
        if binding.value is not None and binding.annotation is None:
            return any(
                _from_untyped_code(p, instrumented, untyped_functions, depth + 1)
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


__all__ = [
    "Outcomes",
    "drop_validated_wrappers",
    "first_parameter",
    "outcomes",
    "untyped_functions",
]
