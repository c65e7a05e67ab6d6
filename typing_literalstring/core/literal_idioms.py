"""Literal in fact: text built only from literal strings, by idioms that checkers type ``str``.

PEP 675 lets a checker infer ``LiteralString`` through ``+``, f-strings, ``join`` and the other
Appendix C methods, but every checker gives up on idioms that real SQL code is full of:

- the markers of an ``IN`` list: ``", ".join(["?"] * len(ids))``, ``",".join("?" * n)``,
  ``", ".join("?" for _ in ids)``, also inside an f-string, ``%`` or ``.format``;
- a loop over table names: ``for table in ["events", "alarms"]:`` or over a tuple held in a
  module constant (``TABLES = ("events", "alarms")``), then ``f"DELETE FROM {table}"``;
- text grown by ``+=`` and cut by slicing: ``query = "UPDATE t SET"; query += " a = ?,";
  query = query[:-1] + " WHERE id = ?"``;
- a lookup in a dict display of literal strings: ``{True: "true", False: "false"}[value]``
  (its keys and index running no code: no call, walrus or ``await``);
- a local list grown only by literals: ``parts = ["SELECT ..."]``, ``parts.append("WHERE
  ...")`` on a flag, then ``" ".join(parts)``;
- numbers written in the source, formatted: ``"pragma synchronous=%s" % (2 if fsync else 0)``;
- the builtin ``str`` of a literal: ``str("Missing user %s")``.

Each is provably a literal string whatever the input, so every checker's verdict on them must
be the same: this module is the one judge, pure ``ast`` (no checker, nothing imported or run
from the checked code), used by the mypy plugin where its own inference fails and by
``check``'s analysis for the other checkers.

The rules are strict.  A name is literal in fact only if *every* binding of it in its scope is
(no flow analysis: ``q = user`` anywhere in the function spoils ``q``), and not when it may be
bound from elsewhere (a parameter, ``global``, ``nonlocal``, an import, a star import).  A loop
variable is literal when its iterable's items are, and a list or set held by a name counts only
in a function, when nothing may change it (the name only iterated, joined, indexed, measured or
tested with ``in``, or grown by ``append``, ``add``, ``insert`` and ``extend`` of literals;
``names.append(user)`` or passing it to a function spoils it).  A module list could be changed
by any importer: only a module *tuple* counts.  ``*`` repeats a literal string or display (the
other operand is the count); ``format``, ``%`` and f-string fields need literal strings or
numbers written in the source (an ``int`` of the run is not literal, as in PEP 675; ``+`` takes
no number); ``join`` needs a literal separator.  Attributes, other calls and anything else
are not literal in fact here: the caller's ``known`` may prove such a part (a checker that
typed it ``LiteralString``).  A class attribute is not judged: a subclass or an assignment in
another module, which this judge of one module cannot see, may give it any text.
"""

from __future__ import annotations

import ast
import weakref
from typing import Callable, Tuple

from typing_literalstring.core.literal_scopes import AUG, ITEMS, VALUE, Binding, Index

Known = Callable[[ast.expr], bool]
_NameKey = Tuple[int, str, bool]

# Appendix C methods that return a literal string for a literal receiver, and what each
# positional argument must be: "str" a literal string, "str?" one or None, "any" anything (a
# width, a count).  Keyword arguments by name likewise.
_ANY, _STR, _STR_OR_NONE = "any", "str", "str?"
_METHODS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    **{m: ((), {}) for m in ("capitalize", "casefold", "lower", "upper", "swapcase", "title")},
    "expandtabs": ((_ANY,), {"tabsize": _ANY}),
    "zfill": ((_ANY,), {}),
    **{m: ((_ANY, _STR), {}) for m in ("center", "ljust", "rjust")},
    **{m: ((_STR_OR_NONE,), {}) for m in ("strip", "lstrip", "rstrip")},
    "replace": ((_STR, _STR, _ANY), {"count": _ANY}),
    "removeprefix": ((_STR,), {}),
    "removesuffix": ((_STR,), {}),
}
# Those that return a list or tuple of literal strings.
_SEQUENCE_METHODS: dict[str, tuple[tuple[str, ...], dict[str, str]]] = {
    **{
        m: ((_STR_OR_NONE, _ANY), {"sep": _STR_OR_NONE, "maxsplit": _ANY})
        for m in ("split", "rsplit")
    },
    "splitlines": ((_ANY,), {"keepends": _ANY}),
    **{m: ((_STR,), {}) for m in ("partition", "rpartition")},
}
# Builtins whose result holds the items of their one positional argument.
_SAME_ITEMS = frozenset(("sorted", "tuple", "list", "set", "frozenset", "reversed", "iter"))
# How a list or set held by a name may be used without being changed: (node type, field).
_READS = frozenset(
    (
        (ast.For, "iter"),
        (ast.AsyncFor, "iter"),
        (ast.comprehension, "iter"),
        (ast.Subscript, "value"),
        (ast.BinOp, "left"),
        (ast.BinOp, "right"),
    )
)
_READING_BUILTINS = frozenset(("len", "any", "all", "min", "max", "enumerate")) | _SAME_ITEMS
# Methods of a list or set that add items (what each argument must be: "str" a literal string,
# "items" an iterable of them, "any" anything), and those that add none.
_ADDING: dict[str, tuple[str, ...]] = {
    "append": ("str",),
    "add": ("str",),
    "insert": ("any", "str"),
    "extend": ("items",),
    "update": ("items",),
}
_NOT_ADDING = frozenset(("sort", "reverse", "pop", "remove", "clear", "discard", "copy",
                         "index", "count"))  # fmt: skip
