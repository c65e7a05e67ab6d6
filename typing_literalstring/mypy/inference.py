"""The inference of one unannotated function's return type, by mypy's own expression checker
on its returned expressions (``returns.py`` decides which calls, and keeps the results).

- a parameter is Any, except ``self`` and ``cls``, an annotated one, and one whose default is a
  literal (``default=""``: ``str``, as pyright infers it; a call that passes another type for it
  keeps ``Any``);
- a local name is the union of the values assigned to it in the function (``db = get_db()``),
  if every assignment is a plain ``name = value``; any other binding (a ``for`` or ``with``
  target, unpacking, a walrus, a name from an enclosing function): not inferred;
- every path must end in a ``return`` with a value (or a ``raise``): a function that may fall
  off its end, a generator, a coroutine, a decorated function (but for ``staticmethod`` and
  ``classmethod``) or a method of a generic class: not inferred;
- a returned expression that opens a scope (a lambda, a comprehension), names ``super()`` or
  awaits: not inferred; a result that is ``Any`` (or holds an unsolved type variable): not
  inferred.

Not inferred means ``Any``, as mypy says on its own: strict, never a guess.  Every returned
value literal (``return "users"``) gives ``LiteralString``.
"""

from __future__ import annotations

from typing import Iterator

from mypy.binder import ConditionalTypeBinder
from mypy.checker import TypeChecker
from mypy.checker_shared import CheckerScope
from mypy.nodes import (
    ARG_STAR,
    ARG_STAR2,
    FUNC_NO_INFO,
    LDEF,
    Block,
    BytesExpr,
    ComplexExpr,
    Expression,
    FloatExpr,
    FuncBase,
    FuncDef,
    IfStmt,
    IntExpr,
    LambdaExpr,
    NameExpr,
    Node,
    RaiseStmt,
    ReturnStmt,
    StrExpr,
    TryStmt,
    Var,
)
from mypy.subtypes import is_same_type
from mypy.typeops import make_simplified_union
from mypy.types import (
    AnyType,
    CallableType,
    PartialType,
    Type,
    TypeOfAny,
    TypeType,
    UnionType,
    get_proper_type,
    has_type_vars,
)
from mypy.typevars import fill_typevars

from typing_literalstring.mypy.literals import Literalness
from typing_literalstring.mypy.marker import is_literal_type, literal_string
from typing_literalstring.mypy.walk import SCOPES, children, scope_assignments

# Expressions that open a scope, bind a name, or depend on where they are evaluated: a
# returned expression holding one is not inferred.
_REFUSED = ("LambdaExpr", "ListComprehension", "SetComprehension", "DictionaryComprehension",
            "GeneratorExpr", "AssignmentExpr", "SuperExpr", "YieldExpr", "YieldFromExpr",
            "AwaitExpr", "RevealExpr", "TempNode", "PromoteExpr", "TypeApplication")  # fmt: skip
# A literal default gives an unannotated parameter its type (pyright's inference).
_LITERAL_DEFAULTS: dict[type[Expression], str] = {
    StrExpr: "builtins.str",
    BytesExpr: "builtins.bytes",
    IntExpr: "builtins.int",
    FloatExpr: "builtins.float",
    ComplexExpr: "builtins.complex",
}


_NO_FILE = "<typing_literalstring inference>"


class _NotInferred(Exception):
    """The function's return type is not inferred (see the module's docstring)."""


def known(t: Type) -> bool:
    """Not Any, nor a union with Any in it."""
    proper = get_proper_type(t)
    items = proper.items if isinstance(proper, UnionType) else [proper]
    return not any(isinstance(get_proper_type(i), AnyType) for i in items)


# -- inference of one function ---------------------------------------------------------------
def infer_signatures(func: FuncDef, checker: TypeChecker) -> list[CallableType]:
    """The signatures inferred for ``func``: its parameters without annotation or literal
    default (the free ones) taken as LiteralString, as ``str``, then as Any, the question
    pyright's call-site inference asks of the arguments a call passes.  Each is what mypy
    would infer with the free parameters annotated so; the calls pick the first that fits.
    A function without free parameters has one signature."""
    free = [
        a.variable
        for a in func.arguments
        if a.kind not in (ARG_STAR, ARG_STAR2)
        and a.initializer is None
        and a.type_annotation is None
        and not (a is func.arguments[0] and func.info is not FUNC_NO_INFO and not func.is_static)
    ]
    assumptions: list[Type | None] = [None]
    if free:
        marker = literal_string()
        assumptions = [marker] if marker is not None else []
        assumptions += [checker.named_type("builtins.str"), None]
    found: list[CallableType] = []
    for assumption in assumptions:
        try:
            found.append(_Inference(func, checker, set(free), assumption).signature())
        except _NotInferred:
            continue
    # A signature that assumes more but infers no more than the next is left out.
    return [s for i, s in enumerate(found) if i + 1 == len(found) or not _same(s, found[i + 1])]


