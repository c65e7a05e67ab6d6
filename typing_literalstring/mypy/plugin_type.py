"""The mypy ``Plugin`` subclass: which hooks the plugin installs, and where they lead.

mypy asks its plugins in order and uses the first hook a plugin returns, so every getter here
returns None except where the plugin must act, and the hooks it returns call the hook of the next
plugin that has one first.  The getters also note the ``TypeChecker`` of the module being
checked (mypy's global ``checker_state``): the post-pass, which mypy triggers through
``get_additional_indirect_deps`` once the module is fully checked, needs it.
"""

from __future__ import annotations

import functools
import gc
import hashlib
import sys
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Dict, Optional, Tuple, TypeVar, Union

from mypy.checker import TypeChecker
from mypy.checker_state import checker_state
from mypy.nodes import Expression, FuncDef, MypyFile, TypeAlias, TypeInfo
from mypy.options import Options
from mypy.plugin import (
    AnalyzeTypeContext,
    AttributeContext,
    ChainedPlugin,
    FunctionContext,
    FunctionSigContext,
    MethodContext,
    MethodSigContext,
    Plugin,
    ReportConfigContext,
)
from mypy.typeanal import TypeAnalyser
from mypy.types import CallableType, FunctionLike, Overloaded, Type, get_proper_type

from typing_literalstring import __version__
from typing_literalstring.mypy.marker import (
    ALIAS,
    LITERAL_STRING,
    LITERAL_STRING_NAMES,
    PLUGIN_FAILURE,
    literal_string,
    remember_alias,
    requires_literal,
)
from typing_literalstring.mypy.settings import SettingsError, read_settings

if TYPE_CHECKING:
    from typing_literalstring.mypy.literal_types import TypeLookup
    from typing_literalstring.mypy.returns import Returns

# The modules that check are imported when mypy first checks a module, not when it starts: a
# run that takes every module from its cache (a warm `check` of an unchanged project) checks
# none, and importing them cost a fifth of what mypy itself took on such a run.

_STR_PREFIX = "builtins.str."
SigContext = TypeVar("SigContext", FunctionSigContext, MethodSigContext)
CallContext = Union[FunctionContext, MethodContext]
Hook = Callable[..., object]
_HookCache = Dict[Tuple[str, str], Optional[Hook]]


def _no_types(_: Expression) -> Type | None:
    """No type map: literal strings are told by their syntax and by names already marked."""
    return None


# The package whose code judges: the plugin and the modules it imports.
_PACKAGE = Path(__file__).resolve().parent.parent


@functools.lru_cache(maxsize=None)
def source_digest(package: Path) -> str:
    """A digest of the package's Python code, read once per run (about 1 MB)."""
    digest = hashlib.sha256()
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