_NUMBERS = (int, float, complex)
_MAX_DEPTH = 60


class _Judge:
    """Judges the expressions of one module; remembers each name's verdict once final."""

    def __init__(self, index: Index, known: Known | None) -> None:
        self.index = index
        self.known = known
        # Each name's final verdict, by (its scope, its name, judged as text or as items).
        self._names: dict[_NameKey, bool] = {}
        self._in_progress: set[_NameKey] = set()
        # For each name being judged, the other names whose verdict it assumed (in progress).
        self._assumed: list[set[_NameKey]] = []
        self._depth = 0
        self.truncated = False  # a query went deeper than _MAX_DEPTH: remember nothing new
        # Read from the whole module once, when first needed.
        self._calls: dict[int, ast.Call] | None = None

    def _too_deep(self) -> bool:
        if self._depth > _MAX_DEPTH:
            self.truncated = True
        return self.truncated

    # -- text ---------------------------------------------------------------------------------
    def literal(self, node: ast.expr | None) -> bool:
        """Is ``node`` a ``str`` built only from literal strings?"""
        if node is None or self._too_deep():
            return False
        self._depth += 1
        try:
            if self._literal(node):
                return True
        finally:
            self._depth -= 1
        return self.known is not None and self.known(node)

    def _literal(self, node: ast.expr) -> bool:
        if isinstance(node, ast.Constant):
            return isinstance(node.value, str)
        if isinstance(node, ast.JoinedStr):
            return all(self._field(v) for v in node.values)
        if isinstance(node, ast.BinOp):
            return self._operation(node)
        if isinstance(node, ast.IfExp):
            return self.literal(node.body) and self.literal(node.orelse)
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                return all(self.literal(v) for v in node.values)
            # `a or b` is `a` when `a` is truthy: only `a`'s truthy values must be literal.
            *first, last = node.values
            return all(self._truthy_literal(v) for v in first) and self.literal(last)
        if isinstance(node, ast.NamedExpr):
            return self.literal(node.value)
        if isinstance(node, ast.Name):
            return self._name(node, items=False)
        if isinstance(node, ast.Subscript):
            return self._subscript(node)
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            return self._method(node, node.func)
        if isinstance(node, ast.Call):
            return self._str_of(node)
        return False

    def _str_of(self, node: ast.Call) -> bool:
        """``str("...")``, ``str()``: the builtin given a literal string returns it (a literal
        string is a plain ``str``, whose ``__str__`` is itself), as Python 2 era code writes a
        log format (python-crontab's ``str("Missing user ... %s")``)."""
        return (
            isinstance(node.func, ast.Name)
            and not node.keywords
            and len(node.args) <= 1
            and all(not isinstance(a, ast.Starred) and self.literal(a) for a in node.args)
            and self.index.is_builtin(node.func, "str")
        )

    def _field(self, value: ast.expr) -> bool:
        if isinstance(value, ast.FormattedValue):
            spec = value.format_spec
            return self._formatted(value.value) and (spec is None or self.literal(spec))
        return self.literal(value)

    def _formatted(self, node: ast.expr) -> bool:
        """Is the text ``node`` formats to fixed: a literal string, or a number (``True``,
        ``None``) written in the source, chosen among such by ``if``/``else``?"""
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
            node = node.operand
            return isinstance(node, ast.Constant) and isinstance(node.value, _NUMBERS)
        if isinstance(node, ast.Constant) and not isinstance(node.value, (str, bytes)):
            return True  # a number, a bool, None or ...
        if isinstance(node, ast.IfExp):
            return self._formatted(node.body) and self._formatted(node.orelse)
        return self.literal(node)

    def _operation(self, node: ast.BinOp) -> bool:
        if isinstance(node.op, ast.Add):
            # `"a" + "b" + ...`, judged as a flat list: generated SQL may chain hundreds.
            operands = [node.right]
            left = node.left
            while isinstance(left, ast.BinOp) and isinstance(left.op, ast.Add):
                operands.append(left.right)
                left = left.left
            operands.append(left)
            return all(self.literal(operand) for operand in reversed(operands))
        if isinstance(node.op, ast.Mod):
            right = node.right
            if isinstance(right, ast.Tuple):
                return self.literal(node.left) and all(self._formatted(e) for e in right.elts)
            return self.literal(node.left) and self._formatted(right)
        if isinstance(node.op, ast.Mult):
            # One operand is a literal string, the other its count (a second string would
            # raise TypeError: no text comes out).
            return self.literal(node.left) or self.literal(node.right)
        return False

    def _truthy_literal(self, node: ast.expr) -> bool:
        """Is every truthy value of ``node`` a literal string?  (``flag and "1"`` is truthy
        only as "1"; ``None`` never is.)"""
        if isinstance(node, ast.Constant) and not node.value:
            return True
        if isinstance(node, ast.BoolOp):
            if isinstance(node.op, ast.And):
                return self._truthy_literal(node.values[-1])
            return all(self._truthy_literal(v) for v in node.values)
        if isinstance(node, ast.IfExp):
            return self._truthy_literal(node.body) and self._truthy_literal(node.orelse)
        return self.literal(node)

    def _subscript(self, node: ast.Subscript) -> bool:
        index = _slice(node)
        if isinstance(index, ast.Slice):
            return self.literal(node.value)  # a piece of a literal string
        table = node.value
        if isinstance(table, ast.Dict):
            # `{True: "true", False: "false"}[value]`: one of the values, whatever the key (no
            # `**other` merged in: its key is None).  Keys and index that run no code, as
            # `check` has always required: a call there would be a sink call of its own.
            return (
                bool(table.values)
                and all(key is not None and _runs_nothing(key) for key in table.keys)
                and _runs_nothing(index)
                and all(self.literal(v) for v in table.values)
            )
        # One character of a literal string, or one item of a sequence of them.
        return self.literal(table) or self.items(table)

    def _method(self, node: ast.Call, func: ast.Attribute) -> bool:
        if not self.literal(func.value):
            return False
        if func.attr == "join":
            return (
                len(node.args) == 1
                and not node.keywords
                and not isinstance(node.args[0], ast.Starred)
                and self.items(node.args[0])
            )
        if func.attr == "format":
            return all(
                not isinstance(a, ast.Starred) and self._formatted(a) for a in node.args
            ) and all(k.arg is not None and self._formatted(k.value) for k in node.keywords)
        return func.attr in _METHODS and self._arguments(node, _METHODS[func.attr])

    def _arguments(self, node: ast.Call, rules: tuple[tuple[str, ...], dict[str, str]]) -> bool:
        positional, keywords = rules
        if len(node.args) > len(positional) or any(isinstance(a, ast.Starred) for a in node.args):
            return False
        given = list(zip(positional, node.args))
        for keyword in node.keywords:
            if keyword.arg is None or keyword.arg not in keywords:
                return False
            given.append((keywords[keyword.arg], keyword.value))
        return all(self._argument(rule, value) for rule, value in given)

    def _argument(self, rule: str, value: ast.expr) -> bool:
        if rule == _ANY:
            return True
        if rule == _STR_OR_NONE and isinstance(value, ast.Constant) and value.value is None:
            return True
        return self.literal(value)

    # -- iterables ----------------------------------------------------------------------------
    def items(self, node: ast.expr) -> bool:
        """Is every item of the iterable ``node`` a literal string?"""
        if self._too_deep():
            return False
        self._depth += 1
        try:
            return self._items(node)
        finally:
            self._depth -= 1

    def _items(self, node: ast.expr) -> bool:
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            return all(
                self.items(e.value) if isinstance(e, ast.Starred) else self.literal(e)
                for e in node.elts
            )
        if isinstance(node, (ast.ListComp, ast.SetComp, ast.GeneratorExp)):
            return self.literal(node.elt)
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mult):
            return self.items(node.left) or self.items(node.right)  # `["?"] * n`, `"?" * n`
        if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
            return self.items(node.left) and self.items(node.right)
        if isinstance(node, ast.Subscript) and isinstance(_slice(node), ast.Slice):
            return self.items(node.value)
        if isinstance(node, ast.Name):
            return self._name(node, items=True)
        if isinstance(node, ast.Call) and self._same_items(node):
            return self.items(node.args[0])
        if (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr in _SEQUENCE_METHODS
        ):
            rules = _SEQUENCE_METHODS[node.func.attr]
            return self.literal(node.func.value) and self._arguments(node, rules)
        return self.literal(node)  # the characters of a literal string

    def _same_items(self, node: ast.Call) -> bool:
        """``sorted(x)``, ``tuple(x)``...: the builtin, one positional argument (``sorted``
        may take ``key`` and ``reverse``)."""
        func = node.func
        if not isinstance(func, ast.Name) or func.id not in _SAME_ITEMS:
            return False
        allowed = ("key", "reverse") if func.id == "sorted" else ()
        return (
            len(node.args) == 1
            and not isinstance(node.args[0], ast.Starred)
            and all(k.arg in allowed for k in node.keywords)
            and self.index.is_builtin(func, func.id)
        )

    # -- names --------------------------------------------------------------------------------
    def _name(self, node: ast.Name, items: bool) -> bool:
        """Every binding of the name holds (the greatest fixed point: ``q = q[:-1] + "x"``
        holds while ``q`` is being judged)."""
        owner = self.index.owner(node)
        bindings = self.index.bindings(node)
        if owner is None or not bindings:
            return False
        key = (id(owner), node.id, items)
        found = self._names.get(key)
        if found is not None:
            return found
        if key in self._in_progress:
            self._assumed[-1].add(key)
            return True
        judge = self._binding_items if items else self._binding_literal
        self._in_progress.add(key)
        self._assumed.append(set())
        try:
            verdict = all(judge(node, b) for b in bindings)
        finally:
            self._in_progress.discard(key)
            assumed = self._assumed.pop() - {key}
        # False holds whatever was assumed (an assumption only ever says True); True holds
        # once no other name's verdict was assumed on the way.
        if not self.truncated and (not verdict or not assumed):
            self._names[key] = verdict
        if assumed and self._assumed:
            self._assumed[-1].update(assumed)
        return verdict

    def _binding_literal(self, name: ast.Name, binding: Binding) -> bool:
        if binding.kind == VALUE:
            return self.literal(binding.node)
        if binding.kind == ITEMS:
            return binding.node is not None and self.items(binding.node)
        if binding.kind == AUG and binding.node is not None:
            if isinstance(binding.op, (ast.Add, ast.Mod)):
                return self.literal(binding.node)  # the name's own value is being judged
            return isinstance(binding.op, ast.Mult)  # `q *= n`
        return False

    def _binding_items(self, name: ast.Name, binding: Binding) -> bool:
        if binding.kind == VALUE and binding.node is not None:
            value = binding.node
            if isinstance(value, (ast.List, ast.Set, ast.ListComp, ast.SetComp)):
                return self._unchanged(name) and self.items(value)
            return self.items(value)
        if binding.kind == AUG and binding.node is not None:
            if isinstance(binding.op, ast.Add):
                return self.items(binding.node)
            return isinstance(binding.op, ast.Mult)
        return False

    def _unchanged(self, name: ast.Name) -> bool:
        """Whether only literal strings may go into the list or set ``name`` holds: it lives
        in a function and every read of it only iterates, indexes, measures or joins it, or
        adds literal strings to it (``parts.append("WHERE ...")``)."""
        owner = self.index.owner(name)
        if owner is None or owner.kind not in ("function", "comprehension"):
            return False  # a module or class list: any importer may change it
        for use in self.index.uses.get(name.id, []):
            if id(use.name) in self.index.revealed:
                continue  # only shown (`reveal_type`, check's probes)
            if self.index.owner(use.name) is owner and not (
                self._reads(use.parent, use.field) or self._adds_literals(use.parent)
            ):
                return False
        return True

    def _adds_literals(self, parent: ast.AST) -> bool:
        """Whether ``parent``, an attribute of the list, is a call of one of its methods that
        adds only literal strings to it, or none."""
        if not isinstance(parent, ast.Attribute):
            return False
        call = self._called(parent)
        if call is None or call.keywords or any(isinstance(a, ast.Starred) for a in call.args):
            return False
        if parent.attr in _NOT_ADDING:
            return True
        rules = _ADDING.get(parent.attr)
        if rules is None or len(call.args) != len(rules):
            return False
        return all(
            rule == "any" or (self.items(a) if rule == "items" else self.literal(a))
            for rule, a in zip(rules, call.args)
        )

    def _called(self, func: ast.expr) -> ast.Call | None:
        """The call whose callee ``func`` is, if any."""
        if self._calls is None:
            self._calls = {
                id(n.func): n for n in ast.walk(self.index.tree) if isinstance(n, ast.Call)
            }
        return self._calls.get(id(func))

    def _reads(self, parent: ast.AST, field: str) -> bool:
        if (type(parent), field) in _READS:
            return not isinstance(parent, ast.Subscript) or isinstance(parent.ctx, ast.Load)
        if isinstance(parent, ast.Compare) and field == "comparators":
            return all(isinstance(op, (ast.In, ast.NotIn)) for op in parent.ops)
        if isinstance(parent, ast.Call) and field == "args" and len(parent.args) == 1:
            func = parent.func
            if isinstance(func, ast.Attribute) and func.attr == "join":
                return True
            return isinstance(func, ast.Name) and (
                func.id in _READING_BUILTINS and self.index.is_builtin(func, func.id)
            )
        return False


