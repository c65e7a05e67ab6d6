"""The post-pass: PEP 675's checks over one fully type-checked module.

mypy gives plugins no hook for "an argument / assignment / return value is checked against a
declared type", so the plugin checks them afterwards, from the module's ``TypeChecker`` and its
complete type map: call arguments (including TypeVars bound to LiteralString and generic
classes), annotated and augmented assignments, and return statements.  Errors are reported
through the checker, so ``# type: ignore[literal-string]``, unused-ignore warnings and the
incremental cache treat them like mypy's own.
"""

from __future__ import annotations

from mypy.argmap import map_actuals_to_formals
from mypy.checker import TypeChecker
from mypy.errors import ErrorInfo
from mypy.expandtype import expand_type_by_instance
from mypy.maptype import map_instance_to_supertype
from mypy.messages import callable_name
from mypy.nodes import (
    ARG_STAR,
    ARG_STAR2,
    FUNC_NO_INFO,
    AssertTypeExpr,
    AssignmentStmt,
    CallExpr,
    Context,
    Decorator,
    DictExpr,
    Expression,
    FakeInfo,
    ForStmt,
    FuncDef,
    FuncItem,
    IndexExpr,
    ListExpr,
    MemberExpr,
    MypyFile,
    Node,
    OperatorAssignmentStmt,
    OpExpr,
    OverloadedFuncDef,
    RefExpr,
    ReturnStmt,
    SetExpr,
    StrExpr,
    TupleExpr,
    TypeInfo,
    Var,
)
from mypy.subtypes import is_subtype
from mypy.typeops import bind_self, type_object_type
from mypy.types import (
    CallableType,
    Instance,
    Overloaded,
    TupleType,
    Type,
    TypedDictType,
    UnionType,
    get_proper_type,
)

from typing_literalstring.mypy.constants import mark_literal_constants
from typing_literalstring.mypy.hooks import KEPT_ITEMS
from typing_literalstring.mypy.literals import Literalness, any_type
from typing_literalstring.mypy.marker import (
    LITERAL_STRING,
    Substitution,
    accepts,
    bad_type_arguments,
    callable_has_mark,
    compatible,
    contains_mark,
    describe,
    has_type_variables,
    invariance_breach,
    is_literal_type,
    is_str,
    is_unchecked_any,
    literal_string,
    maps_every_argument,
    requires_literal,
    substitute,
    unify,
    without_strings,
)
from typing_literalstring.mypy.settings import Settings
from typing_literalstring.mypy.shell import script_expressions, script_places
from typing_literalstring.mypy.walk import variable_of, walk_statements

_NEVER_MATCHED = (
    "Overloaded function signature {later} will never be matched: signature {earlier}'s"
)


def narrower_by_mark(earlier: CallableType, later: CallableType) -> bool:
    """Does ``earlier`` take LiteralString where ``later`` takes str?"""
    return any(
        requires_literal(a) and not requires_literal(b)
        for a, b in zip(earlier.arg_types, later.arg_types)
    )


def callee_name(signature: CallableType) -> str:
    """``"execute" of "Cursor"``, as mypy's messages name a callee."""
    return callable_name(signature) or '"function"'


def _declares_mark(t: Type | None) -> bool:
    return t is not None and (contains_mark(t) or bool(bad_type_arguments(t)))


def needs_check(tree: MypyFile) -> bool:
    """Could the post-pass report anything in a module that calls nothing?  (Such a module
    has not shown its checker to the plugin; finding it is slow, so look first.)"""
    for node, _, _ in walk_statements(tree):
        if isinstance(node, FuncItem):
            signature = get_proper_type(node.type)
            if isinstance(signature, CallableType) and any(
                map(_declares_mark, [*signature.arg_types, signature.ret_type])
            ):
                return True
        elif isinstance(node, (AssignmentStmt, OperatorAssignmentStmt)):
            if isinstance(node, AssignmentStmt) and _declares_mark(node.type):
                return True
            targets = node.lvalues if isinstance(node, AssignmentStmt) else [node.lvalue]
            for target in targets:
                if isinstance(target, RefExpr) and isinstance(target.node, Var):
                    if _declares_mark(target.node.type):
                        return True
                elif not isinstance(target, RefExpr):
                    return True  # a subscript or an unpacking: look closer
    return False


