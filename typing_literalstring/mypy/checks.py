"""The post-pass: PEP 675's checks over one fully type-checked module.

mypy gives plugins no hook for "an argument / assignment / return value is checked against a
declared type", so the plugin checks them afterwards, from the module's ``TypeChecker`` and its
complete type map: call arguments (including TypeVars bound to LiteralString and generic
classes), annotated and augmented assignments, and return statements.  Errors are reported
through the checker, so ``# type: ignore[literal-string]``, unused-ignore warnings and the
incremental cache treat them like mypy's own.

``ModuleCheck`` walks the module once and runs each check: of calls and assertions here, of
statements in ``statement_checks``, of overloads in ``overload_errors``, all built on the
question ``violations`` answers (does this expression violate that declared type?).
"""

from __future__ import annotations

from mypy.expandtype import expand_type_by_instance
from mypy.nodes import (
    FUNC_NO_INFO,
    AssertTypeExpr,
    AssignmentStmt,
    CallExpr,
    ForStmt,
    FuncDef,
    FuncItem,
    IntExpr,
    MemberExpr,
    MypyFile,
    Node,
    OperatorAssignmentStmt,
    OverloadedFuncDef,
    RefExpr,
    ReturnStmt,
    Var,
)
from mypy.typeops import bind_self
from mypy.types import (
    CallableType,
    Instance,
    Overloaded,
    Type,
    get_proper_type,
)

from typing_literalstring.mypy.literal_types import any_type
from typing_literalstring.mypy.marker import (
    bad_type_arguments,
    callable_has_mark,
    contains_mark,
    literal_string,
)
from typing_literalstring.mypy.overload_errors import OverloadErrors
from typing_literalstring.mypy.reveal import judgement, probe_function
from typing_literalstring.mypy.shell import script_expressions, script_places
from typing_literalstring.mypy.statement_checks import StatementChecks
from typing_literalstring.mypy.walk import walk_statements


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


class ModuleCheck(StatementChecks, OverloadErrors):
    """Reports PEP 675 violations in one module that mypy has fully checked."""

    def run(self) -> None:
        """The module's checks; its literal constants are marked already (the plugin does
        it before mypy caches the module: ``LiteralStringPlugin._mark_constants``)."""
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
                if self.answer_judge(expr):
                    continue
                self.check_call(expr)
            elif type(expr) is AssertTypeExpr:
                self.check_assert_type(expr)
        if overloads:
            self.withdraw_overload_errors(overloads)
        if self.overloaded_calls:
            self.reword_overload_errors()
        if self.settings.shell_argv:
            self.check_shell_scripts()

    def answer_judge(self, call: CallExpr) -> bool:
        """``check``'s judge of a sink call's text (checkers/asking.py), answered here, once the
        module's literal constants are known, in the words of ``reveal_type``."""
        callee = call.callee
        if not (isinstance(callee, RefExpr) and probe_function(callee.fullname) == "judged"):
            return False
        if len(call.args) == 2 and isinstance(call.args[1], IntExpr):
            value, tag = call.args[0], call.args[1].value
            literal = not self.violates(literal_string() or any_type(), value, self.scope_of(value))
            word = judgement(self.types.get(value), literal)
            module = callee.fullname.rpartition(".")[0]
            shown = word if word == "Any" else f"{module}.{word}"
            self.checker.note(f'Revealed type is "tuple[{shown}, Literal[{tag}]]"', call)
        return True

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