def _runs_nothing(node: ast.AST) -> bool:
    return not any(isinstance(n, (ast.Call, ast.NamedExpr, ast.Await)) for n in ast.walk(node))


def _slice(node: ast.Subscript) -> ast.AST:
    """The index (Python 3.8 wraps a plain one in ``ast.Index``)."""
    index: ast.AST = node.slice
    inner = getattr(index, "value", None)
    if type(index).__name__ == "Index" and isinstance(inner, ast.AST):
        return inner
    return index


# One index and one judge (without ``known``) per parsed module, while the tree lives.
_INDEXES: weakref.WeakKeyDictionary[ast.Module, tuple[Index | None, _Judge | None]] = (
    weakref.WeakKeyDictionary()
)


def _prepared(tree: ast.Module) -> tuple[Index | None, _Judge | None]:
    found = _INDEXES.get(tree)
    if found is None:
        try:
            index: Index | None = Index(tree)
        except RecursionError:  # nested beyond the interpreter's limit: nothing is proven
            index = None
        found = _INDEXES[tree] = (index, _Judge(index, None) if index is not None else None)
    return found


def prepare(tree: ast.Module) -> None:
    """Index ``tree`` now (its scopes and bindings, kept while it lives): ``check`` does it
    while the checker runs, so that the verdicts after it do not wait for it."""
    _prepared(tree)