# Read-only iterables: one of literal strings may stand where one of LiteralString is expected
# (a list may not: list[str] is not list[LiteralString], as pyright says too).
_COVARIANT_ITERABLES = frozenset(
    (
        "typing.Iterable",
        "typing.Iterator",
        "typing.Collection",
        "typing.Sequence",
        "typing.Reversible",
        "typing.AbstractSet",
        "builtins.tuple",
        "builtins.frozenset",
    )
)


class ModuleCheck:
    """Reports PEP 675 violations in one module that mypy has fully checked."""

    def __init__(
        self, checker: TypeChecker, tree: MypyFile, settings: Settings | None = None
    ) -> None:
        self.checker = checker
        self.tree = tree
        self.settings = settings or Settings()
        self.types = checker._type_maps[0]  # pyright: ignore[reportPrivateUsage]
        self.options = checker.options
        self.literals = Literalness(self.types.get)
        self.functions: list[tuple[int, int, int, FuncItem]] = []
        self.done: set[int] = set()  # calls already checked in context
        self.overloaded_calls: list[tuple[CallExpr, Overloaded]] = []

    def fail(self, message: str, context: Context) -> None:
        self.checker.fail(message, context, code=LITERAL_STRING)

    def describe(self, t: Type | None) -> str:
        return describe(t, self.options)

    def run(self) -> None:
        # First, so that the checks below and the modules checked later see these names as
        # LiteralString, as pyright infers them.
        mark_literal_constants(self.tree, self.literals)
        # Statements need a walk; calls come from the type map (every checked expression).
        depth: dict[int, int] = {}
        overloads: list[OverloadedFuncDef] = []
        for node, scope, func in walk_statements(self.tree):
            if isinstance(node, FuncItem):
                self.check_parameter_annotations(node)
                if isinstance(node, FuncDef) and node.info is not FUNC_NO_INFO:
                    self.check_override(node)
                outer = depth.get(id(func), 0)
                depth[id(node)] = outer + 1
                self.functions.append((node.line, node.end_line or node.line, outer + 1, node))
            elif isinstance(node, OverloadedFuncDef):
                overloads.append(node)
            elif isinstance(node, AssignmentStmt):
                self.check_assignment(node, scope)
            elif isinstance(node, OperatorAssignmentStmt):
                self.check_augmented_assignment(node, scope)
            elif isinstance(node, ForStmt) and not self.display_of_literals(node.expr, scope):
                self.check_loop_target(node.index, node.inferred_item_type, node)
            elif isinstance(node, ReturnStmt) and func is not None and node.expr is not None:
                self.check_return(node, node.expr, func, scope)
        for expr in list(self.types):
            if type(expr) is CallExpr:
                self.check_call(expr)
            elif type(expr) is AssertTypeExpr:
                self.check_assert_type(expr)
        if overloads:
            self.withdraw_overload_errors(overloads)
        if self.overloaded_calls:
            self.reword_overload_errors()
        if self.settings.shell_argv:
            self.check_shell_scripts()

    def check_assert_type(self, node: AssertTypeExpr) -> None:
        """``assert_type(x, LiteralString)`` (or a type holding it) when ``x`` is not literal.

        mypy reads LiteralString as str, so on its own assert_type accepts any str here.  Only
        assertions that name LiteralString are checked: ``assert_type(literal, str)`` stays
        accepted, so code that does not involve LiteralString gets no new error.
        """
        if not contains_mark(node.type):
            return
        if self.violates(node.type, node.expr, self.scope_of(node.expr)):
            self.fail(
                f'Expression is of type "{self.describe(self.types.get(node.expr))}", not '
                f'"{self.describe(node.type)}"',
                node,
            )

    def check_shell_scripts(self) -> None:
        """``shell_argv``: the script of ``["sh", "-c", script]`` must be literal."""
        places = script_places(self.tree.path)
        for expr in script_expressions(places, self.types) if places else ():
            if self.violates(literal_string() or any_type(), expr, self.scope_of(expr)):
                self.fail(
                    "Shell script in an argument list has incompatible type "
                    f'"{self.describe(self.types.get(expr))}"; expected "LiteralString"',
                    expr,
                )

    def withdraw_overload_errors(self, overloads: list[OverloadedFuncDef]) -> None:
        """Take back mypy's "signature 2 will never be matched" where signature 1 takes
        LiteralString and signature 2 takes str: to mypy they look the same."""
        errors = self.checker.errors.error_info_map.get(self.checker.path)
        if not errors:
            return
        spurious: set[tuple[int, str]] = set()
        for overload in overloads:
            declared = get_proper_type(overload.type)
            if not isinstance(declared, Overloaded):
                continue
            items = declared.items
            for later, item in enumerate(items):
                node = overload.items[later]
                line = node.func.line if isinstance(node, Decorator) else node.line
                for earlier in range(later):
                    if narrower_by_mark(items[earlier], item):
                        start = _NEVER_MATCHED.format(later=later + 1, earlier=earlier + 1)
                        spurious.add((line, start))
        errors[:] = [
            info
            for info in errors
            if not (
                info.code is not None
                and info.code.code == "overload-cannot-match"
                and any(
                    info.line == line and info.message.startswith(start) for line, start in spurious
                )
            )
        ]

    def reword_overload_errors(self) -> None:
        """A call that matches no overload item only because a LiteralString item refused a
        non-literal string (the signature hook's doing): a ``literal-string`` error instead of
        mypy's "No overload variant matches", so the code and the message say what is wrong."""
        errors = self.checker.errors.error_info_map.get(self.checker.path) or []
        by_place = {
            (info.line, info.column): info
            for info in errors
            if info.severity == "error"
            and info.code is not None
            and info.code.code == "call-overload"
        }
        withdrawn: list[ErrorInfo] = []
        for call, callee in self.overloaded_calls:
            info = by_place.get((call.line, call.column))
            # The signature hook leaves a LiteralString item alone when no other item would
            # take the call: mypy then accepts it, with the right return type, not Any.
            kept = KEPT_ITEMS.pop(id(call), None) is call
            if info is None and not kept:
                continue
            declared = self.declared_overload(call)
            found = self.refused_literal_argument(call, declared or callee)
            if found is None:
                continue
            actual, expected = found
            if info is not None:
                withdrawn.append(info)
            arg = call.args[actual]
            self.fail(
                f"Argument {actual + 1} to {callee_name(callee.items[0])} has incompatible type "
                f'"{self.describe(self.types.get(arg))}"; expected "{self.describe(expected)}"',
                arg,
            )
        if withdrawn:
            errors[:] = [
                info
                for info in errors
                if not any(
                    info is error
                    or info.parent_error is error
                    or (
                        info.severity == "note"
                        and info.line == error.line
                        and info.code is error.code
                    )
                    for error in withdrawn
                )
            ]

    def declared_overload(self, call: CallExpr) -> Overloaded | None:
        """The callee's overload items as declared (the type map may hold them as the signature
        hook rewrote them), bound to the receiver for a method."""
        callee = call.callee
        declared: Type | None = None
        if isinstance(callee, RefExpr) and callee.node is not None:
            node = callee.node
            if isinstance(node, TypeInfo):
                declared = type_object_type(node, self.checker.named_type)
            else:
                declared = getattr(node, "type", None)
        elif isinstance(callee, MemberExpr):
            receiver = get_proper_type(self.types.get(callee.expr))
            if isinstance(receiver, Instance):
                member = receiver.type.get(callee.name)
                written = getattr(member.node, "type", None) if member is not None else None
                if isinstance(written, Type):
                    expanded = get_proper_type(expand_type_by_instance(written, receiver))
                    if isinstance(expanded, Overloaded):
                        declared = bind_self(expanded)
        found = get_proper_type(declared) if isinstance(declared, Type) else None
        return found if isinstance(found, Overloaded) else None

    def refused_literal_argument(
        self, call: CallExpr, callee: Overloaded
    ) -> tuple[int, Type] | None:
        """The first overload item that fits the call but for a non-literal string given for a
        LiteralString parameter: (that argument, the parameter's type)."""
        scope = self.scope_of(call)
        for item in callee.items:
            if not callable_has_mark(item):
                continue
            formals = map_actuals_to_formals(
                call.arg_kinds,
                call.arg_names,
                item.arg_kinds,
                item.arg_names,
                lambda i: self.types.get(call.args[i]) or any_type(),
            )
            if any(
                not actuals and item.arg_kinds[i].is_required() for i, actuals in enumerate(formals)
            ) or not maps_every_argument(call, formals):
                continue
            refused: tuple[int, Type] | None = None
            fits = True
            for formal, actuals in enumerate(formals):
                expected = item.arg_types[formal]
                for actual in actuals:
                    if call.arg_kinds[actual] == ARG_STAR:
                        continue  # `*args`: its items' count is unknown, as for mypy
                    if call.arg_kinds[actual] == ARG_STAR2 or not accepts(
                        expected, self.types.get(call.args[actual])
                    ):
                        fits = False
                    elif refused is None and self.violates(expected, call.args[actual], scope):
                        refused = (actual, expected)
            if fits and refused is not None:
                return refused
        return None

    def scope_of(self, expr: Expression) -> Node:
        """The innermost function around ``expr`` (by lines), or the module."""
        best: Node = self.tree
        best_depth = 0
        for start, end, depth, func in self.functions:
            if start <= expr.line <= end and depth > best_depth:
                best, best_depth = func, depth
        return best

    # -- the rule -------------------------------------------------------------------------
    def violates(self, expected: Type, expr: Expression, scope: Node) -> bool:
        """Does ``expr`` put a non-literal string where ``expected`` wants LiteralString?"""
        if requires_literal(expected):
            if self.literals.is_literal(expr, scope):
                return False
            actual = self.types.get(expr)
            if self.settings.disallow_any and is_unchecked_any(actual):
                return True
            if not compatible(actual, expected):
                return True
            # Not a string: held to the rest of the union (`LiteralString | Sequence[...]`).
            rest = without_strings(expected)
            return rest is not None and self.violates(rest, expr, scope)
        if not contains_mark(expected):
            return False
        if isinstance(expr, CallExpr):
            verdict = self.check_generic_call_in_context(expr, expected, scope)
            if verdict is not None:
                return verdict
        e = get_proper_type(expected)
        if isinstance(e, UnionType):
            # `Sequence[LiteralString] | None` (Django's extra(where=...)): an argument that
            # fits a member without the mark is fine; else it must fit a marked one.
            actual = self.types.get(expr)
            marked = [m for m in e.items if contains_mark(m)]
            if actual is None or any(
                is_subtype(actual, m) for m in e.items if not contains_mark(m)
            ):
                return False
            return all(self.violates(m, expr, scope) for m in marked)
        if isinstance(e, Instance):
            if isinstance(expr, (ListExpr, SetExpr, TupleExpr)) and len(e.args) == 1:
                return any(self.violates(e.args[0], item, scope) for item in expr.items)
            if isinstance(expr, DictExpr) and len(e.args) == 2:
                return any(
                    (key is not None and self.violates(e.args[0], key, scope))
                    or self.violates(e.args[1], value, scope)
                    for key, value in expr.items
                )
        if (
            isinstance(e, TupleType)
            and isinstance(expr, TupleExpr)
            and len(expr.items) == len(e.items)
        ):
            return any(self.violates(t, item, scope) for t, item in zip(e.items, expr.items))
        if (
            isinstance(e, Instance)
            and e.type.fullname in _COVARIANT_ITERABLES
            and len(e.args) == 1
            and requires_literal(e.args[0])
            and self.literals.literal_items(expr, scope)
        ):
            # `pick(col, ALLOWED)` with `ALLOWED = ("a", "b")`: mypy typed the constant
            # `tuple[str, ...]` where this module uses it; its items are literals.
            return False
        return not compatible(self.types.get(expr), expected)

    # -- calls ------------------------------------------------------------------------------
    def declared_signature(self, call: CallExpr) -> CallableType | None:
        """The callee's signature before type-variable inference."""
        node = call.callee.node if isinstance(call.callee, RefExpr) else None
        if isinstance(node, Decorator):
            node = node.func
        declared = None
        if isinstance(node, TypeInfo):
            declared = get_proper_type(type_object_type(node, self.checker.named_type))
        elif isinstance(node, FuncDef):
            declared = get_proper_type(node.type)
        return declared if isinstance(declared, CallableType) else None

    def generic_callee(self, call: CallExpr) -> bool:
        """Is the callee generic, or not known well enough to tell?"""
        declared = self.declared_signature(call)
        if declared is None and isinstance(call.callee, MemberExpr):
            receiver = get_proper_type(self.types.get(call.callee.expr))
            method = (
                receiver.type.get_method(call.callee.name)
                if isinstance(receiver, Instance)
                else None
            )
            found = get_proper_type(method.type) if method is not None else None
            declared = found if isinstance(found, CallableType) else None
        return declared is None or bool(declared.variables)

    def check_call(self, call: CallExpr) -> None:
        if call.analyzed is not None or id(call) in self.done:
            return
        callee = get_proper_type(self.types.get(call.callee))
        if isinstance(callee, Instance):  # an object with __call__
            method = callee.type.get_method("__call__")
            declared = get_proper_type(method.type) if method is not None else None
            if not isinstance(declared, CallableType):
                return
            callee = bind_self(expand_type_by_instance(declared, callee))
        if isinstance(callee, Overloaded):
            self.overloaded_calls.append((call, callee))
            return  # the signature hook made mypy pick the right item
        if not isinstance(callee, CallableType):
            return
        signatures = [callee]
        declared = self.declared_signature(call)
        if (
            declared is not None
            and declared.variables
            and len(declared.arg_types) == len(callee.arg_types)
        ):
            signatures.append(declared)  # a TypeVar bound to LiteralString (erased by inference)
        scope: Node | None = None
        reported: set[int] = set()
        # An invariant `list[str]` parameter refuses `list[LiteralString]`, unless the str came
        # from solving a type variable (mypy's solver drops the marker).
        invariance = any(map(self.holds_mark, call.args)) and not self.generic_callee(call)
        for signature in signatures:
            if not callable_has_mark(signature) and not invariance:
                continue
            scope = scope or self.scope_of(call)
            self.check_arguments(call, signature, callee, scope, reported, invariance=invariance)

    def check_arguments(
        self,
        call: CallExpr,
        signature: CallableType,
        named: CallableType,
        scope: Node,
        reported: set[int],
        subst: Substitution | None = None,
        *,
        invariance: bool = False,
    ) -> None:
        formals = map_actuals_to_formals(
            call.arg_kinds,
            call.arg_names,
            signature.arg_kinds,
            signature.arg_names,
            lambda i: self.types.get(call.args[i]) or any_type(),
        )
        for formal, actuals in enumerate(formals):
            expected = signature.arg_types[formal]
            if subst is not None:
                expected = substitute(expected, subst)
            for actual in actuals:
                if actual in reported or call.arg_kinds[actual] in (ARG_STAR, ARG_STAR2):
                    continue
                arg = call.args[actual]
                if self.violates(expected, arg, scope) or (
                    invariance and self.invariance_breach(expected, arg)
                ):
                    reported.add(actual)
                    self.fail(
                        f"Argument {actual + 1} to {callee_name(named)} has incompatible type "
                        f'"{self.describe(self.types.get(arg))}"; expected '
                        f'"{self.describe(expected)}"',
                        arg,
                    )

    def check_generic_call_in_context(
        self, call: CallExpr, expected: Type, scope: Node
    ) -> bool | None:
        """mypy's solver drops the marker (T := str): redo the inference from the context."""
        declared = self.declared_signature(call)
        if declared is None or not declared.variables:
            return None
        subst: Substitution = {}
        if not unify(declared.ret_type, expected, subst) or not subst:
            return None
        self.check_arguments(call, declared, declared, scope, set(), subst)
        self.done.add(id(call))
        return False  # the arguments' errors (if any) are reported already

    # -- assignments and returns ------------------------------------------------------------
    def declared_type(self, lvalue: Expression) -> Type | None:
        """The declared type of an assignment target (an attribute's, for its receiver)."""
        var = variable_of(lvalue, self.types.get)
        if var is None or var.type is None:
            return None
        receiver = (
            get_proper_type(self.types.get(lvalue.expr)) if isinstance(lvalue, MemberExpr) else None
        )
        if (
            isinstance(receiver, Instance)
            # A variable outside any class has mypy's placeholder info, which has no name.
            and not isinstance(var.info, FakeInfo)
            and receiver.type.has_base(var.info.fullname)
            and has_type_variables(var.type)
        ):
            # `box.content = user` with `box: Box[LiteralString]` and `content: T`.
            return expand_type_by_instance(var.type, map_instance_to_supertype(receiver, var.info))
        return None if var.is_inferred else var.type

    def check_type_arguments(self, t: Type | None, context: Context) -> None:
        """``LiteralBox[str]`` where ``LiteralBox``'s TypeVar is bound to LiteralString."""
        for arg, generic, bound in bad_type_arguments(t) if t is not None else ():
            self.fail(
                f'Type argument "{self.describe(arg)}" of "{generic.type.name}" must be a subtype '
                f'of "{self.describe(bound)}"',
                context,
            )

    def holds_mark(self, expr: Expression) -> bool:
        """Is ``expr`` a variable declared with LiteralString in its type?"""
        var = variable_of(expr, self.types.get) if isinstance(expr, RefExpr) else None
        return var is not None and not var.is_inferred and contains_mark(var.type or any_type())

    def invariance_breach(self, expected: Type, expr: Expression) -> bool:
        """A declared ``list[LiteralString]`` given where ``list[str]`` is wanted."""
        return self.holds_mark(expr) and invariance_breach(self.types.get(expr), expected)

    def check_parameter_annotations(self, func: FuncItem) -> None:
        signature = get_proper_type(func.type)
        if isinstance(signature, CallableType) and not signature.implicit:
            for argument, t in zip(func.arguments, signature.arg_types):
                self.check_type_arguments(t, argument)

    def check_assignment(self, stmt: AssignmentStmt, scope: Node) -> None:
        if stmt.is_alias_def:
            return
        if stmt.type is not None:
            self.check_type_arguments(stmt.type, stmt)
        for lvalue in stmt.lvalues:
            if isinstance(lvalue, IndexExpr):
                self.check_index_assignment(lvalue, stmt.rvalue, scope)
                continue
            expected = self.declared_type(lvalue)
            typed_dict = get_proper_type(expected)
            if isinstance(typed_dict, TypedDictType) and isinstance(stmt.rvalue, DictExpr):
                self.check_typed_dict(typed_dict, stmt.rvalue, scope)
                continue
            if expected is not None and (
                (contains_mark(expected) and self.violates(expected, stmt.rvalue, scope))
                or self.invariance_breach(expected, stmt.rvalue)
            ):
                self.fail(
                    "Incompatible types in assignment (expression has type "
                    f'"{self.describe(self.types.get(stmt.rvalue))}", variable has type '
                    f'"{self.describe(expected)}")',
                    stmt.rvalue,
                )

    def display_of_literals(self, expr: Expression, scope: Node) -> bool:
        """``("a", "b")``: mypy infers ``str`` items, pyright keeps the literals of a tuple
        display (not of a list or a set display: ``["a", "b"]`` is ``list[str]`` there)."""
        if not isinstance(expr, TupleExpr):
            return False
        return all(
            self.display_of_literals(item, scope)
            if isinstance(item, TupleExpr)
            else not is_str(self.types.get(item) or any_type())
            or self.literals.is_literal(item, scope)
            for item in expr.items
        )

    def check_loop_target(self, target: Expression, item: Type | None, loop: ForStmt) -> None:
        """``pre: LiteralString`` then ``for pre in items``: each item is assigned to it
        (psycopg 3's own sql.py; pyright reports it, mypy reads LiteralString as str)."""
        p = get_proper_type(item) if item is not None else None
        if isinstance(target, (TupleExpr, ListExpr)):
            if isinstance(p, TupleType) and len(p.items) == len(target.items):
                for element, element_type in zip(target.items, p.items):
                    self.check_loop_target(element, element_type, loop)
            return
        expected = self.declared_type(target) if isinstance(target, RefExpr) else None
        if expected is None or item is None or not requires_literal(expected):
            return
        if is_str(item) and not is_literal_type(item):
            self.fail(
                f'Incompatible types in assignment (expression has type "{self.describe(item)}", '
                f'variable has type "{self.describe(expected)}")',
                loop.expr,
            )

    def check_typed_dict(self, expected: TypedDictType, value: DictExpr, scope: Node) -> None:
        """``td: TD = {"sql": user}`` where ``TD``'s item ``sql`` is LiteralString."""
        for key, item in value.items:
            if not isinstance(key, StrExpr) or key.value not in expected.items:
                continue
            wanted = expected.items[key.value]
            if contains_mark(wanted) and self.violates(wanted, item, scope):
                actual = self.describe(self.types.get(item))
                self.fail(
                    f'Incompatible types (expression has type "{actual}", '
                    f'TypedDict item "{key.value}" has type "{self.describe(wanted)}")',
                    item,
                )

    def check_index_assignment(self, target: IndexExpr, value: Expression, scope: Node) -> None:
        """``d[key] = user`` where ``d: dict[str, LiteralString]``."""
        base = get_proper_type(self.types.get(target.base))
        method = base.type.get_method("__setitem__") if isinstance(base, Instance) else None
        if not isinstance(base, Instance) or method is None:
            return
        declared = get_proper_type(method.type)
        if not isinstance(declared, (CallableType, Overloaded)):
            return
        expanded = get_proper_type(
            expand_type_by_instance(declared, map_instance_to_supertype(base, method.info))
        )
        if not isinstance(expanded, (CallableType, Overloaded)):
            return
        index_type = self.types.get(target.index)
        for item in bind_self(expanded).items:
            if len(item.arg_types) != 2 or not accepts(item.arg_types[0], index_type):
                continue
            wanted = item.arg_types[1]
            if contains_mark(wanted) and self.violates(wanted, value, scope):
                self.fail(
                    "Incompatible types in assignment (expression has type "
                    f'"{self.describe(self.types.get(value))}", target has type '
                    f'"{self.describe(wanted)}")',
                    value,
                )
            return

    def check_override(self, method: FuncDef) -> None:
        """A method may not narrow a str parameter of the method it overrides to LiteralString,
        nor widen a LiteralString return type to str."""
        signature = get_proper_type(method.type)
        if not isinstance(signature, CallableType) or method.name in ("__init__", "__new__"):
            return
        for base in method.info.mro[1:]:
            symbol = base.names.get(method.name)
            if symbol is None:
                continue
            node = symbol.node.func if isinstance(symbol.node, Decorator) else symbol.node
            original = get_proper_type(node.type) if isinstance(node, FuncDef) else None
            if isinstance(original, CallableType):
                self.compare_with_overridden(method, signature, original, base)
            return

    def compare_with_overridden(
        self, method: FuncDef, signature: CallableType, original: CallableType, base: TypeInfo
    ) -> None:
        for index, (mine, theirs) in enumerate(zip(signature.arg_types, original.arg_types)):
            if index == 0 and not method.is_static:
                continue  # self or cls
            if requires_literal(mine) and is_str(theirs) and not requires_literal(theirs):
                number = index if not method.is_static else index + 1
                self.fail(
                    f'Argument {number} of "{method.name}" is incompatible with supertype '
                    f'"{base.name}"; supertype defines the argument type as '
                    f'"{self.describe(theirs)}"',
                    method.arguments[index] if index < len(method.arguments) else method,
                )
        mine, theirs = signature.ret_type, original.ret_type
        if requires_literal(theirs) and is_str(mine) and not requires_literal(mine):
            self.fail(
                f'Return type "{self.describe(mine)}" of "{method.name}" incompatible with '
                f'return type "{self.describe(theirs)}" in supertype "{base.name}"',
                method,
            )

    def check_augmented_assignment(self, stmt: OperatorAssignmentStmt, scope: Node) -> None:
        expected = self.declared_type(stmt.lvalue)
        if expected is None or not requires_literal(expected):
            return
        if not self.literals.is_literal(OpExpr(stmt.op, stmt.lvalue, stmt.rvalue), scope):
            self.fail(
                'Incompatible types in assignment (expression has type "str", variable has '
                f'type "{self.describe(expected)}")',
                stmt.rvalue,
            )

    def check_return(
        self, stmt: ReturnStmt, value: Expression, func: FuncItem, scope: Node
    ) -> None:
        signature = get_proper_type(func.type)
        if not isinstance(signature, CallableType) or signature.implicit or func.is_generator:
            return
        returned = signature.ret_type
        p = get_proper_type(returned)
        if func.is_coroutine and isinstance(p, Instance) and p.type.fullname == "typing.Coroutine":
            returned = p.args[2]
        if contains_mark(returned) and self.violates(returned, value, scope):
            self.fail(
                f'Incompatible return value type (got "{self.describe(self.types.get(value))}", '
                f'expected "{self.describe(returned)}")',
                value,
            )