class LiteralStringPlugin(Plugin):
    def __init__(self, options: Options) -> None:
        super().__init__(options)
        if options.fine_grained_incremental:
            # dmypy rechecks only what changed, through paths that never call the post-pass:
            # the plugin's errors would vanish after an edit elsewhere, with nothing said.
            print(
                "error: typing_literalstring.mypy does not run under dmypy or with "
                "--fine-grained-incremental: its errors would disappear after a change in "
                "another module. Run mypy itself (`mypy .`) for LiteralString checks",
                file=sys.stderr,
            )
            raise SystemExit(2)
        try:
            self.settings = read_settings(options.config_file)
        except SettingsError as error:
            print(f"error: typing_literalstring.mypy: {error}", file=sys.stderr)
            raise SystemExit(2) from None
        self._checkers: dict[str, TypeChecker] = {}
        self._next_hooks: _HookCache = {}
        self._overloads: dict[str, bool] = {}
        self._constants_marked: set[str] = set()
        self._inferred: Returns | None = None
        # mypy asks for this once per module it loads, cached ones too: made once.
        self._config_data: dict[str, object] = {
            **self.settings.as_json(),
            "typing_literalstring": f"{__version__}+{source_digest(_PACKAGE)}",
        }

    def report_config_data(self, ctx: ReportConfigContext) -> dict[str, object]:
        """The settings, our version and a digest of our code go into mypy's cache metadata:
        changing one rechecks every module (mypy hashes only the plugin's entry module, not
        the modules that judge; a checkout changes the code under one version).

        mypy also calls this just before it writes a checked module to its cache
        (``is_check`` False): the module's literal constants are marked then, so that the
        cache holds them."""
        if not ctx.is_check:
            self._before_caching(ctx.id)
        return self._config_data

    # -- LiteralString becomes the marker -----------------------------------------------------
    def get_type_analyze_hook(self, fullname: str) -> Callable[[AnalyzeTypeContext], Type] | None:
        return analyze_literal_string if fullname in LITERAL_STRING_NAMES else None

    # -- the module's checker, for the post-pass ---------------------------------------------
    def _note_checker(self) -> None:
        checker = checker_state.type_checker
        if isinstance(checker, TypeChecker):
            self._checkers[checker.tree.fullname] = checker

    def get_function_hook(self, fullname: str) -> Callable[[FunctionContext], Type] | None:
        self._note_checker()
        from typing_literalstring.mypy.reveal import probe_function, reveal_note

        if probe_function(fullname) == "reveal":
            return reveal_note
        return self._inferred_return("get_function_hook", fullname, method=False)

    # -- the project's unannotated functions (setting infer_return_types) ----------------------
    @property
    def _returns(self) -> Returns | None:
        """The return types inferred in this run, when the setting asks for them."""
        if self._inferred is None and self.settings.infer_return_types:
            from typing_literalstring.mypy.returns import Returns

            self._inferred = Returns(self.lookup_fully_qualified, lambda: self._modules or {})
        return self._inferred

    def _inferred_return(
        self, getter: str, fullname: str, method: bool
    ) -> Callable[[CallContext], Type] | None:
        returns = self._returns
        func = returns.function(fullname, method) if returns is not None else None
        return None if func is None else partial(self._inferred_call, getter, fullname, func)

    def _inferred_call(self, getter: str, fullname: str, func: FuncDef, ctx: CallContext) -> Type:
        following = self._next_hook(ctx.api, getter, fullname)
        if following is not None:
            returned = following(ctx)  # a plugin listed after ours knows this call better
            return returned if isinstance(returned, Type) else ctx.default_return_type
        returns = self._returns
        assert returns is not None
        self._find_alias()  # a function returning only literals returns LiteralString
        return returns.call_type(func, ctx)

    def get_attribute_hook(self, fullname: str) -> Callable[[AttributeContext], Type] | None:
        self._note_checker()
        return None

    def get_additional_indirect_deps(self, file: MypyFile) -> set[str]:
        """Called by mypy once ``file`` is fully checked: the post-pass runs here."""
        if file.is_stub:
            self._checkers.pop(file.fullname, None)
            return set()
        # Marking a literal constant needs the alias node.  When every module that writes
        # LiteralString came from the cache (a rerun after editing only this module), no type
        # analysis met it, and `TABLE = "users"` stayed `str`: a false error at its uses.
        self._find_alias()
        checker = self._checkers.pop(file.fullname, None)
        if checker is None:
            from typing_literalstring.mypy.checks import needs_check

            if not needs_check(file):
                # Nothing to report here, but its literal constants matter to its importers.
                self._mark_constants(file, _no_types)
                return set()
            checker = _checker_of(file)
        if checker is None:
            # Never stop checking silently.
            raise RuntimeError(f"typing_literalstring.mypy found no type checker for {file.path}")
        if checker.can_skip_diagnostics:
            self._mark_constants(file, _no_types)
            return set()
        try:
            from typing_literalstring.mypy.checks import ModuleCheck

            self._mark_constants(file, _type_map(checker))
            ModuleCheck(checker, file, self.settings).run()
        except Exception as error:  # report, never crash mypy or stop checking silently
            checker.fail(
                f"typing_literalstring.mypy could not check this module ({type(error).__name__}: "
                f"{error}); its LiteralString errors are unknown: please report this",
                file,
                code=PLUGIN_FAILURE,
            )
        return set()

    # -- literal constants, marked once ---------------------------------------------------
    def _before_caching(self, module: str) -> None:
        """mypy writes a module to its cache once its top level is checked, before its
        functions are and before the post-pass: mark its constants now, or the cache would
        hold them as ``str``, and a module checked again on a later run would see
        ``from consts import TABLE`` as non-literal where the first run saw it literal."""
        file = (self._modules or {}).get(module)
        if file is None or file.is_stub:
            return
        checker = self._checkers.get(module)
        noted = checker is not None and checker.tree is file
        self._mark_constants(
            file, _type_map(checker) if checker is not None and noted else _no_types
        )
        returns = self._returns
        if returns is not None:
            # The inferred return types go into the cache with the module (returns.py).
            if checker is None or not noted:
                checker = _checker_of(file)
            if checker is not None:
                self._find_alias()
                returns.store(file, checker)

    def _mark_constants(self, file: MypyFile, types: TypeLookup) -> None:
        """Mark the module's literal constants (``constants.py``), once per run: whether
        before caching or in the post-pass, what the importers see is what the cache holds.
        By PEP 675's inference only, as in pyright: an idiom literal only in fact
        (``in_fact.py``) is judged where it is used, in its own module."""
        if file.fullname in self._constants_marked:
            return
        self._constants_marked.add(file.fullname)
        self._find_alias()
        from typing_literalstring.mypy.constants import mark_literal_constants
        from typing_literalstring.mypy.literals import Literalness

        mark_literal_constants(file, Literalness(types))

    # -- Appendix C: str methods keep literal strings literal ---------------------------------
    def get_method_hook(self, fullname: str) -> Callable[[MethodContext], Type] | None:
        self._note_checker()
        from typing_literalstring.mypy.literal_types import STR_METHODS

        if fullname.startswith(_STR_PREFIX) and fullname[len(_STR_PREFIX) :] in STR_METHODS:
            return partial(self._str_method, fullname)
        return self._inferred_return("get_method_hook", fullname, method=True)

    def _str_method(self, fullname: str, ctx: MethodContext) -> Type:
        following = self._next_hook(ctx.api, "get_method_hook", fullname)
        if following is not None:
            returned = following(ctx)
            if isinstance(returned, Type):
                ctx = ctx._replace(default_return_type=returned)
        self._find_alias()
        from typing_literalstring.mypy.hooks import str_method_result

        return str_method_result(fullname[len(_STR_PREFIX) :], ctx)

    def _find_alias(self) -> None:
        """Where every annotated module came from the cache, no type analysis saw the alias."""
        for name in LITERAL_STRING_NAMES:
            if ALIAS.node is not None:
                return
            symbol = self.lookup_fully_qualified(name)
            if symbol is not None and isinstance(symbol.node, TypeAlias):
                remember_alias(symbol.node)

    # -- overloads with LiteralString items ---------------------------------------------------
    def get_function_signature_hook(
        self, fullname: str
    ) -> Callable[[FunctionSigContext], FunctionLike] | None:
        self._note_checker()
        if self._has_literal_overloads(fullname, method=False):
            return partial(self._signature, "get_function_signature_hook", fullname)
        return None

    def get_method_signature_hook(
        self, fullname: str
    ) -> Callable[[MethodSigContext], FunctionLike] | None:
        self._note_checker()
        if self._has_literal_overloads(fullname, method=True):
            return partial(self._signature, "get_method_signature_hook", fullname)
        return None

    def _signature(self, getter: str, fullname: str, ctx: SigContext) -> FunctionLike:
        following = self._next_hook(ctx.api, getter, fullname)
        if following is not None:
            signature = following(ctx)
            if not isinstance(signature, CallableType):
                return signature if isinstance(signature, FunctionLike) else ctx.default_signature
            ctx = ctx._replace(default_signature=signature)
        from typing_literalstring.mypy.hooks import literal_overload_filter

        return literal_overload_filter(ctx, self.settings.disallow_any)

    def _has_literal_overloads(self, fullname: str, method: bool) -> bool:
        """Is ``fullname`` overloaded, with an item that takes LiteralString?"""
        found = self._overloads.get(fullname)
        if found is None:
            node: object = None
            if method and "." in fullname:
                owner, name = fullname.rsplit(".", 1)
                symbol = self.lookup_fully_qualified(owner)
                if symbol is not None and isinstance(symbol.node, TypeInfo):
                    member = symbol.node.get(name)
                    node = member.node if member is not None else None
            else:
                symbol = self.lookup_fully_qualified(fullname)
                node = symbol.node if symbol is not None else None
                if isinstance(node, TypeInfo):  # a constructor call
                    member = node.get("__init__") or node.get("__new__")
                    node = member.node if member is not None else None
            written = getattr(node, "type", None)
            declared = get_proper_type(written) if isinstance(written, Type) else None
            found = self._overloads[fullname] = isinstance(declared, Overloaded) and any(
                requires_literal(t) for item in declared.items for t in item.arg_types
            )
        return found

    # -- chaining to the plugins listed after this one ----------------------------------------
    def _next_hook(self, api: object, getter: str, fullname: str) -> Hook | None:
        key = (getter, fullname)
        if key not in self._next_hooks:
            chain = getattr(api, "plugin", None)
            plugins: list[Plugin] = (
                list(chain._plugins)  # pyright: ignore[reportPrivateUsage]
                if isinstance(chain, ChainedPlugin)
                else []
            )
            start = next((i + 1 for i, p in enumerate(plugins) if p is self), len(plugins))
            hook: Hook | None = None
            for later in plugins[start:]:
                hook = getattr(later, getter)(fullname)
                if hook is not None:
                    break
            self._next_hooks[key] = hook
        return self._next_hooks[key]


def _type_map(checker: TypeChecker) -> TypeLookup:
    return checker._type_maps[0].get  # pyright: ignore[reportPrivateUsage]


def _checker_of(file: MypyFile) -> TypeChecker | None:
    """The checker of a module that called none of the hook getters (no call, no attribute):
    found among the objects that refer to its tree (slow, so only as a fallback)."""
    for referrer in gc.get_referrers(file):
        if isinstance(referrer, TypeChecker) and referrer.tree is file:
            return referrer
    return None


def analyze_literal_string(ctx: AnalyzeTypeContext) -> Type:
    """``LiteralString`` in an annotation -> the marker (``str`` for mypy itself)."""
    api = ctx.api
    if ctx.type.args:
        api.fail("LiteralString does not accept type arguments", ctx.context, code=LITERAL_STRING)
    if ALIAS.node is None and isinstance(api, TypeAnalyser):
        symbol = api.lookup_qualified(ctx.type.name, ctx.context)
        if symbol is not None and isinstance(symbol.node, TypeAlias):
            remember_alias(symbol.node)
    return literal_string(ctx.type.line, ctx.type.column) or api.named_type("builtins.str", [])
