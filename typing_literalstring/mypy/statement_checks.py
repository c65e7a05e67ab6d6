"""The post-pass's checks of statements: annotations, assignments (plain, augmented, by
index, into a TypedDict), loop targets, returns and method overrides, each against a declared
type that holds LiteralString."""

from __future__ import annotations

from mypy.expandtype import expand_type_by_instance
from mypy.maptype import map_instance_to_supertype
from mypy.nodes import (
    AssignmentStmt,
    Decorator,
    DictExpr,
    Expression,
    ForStmt,
    FuncDef,
    FuncItem,
    IndexExpr,
    ListExpr,
    Node,
    OperatorAssignmentStmt,
    OpExpr,
    RefExpr,
    ReturnStmt,
    StrExpr,
    TupleExpr,
    TypeInfo,
)
from mypy.typeops import bind_self
from mypy.types import (
    CallableType,
    Instance,
    Overloaded,
    TupleType,
    Type,
    TypedDictType,
    get_proper_type,
)

from typing_literalstring.mypy.literal_types import any_type
from typing_literalstring.mypy.marker import (
    accepts,
    contains_mark,
    is_literal_type,
    is_str,
    requires_literal,
)
from typing_literalstring.mypy.violations import Violations


class StatementChecks(Violations):
    """Statements checked against the declared types that hold LiteralString."""

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