def _same(one: CallableType, other: CallableType) -> bool:
    returned, then = one.ret_type, other.ret_type
    return is_literal_type(returned) == is_literal_type(then) and is_same_type(returned, then)


class _Inference:
    def __init__(
        self, func: FuncDef, checker: TypeChecker, free: set[Var], assumed: Type | None
    ) -> None:
        self.func = func
        self.checker = checker
        self.free = free
        self.assumed = assumed
        self.assignments = scope_assignments(func)
        self.parameters = {a.variable: i for i, a in enumerate(func.arguments)}
        self.locals: dict[Var, Type] = {}
        self.pending: set[Var] = set()

    def signature(self) -> CallableType:
        func = self.func
        if not _always_returns(func.body):
            raise _NotInferred
        returns = list(_returns(func.body))
        if not returns or any(r.expr is None for r in returns):
            raise _NotInferred
        judged = [self.type_of(r.expr, judge=True) for r in returns if r.expr is not None]
        returned = [t for t, _ in judged]
        if all(literal for _, literal in judged):
            result = literal_string(func.line, func.column) or make_simplified_union(returned)
        else:
            result = make_simplified_union(returned)
        if not known(result) or has_type_vars(result):
            raise _NotInferred
        skip = 0 if func.is_static or func.info is FUNC_NO_INFO else 1
        kept = func.arguments[skip:]
        return CallableType(
            [self.parameter(a.variable) for a in kept],
            [a.kind for a in kept],
            [a.variable.name for a in kept],
            result,
            self.checker.named_type("builtins.function"),
        )

    # -- the names the returned expressions use -------------------------------------------
    def parameter(self, var: Var) -> Type:
        index = self.parameters[var]
        argument = self.func.arguments[index]
        declared = get_proper_type(self.func.type)
        if isinstance(declared, CallableType) and index < len(declared.arg_types):
            written = declared.arg_types[index]
            if not isinstance(get_proper_type(written), AnyType):
                return written
        info = self.func.info
        if index == 0 and not self.func.is_static and info is not FUNC_NO_INFO:
            instance = fill_typevars(info)
            return TypeType.make_normalized(instance) if self.func.is_class else instance
        if argument.kind in (ARG_STAR, ARG_STAR2):
            return AnyType(TypeOfAny.unannotated)
        if var in self.free and self.assumed is not None:
            return self.assumed
        default = argument.initializer
        if default is not None and type(default) in _LITERAL_DEFAULTS:
            return self.checker.named_type(_LITERAL_DEFAULTS[type(default)])
        if isinstance(default, NameExpr) and default.fullname in (
            "builtins.True",
            "builtins.False",
        ):
            return self.checker.named_type("builtins.bool")
        return AnyType(TypeOfAny.unannotated)

    def local(self, var: Var) -> Type:
        """A local name's type: a parameter's, or the union of the values assigned to it."""
        if var in self.locals:
            return self.locals[var]
        if var in self.parameters:
            found = self.parameter(var)
        else:
            bindings = self.assignments.get(var)
            if not bindings or var in self.pending:
                raise _NotInferred
            if any(b.value is None or b.iterable is not None for b in bindings):
                raise _NotInferred
            self.pending.add(var)
            try:
                assigned = [self.type_of(b.value)[0] for b in bindings if b.value is not None]
                found = make_simplified_union(assigned)
            finally:
                self.pending.discard(var)
        self.locals[var] = found
        return found

    def type_of(self, expr: Expression, judge: bool = False) -> tuple[Type, bool]:
        """The type of an expression of the function, by mypy's expression checker, its local
        names given their types for the time of the question; and, when asked to ``judge``,
        whether the plugin's rules find it a literal string (mypy's type of ``"a" + s`` says
        ``str`` where ``s`` is LiteralString)."""
        given: dict[Var, Type] = {}
        for node in _walk(expr):
            name = type(node).__name__
            if name in _REFUSED:
                raise _NotInferred
            if isinstance(node, NameExpr) and isinstance(node.node, Var):
                var = node.node
                if node.kind == LDEF:
                    if var not in self.parameters and var not in self.assignments:
                        raise _NotInferred  # a name of an enclosing function, or an odd binding
                    given[var] = self.local(var)
                elif var.type is None or isinstance(var.type, PartialType):
                    raise _NotInferred  # a module name mypy has not typed yet
        judged = self.func if judge else None
        return _evaluate(self.checker, expr, given, self.scope(), judged)

    def scope(self) -> CheckerScope:
        """The function's own scope, for the expression checker (``self``'s class)."""
        module = self.checker.modules.get(
            self.func.info.module_name
            if self.func.info is not FUNC_NO_INFO
            else self.func.fullname.rpartition(".")[0]
        )
        scope = CheckerScope(module or self.checker.tree)
        if self.func.info is not FUNC_NO_INFO:
            scope.stack.append(self.func.info)
        scope.stack.append(self.func)
        return scope


