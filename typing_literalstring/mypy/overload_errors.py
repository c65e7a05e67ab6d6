"""mypy's own errors about overloads, set right where LiteralString is involved: its "will
never be matched" for an overload pair that differs only by LiteralString against str, and its
"no overload variant matches" reworded to name the argument a LiteralString refused."""

from __future__ import annotations

from mypy.errors import ErrorInfo
from mypy.expandtype import expand_type_by_instance
from mypy.nodes import (
    ARG_STAR,
    ARG_STAR2,
    CallExpr,
    Decorator,
    MemberExpr,
    OverloadedFuncDef,
    RefExpr,
    TypeInfo,
)
from mypy.typeops import bind_self, type_object_type
from mypy.types import (
    CallableType,
    Instance,
    Overloaded,
    Type,
    get_proper_type,
)

from typing_literalstring.mypy.hooks import KEPT_ITEMS
from typing_literalstring.mypy.marker import (
    accepts,
    callable_has_mark,
    maps_every_argument,
    requires_literal,
)
from typing_literalstring.mypy.violations import Violations, callee_name

_NEVER_MATCHED = (
    "Overloaded function signature {later} will never be matched: signature {earlier}'s"
)


def narrower_by_mark(earlier: CallableType, later: CallableType) -> bool:
    """Does ``earlier`` take LiteralString where ``later`` takes str?"""
    return any(
        requires_literal(a) and not requires_literal(b)
        for a, b in zip(earlier.arg_types, later.arg_types)
    )


class OverloadErrors(Violations):
    """The post-pass's work on overloaded functions and calls."""

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
            formals = self.formals(call, item)
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