def literal_in_fact(node: ast.expr, tree: ast.Module, known: Known | None = None) -> bool:
    """Whether ``node``, an expression of the module ``tree``, is a string built only from
    literal strings, whatever the program's input (see the module's docstring for the rules).

    ``known`` may prove a part this module cannot judge (an attribute, a call of a function):
    give it a checker's verdict, such as a revealed ``LiteralString``.  Without ``known`` the
    verdicts are cached with the tree; the tree's index (its scopes and bindings) always is.
    """
    index, judge = _prepared(tree)
    if index is None or judge is None:
        return False
    if known is not None:
        judge = _Judge(index, known)
    judge.truncated = False
    try:
        return judge.literal(node)
    except RecursionError:
        return False


def node_at(
    tree: ast.Module, line: int, column: int, end_line: int, end_column: int
) -> ast.expr | None:
    """The outermost expression of ``tree`` at exactly this span (1-based lines, 0-based
    columns in UTF-8 bytes, as ``ast`` and mypy count them), or None."""
    index, _ = _prepared(tree)
    if index is None:
        return None
    return index.by_span.get((line, column, end_line, end_column))


def literal_in_fact_at(
    tree: ast.Module, line: int, column: int, end_line: int, end_column: int
) -> bool:
    """``literal_in_fact`` of the expression at this span (False when there is none)."""
    node = node_at(tree, line, column, end_line, end_column)
    return node is not None and literal_in_fact(node, tree)
