"""Return types of the project's unannotated functions, as pyright infers them (setting
``infer_return_types``, which ``check`` turns on in its own run).

mypy types a call of a function without a return annotation as ``Any``: ``db = get_db()`` then
``db.execute(f"... {user}")`` is never judged, where pyright infers ``get_db``'s return type
from its body and reports the injection.  With this setting, a call of such a function of the
project gets the type its ``return`` statements have, computed by mypy itself (its expression
checker) on the returned expressions, under the rules of ``inference.py`` (strict: where one
does not hold, the call stays ``Any``).

mypy's incremental cache keeps no function bodies, so the inferred signature of each function
is written into the module's symbol table, under a key no code can name (it holds a space),
just before mypy caches the module: a module checked again later, while the function's module
comes from the cache, sees the same type; and a change of an inferred type changes the
module's interface, so mypy checks its importers again.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Callable, Iterator, Optional, Union

from mypy.checker import TypeChecker
from mypy.nodes import (
    FUNC_NO_INFO,
    GDEF,
    Block,
    Decorator,
    Expression,
    FuncDef,
    MypyFile,
    NameExpr,
    Node,
    SymbolTableNode,
    TypeInfo,
    Var,
)
from mypy.plugin import FunctionContext, MethodContext
from mypy.subtypes import is_subtype
from mypy.types import (
    AnyType,
    CallableType,
    Overloaded,
    Type,
    TypeOfAny,
    get_proper_type,
)

from typing_literalstring.mypy.in_fact import source_facts
from typing_literalstring.mypy.inference import infer_signatures, known
from typing_literalstring.mypy.literal_types import LITERAL_CALLS
from typing_literalstring.mypy.literals import Literalness
from typing_literalstring.mypy.marker import is_literal_type, is_marked
from typing_literalstring.mypy.walk import children

# The key of a function's inferred signature in its module's symbol table: `<KEY> <fullname>`.
KEY = "__typing_literalstring_returns__"
CallContext = Union[FunctionContext, MethodContext]
Lookup = Callable[[str], Optional[SymbolTableNode]]


def _is_unannotated_return(func: FuncDef) -> bool:
    """mypy gives a call of ``func`` Any: it has no annotation at all, or none for its return."""
    if func.type is None:
        return True
    declared = get_proper_type(func.type)
    returned = get_proper_type(declared.ret_type) if isinstance(declared, CallableType) else None
    return isinstance(returned, AnyType) and returned.type_of_any == TypeOfAny.unannotated


class Returns:
    """The inferred signatures of one mypy run, computed once each."""

    def __init__(self, lookup: Lookup, modules: Callable[[], dict[str, MypyFile]]) -> None:
        self._lookup = lookup
        self._modules = modules
        self._signatures: dict[str, list[CallableType]] = {}
        self._in_progress: set[str] = set()
        self._hooks: dict[str, FuncDef | None] = {}

    # -- which calls ---------------------------------------------------------------------
    def function(self, fullname: str, method: bool) -> FuncDef | None:
        """The project's function without a return annotation that a call of ``fullname``
        calls (a method found along its class's MRO), else None."""
        if fullname in self._hooks:
            return self._hooks[fullname]
        node: object = None
        if method and "." in fullname:
            owner, name = fullname.rsplit(".", 1)
            symbol = self._lookup(owner)
            if symbol is not None and isinstance(symbol.node, TypeInfo):
                member = symbol.node.get(name)
                node = member.node if member is not None else None
        else:
            symbol = self._lookup(fullname)
            node = symbol.node if symbol is not None else None
        if isinstance(node, Decorator) and _plain_decorators(node):
            node = node.func
        found = node if isinstance(node, FuncDef) and self._eligible(node) else None
        self._hooks[fullname] = found
        return found

    def _eligible(self, func: FuncDef) -> bool:
        if not _is_unannotated_return(func) or func.is_overload or func.is_property:
            return False
        if func.is_generator or func.is_coroutine or func.is_async_generator:
            return False
        if func.info is not FUNC_NO_INFO and func.info.type_vars:
            return False  # a generic class: `self` would hold its type variables
        module = self._module_of(func)
        return module is not None and not module.is_stub and _own(module.path)

    def _module_of(self, func: FuncDef) -> MypyFile | None:
        method = func.info is not FUNC_NO_INFO
        name = func.info.module_name if method else func.fullname.rpartition(".")[0]
        return self._modules().get(name)

    # -- the hook ------------------------------------------------------------------------
    def call_type(self, func: FuncDef, ctx: CallContext) -> Type:
        """A call's type: the return type inferred under the first assumption about the
        parameters that the call's arguments fit, else what mypy says (Any)."""
        default = ctx.default_return_type
        checker = ctx.api
        if not isinstance(get_proper_type(default), AnyType):
            return default  # typed otherwise (another plugin, a decorator)
        if not isinstance(checker, TypeChecker):
            return default
        for signature in self.signatures(func, checker):
            if _fits(signature, ctx, checker):
                if is_literal_type(signature.ret_type) and isinstance(ctx.context, Expression):
                    LITERAL_CALLS.add(ctx.context)
                return signature.ret_type
        return default

    # -- the signatures ------------------------------------------------------------------
    def signatures(self, func: FuncDef, checker: TypeChecker) -> list[CallableType]:
        """The inferred signatures of ``func`` (its parameters after ``self``), most precise
        first, once per run: from its module's symbol table when mypy took the module from
        its cache."""
        key = func.fullname
        if key in self._signatures:
            return self._signatures[key]
        module = self._module_of(func)
        if module is None:
            return []
        stored = module.names.get(_key(func))
        if stored is not None:
            written = get_proper_type(stored.type)
            found = (
                list(written.items)
                if isinstance(written, Overloaded)
                else [written]
                if isinstance(written, CallableType)
                else []
            )
        elif not func.body.body or key in self._in_progress:
            return []  # a module from the cache (bodies are not cached), or recursion
        else:
            self._in_progress.add(key)
            try:
                found = infer_signatures(func, checker)
            finally:
                self._in_progress.discard(key)
        self._signatures[key] = found
        return found

    def store(self, module: MypyFile, checker: TypeChecker) -> None:
        """Write the inferred signatures of the module's functions into its symbol table,
        before mypy caches it."""
        for func in _functions(module):
            if not self._eligible(func):
                continue
            found = self.signatures(func, checker)
            if found:
                var = Var(_key(func), found[0] if len(found) == 1 else Overloaded(found))
                var._fullname = f"{module.fullname}.{_key(func)}"  # pyright: ignore[reportPrivateUsage]
                module.names[_key(func)] = SymbolTableNode(
                    GDEF, var, module_public=False, module_hidden=True, plugin_generated=True
                )


def _own(path: str) -> bool:
    """A module of the project's: not an installed package's.  (A module on the search path,
    such as the project root that ``check`` puts there, counts as the project's.)"""
    parts = Path(os.path.abspath(path)).parts
    return "site-packages" not in parts and "dist-packages" not in parts


def _fits(signature: CallableType, ctx: CallContext, checker: TypeChecker) -> bool:
    """Whether the call's arguments are what the inference assumed of the parameters: a
    literal string where it assumed LiteralString, a subtype of the type it assumed."""
    if len(ctx.arg_types) != len(signature.arg_types):
        return False  # a method called through its class, `self` passed: not judged
    literals: Literalness | None = None
    for assumed, types, exprs in zip(signature.arg_types, ctx.arg_types, ctx.args):
        if isinstance(get_proper_type(assumed), AnyType):
            continue
        if is_marked(assumed):
            if literals is None:
                literals = Literalness(
                    checker.lookup_type_or_none, source_facts(checker.tree.path, checker.options)
                )
            scope = checker.scope.top_level_function() or checker.tree
            if not all(literals.is_literal(e, scope) for e in exprs):
                return False
        elif not all(known(t) and is_subtype(t, assumed) for t in types):
            # `arg("q", 5)` where `default=""` was taken as str; an argument of type Any
            # may be anything.
            return False
    return True


def _key(func: FuncDef) -> str:
    return f"{KEY} {func.fullname}"


def _plain_decorators(node: Decorator) -> bool:
    """Only ``staticmethod`` or ``classmethod``: the call's type is the function's."""
    return all(
        isinstance(d, NameExpr) and d.fullname in ("builtins.staticmethod", "builtins.classmethod")
        for d in node.decorators
    )


def _functions(module: MypyFile) -> Iterator[FuncDef]:
    """The module's functions and the methods of its classes (not nested in functions)."""
    stack: list[Node] = list(module.defs)
    while stack:
        node = stack.pop()
        if isinstance(node, Decorator) and _plain_decorators(node):
            yield node.func
        elif isinstance(node, FuncDef):
            yield node
        elif isinstance(node, Block) or type(node).__name__ in ("ClassDef", "IfStmt"):
            stack.extend(children(node, statements_only=True))


__all__ = ["KEY", "Returns"]