def _walk(expr: Expression) -> Iterator[Node]:
    stack: list[Node] = [expr]
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, (LambdaExpr, FuncBase)):
            stack.extend(children(node))


def _evaluate(
    checker: TypeChecker,
    expr: Expression,
    given: dict[Var, Type],
    scope: CheckerScope,
    judged: FuncDef | None,
) -> tuple[Type, bool]:
    """``expr``'s type as mypy infers it in its function's ``scope``, in a session that leaves
    no trace: no error, no type recorded, no narrowing of the caller's names, no function
    deferred, the given variables' own types back as they were; and whether it is a literal
    string in the function ``judged`` (False when not asked)."""
    saved_types = {var: var.type for var in given}
    saved_binder = checker.binder
    saved_scope = checker.scope
    errors = checker.msg.errors
    saved_errors = (errors.file, errors.scope)
    saved_pass = checker.pass_num
    saved_deferred = checker.current_node_deferred
    cache = checker.expr_checker.expr_cache
    saved_cache = dict(cache)
    cache.clear()
    try:
        for var, t in given.items():
            var.type = t
        checker.binder = ConditionalTypeBinder(checker.options)
        checker.scope = scope
        # Errors are filtered, but recorded first under the current file and target, which
        # may be flushed already (the module being cached): a file of no module instead.
        errors.file, errors.scope = _NO_FILE, None
        checker.pass_num = checker.last_pass  # report (to the filter), never defer
        checker.dynamic_funcs.append(False)
        try:
            with checker.msg.filter_errors(), checker.local_type_map as types:
                with checker.binder.top_frame_context():
                    found = checker.expr_checker.accept(expr)
                literal = judged is not None and Literalness(types.get).is_literal(expr, judged)
        except Exception as error:  # mypy's checker, asked out of place: not inferred (Any)
            raise _NotInferred from error
        finally:
            checker.dynamic_funcs.pop()
    finally:
        for var, saved in saved_types.items():
            var.type = saved
        checker.binder = saved_binder
        checker.scope = saved_scope
        errors.file, errors.scope = saved_errors
        checker.pass_num = saved_pass
        checker.current_node_deferred = saved_deferred
        cache.clear()
        cache.update(saved_cache)
    return found, literal


# -- the function's control flow -----------------------------------------------------------
def _statements(block: Block) -> list[Node]:
    return [] if block.is_unreachable else list(block.body)


def _always_returns(block: Block) -> bool:
    """Whether every path through ``block`` ends in a ``return`` or a ``raise`` (read from
    the syntax; a loop, a ``with`` or a ``match`` ending it: not known, so no)."""
    body = _statements(block)
    if not body:
        return False
    last = body[-1]
    if isinstance(last, (ReturnStmt, RaiseStmt)):
        return True
    if isinstance(last, IfStmt):
        return last.else_body is not None and all(
            _always_returns(b) for b in [*last.body, last.else_body]
        )
    if isinstance(last, TryStmt):
        if last.finally_body is not None and _always_returns(last.finally_body):
            return True
        ends = last.else_body if last.else_body is not None else last.body
        return _always_returns(ends) and all(_always_returns(h) for h in last.handlers)
    return False


def _returns(block: Block) -> Iterator[ReturnStmt]:
    """The function's reachable ``return`` statements (not those of nested functions)."""
    stack: list[Node] = _statements(block)
    while stack:
        node = stack.pop()
        if isinstance(node, SCOPES):
            continue
        if isinstance(node, ReturnStmt):
            yield node
        elif isinstance(node, Block):
            stack.extend(_statements(node))
        else:
            stack.extend(children(node, statements_only=True))


__all__ = ["infer_signatures", "known"]
