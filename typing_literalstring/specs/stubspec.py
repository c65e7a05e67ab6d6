"""Stub specifications: our own statement of which parameters of a stdlib stub to tighten.

A specification is a small ``.pyi`` file laid out like typeshed (``stubs/stdlib/sqlite3/
__init__.pyi`` speaks of typeshed's ``stdlib/sqlite3/__init__.pyi``; a third-party
distribution's will sit in ``stubs/<distribution>/``).  Each function in it names a
function (or, inside a class, a method) of the base stub, and each annotated parameter gives
that parameter its new type, in every overload and every ``sys.version_info`` branch::

    class Cursor:
        def execute(self, sql: LiteralString): ...

Two decorators make the new types conditional:

``@when_shell``
    Only when the call runs a shell: each base signature is split in two overloads, one with
    ``shell: Literal[False]`` keeping the base types, one with ``shell: bool`` and the new types.
``@when_args``
    Only when formatting arguments follow the parameter (``logger.info(msg, *args)``): one
    overload without ``*args`` keeps the base types, one with at least one argument takes the
    new types.  The ``strict`` profile ignores the condition and always applies the new types.

``@replaced``
    The specification's whole definition replaces the base's, its decorators included: for
    a method whose decorator is typed ``Callable[..., T]``, which erases every parameter
    (aiosqlite's ``Connection.execute``).  It names the base module's own types.
``@added`` (on a class)
    The class is added to the tightened module as written, after its imports: a protocol
    that the annotations name, which the base defines under another name in each release.
    A ``TypeVar`` assigned at the module level is added so too.
``@added`` (on a method)
    The method is added to the base's class as written: one that exists at run time but
    not in the base's text (asyncpg's pooled-connection proxy gets Connection's methods from
    its metaclass).  A base that defines it already is refused.
``@if_overridden``
    The method may be absent from the base class: a release where the class inherits it
    from a base in another module, which a specification of its own tightens (django-stubs
    4.2's ``DjangoTemplates`` inherits ``BaseEngine.from_string``; 5.x overrides it).
``@where_base(name="annotation")``
    Only the overloads whose base annotates parameter ``name`` exactly so (django-stubs'
    ``mark_safe`` has a ``str`` overload to tighten beside ``SafeData`` and callable ones);
    ``"A or B"`` for the annotation each release writes (``_StrOrPromise`` in 5.x, ``Any``
    in 4.2).

The file's own imports (other than from this package) are added to the tightened module.
"""

from __future__ import annotations

import ast
import re
import textwrap
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TypeVar

from typing_literalstring.core.errors import SpecError

_F = TypeVar("_F", bound=Callable[..., object])
_C = TypeVar("_C", bound=type)

ALWAYS = "always"
SHELL = "shell"
ARGS = "args"
REPLACE = "replace"
ADD = "add"
# The conditions whose definition is written whole in the specification.
WRITTEN = (REPLACE, ADD)


def added(cls: _C) -> _C:
    """Marks a class of a specification that is added to the tightened module as written."""
    return cls


def _is_type_variable(node: ast.Assign) -> bool:
    value = node.value
    return (
        len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "TypeVar"
    )


def _decorated_added(node: ast.ClassDef) -> bool:
    return any(isinstance(d, ast.Name) and d.id == added.__name__ for d in node.decorator_list)


def if_overridden(func: _F) -> _F:
    """Marks a method that releases of the base may inherit instead of defining."""
    return func


def replaced(func: _F) -> _F:
    """Marks a specification function whose whole definition replaces the base's, decorators
    and all: for a method a decorator's ``Callable[..., T]`` erases (aiosqlite's)."""
    return func


def when_shell(func: _F) -> _F:
    """Marks a specification function whose new types apply only with ``shell=True``."""
    return func


def when_args(func: _F) -> _F:
    """Marks a specification function whose new types apply only with formatting arguments."""
    return func


def where_base(**annotations: str) -> Callable[[_F], _F]:
    """Marks a specification function that applies only to the overloads whose base annotates
    each named parameter with exactly the given text."""

    def mark(func: _F) -> _F:
        return func

    del annotations
    return mark


_CONDITIONS = {
    when_shell.__name__: SHELL,
    when_args.__name__: ARGS,
    replaced.__name__: REPLACE,
    added.__name__: ADD,
}


@dataclass(frozen=True)
class Retype:
    """Give parameter ``name`` the annotation ``annotation`` (source text).  A parameter the
    specification makes positional-only (before ``/``) is found by ``position`` among the
    base's positional parameters, whatever the base calls it: MarkupSafe 2.x names
    ``Markup.__new__``'s first parameter ``base``, 3.x ``object``."""

    name: str
    annotation: str
    position: int | None = None


@dataclass(frozen=True)
class FunctionSpec:
    owner: str | None  # the class that holds the method, or None for a module-level function
    name: str
    retypes: tuple[Retype, ...]
    condition: str  # ALWAYS, SHELL or ARGS
    line: int  # where the specification says it, for error messages
    # @where_base: (parameter, base annotation) pairs an overload must have to be tightened.
    where_base: tuple[tuple[str, str], ...] = ()
    # @replaced: the definition, as the specification writes it, without that decorator.
    replacement: str = ""
    # @if_overridden: a base without the definition is no error (it inherits it).
    optional: bool = False

    @property
    def qualname(self) -> str:
        return f"{self.owner}.{self.name}" if self.owner else self.name


@dataclass(frozen=True)
class Import:
    module: str
    name: str


@dataclass(frozen=True)
class ModuleSpec:
    target: str  # the stub's path relative to typeshed's stdlib/, e.g. "sqlite3/__init__.pyi"
    source: Path  # the specification file
    imports: tuple[Import, ...]
    functions: tuple[FunctionSpec, ...]
    # Classes the specification adds to the tightened module as written (``@added``): a
    # protocol its annotations need that the base defines under another name in each release.
    added: tuple[str, ...] = ()

    @property
    def package(self) -> str:
        """The top-level entry of stdlib/ that the overlay must carry whole."""
        return self.target.split("/", 1)[0]


# The folder of the standard library's specifications, as in typeshed.
STDLIB = "stdlib"


def specs_dir() -> Path:
    """Where the specifications are: inside an installed wheel, or in the source checkout."""
    here = Path(__file__).resolve().parents[1]  # the package: specs/ is one of its folders
    packaged = here / "_stubs"
    if packaged.is_dir():
        return packaged
    checkout = here.parent / "stubs"
    if checkout.is_dir() and (here.parent / "pyproject.toml").is_file():
        return checkout
    raise SpecError(
        f"the stub specifications are missing (looked in {packaged} and {checkout}): "
        "reinstall typing-literalstring"
    )


def load_specs(directory: Path | None = None) -> list[ModuleSpec]:
    """Every specification under ``directory`` (default: the standard library's), in a stable
    order."""
    root = directory if directory is not None else specs_dir() / STDLIB
    specs = [parse_spec(path, path.relative_to(root).as_posix()) for path in root.rglob("*.pyi")]
    if not specs:
        raise SpecError(f"no stub specifications (*.pyi) in {root}: reinstall typing-literalstring")
    return sorted(specs, key=lambda spec: spec.target)


class _Text:
    """A specification's text, split into lines once: ``ast.get_source_segment`` splits the
    whole text again for each node, and the specifications are read on every start."""

    def __init__(self, source: str) -> None:
        self.ended: list[str] = re.findall(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$", source)
        self.lines = source.splitlines()

    def segment(self, node: ast.AST) -> str | None:
        """The node's text, as ``ast.get_source_segment`` gives it."""
        first: int | None = getattr(node, "lineno", None)
        last: int | None = getattr(node, "end_lineno", None)
        start: int | None = getattr(node, "col_offset", None)
        end: int | None = getattr(node, "end_col_offset", None)
        if first is None or last is None or start is None or end is None:
            return None
        if first == last:
            return self.ended[first - 1].encode()[start:end].decode()
        head = self.ended[first - 1].encode()[start:].decode()
        tail = self.ended[last - 1].encode()[:end].decode()
        return "".join([head, *self.ended[first : last - 1], tail])


def parse_spec(path: Path, target: str) -> ModuleSpec:
    source = path.read_text(encoding="utf-8")
    text = _Text(source)
    try:
        tree = ast.parse(source, filename=str(path))
    except SyntaxError as error:
        raise SpecError(f"{path}:{error.lineno}: the specification is not valid Python") from error
    imports: list[Import] = []
    functions: list[FunctionSpec] = []
    added: list[str] = []
    for node in tree.body:
        if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            if node.module.split(".")[0] != "typing_literalstring":
                imports.extend(Import(node.module, alias.name) for alias in node.names)
        elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            functions.append(_function_spec(path, text, node, owner=None))
        elif isinstance(node, ast.Assign) and _is_type_variable(node):
            # A type variable the replaced definitions need: added as written.
            segment = text.segment(node)
            if segment is None:  # pragma: no cover - ast always has positions for parsed source
                raise SpecError(f"{path}:{node.lineno}: cannot read the assignment")
            added.append(segment)
        elif isinstance(node, ast.ClassDef) and _decorated_added(node):
            segment = text.segment(node)
            if segment is None:  # pragma: no cover - ast always has positions for parsed source
                raise SpecError(f"{path}:{node.lineno}: cannot read the class")
            added.append(segment)
        elif isinstance(node, ast.ClassDef):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    functions.append(_function_spec(path, text, item, owner=node.name))
                elif not _is_docstring_or_ellipsis(item):
                    raise SpecError(f"{path}:{item.lineno}: only methods may stand in a class")
        elif not _is_docstring_or_ellipsis(node):
            raise SpecError(
                f"{path}:{node.lineno}: a specification holds only `from ... import` lines, "
                "functions and classes of methods"
            )
    if not functions:
        raise SpecError(f"{path}: the specification tightens nothing")
    return ModuleSpec(target, path, tuple(imports), tuple(functions), tuple(added))


def all_parameters(node: ast.FunctionDef | ast.AsyncFunctionDef) -> list[ast.arg]:
    """Every parameter of a definition, in order (``*args`` and ``**kwargs`` included)."""
    arguments = node.args
    return [
        *arguments.posonlyargs,
        *arguments.args,
        *([arguments.vararg] if arguments.vararg else []),
        *arguments.kwonlyargs,
        *([arguments.kwarg] if arguments.kwarg else []),
    ]


def _is_docstring_or_ellipsis(node: ast.stmt) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)


def _function_spec(
    path: Path, source: _Text, node: ast.FunctionDef | ast.AsyncFunctionDef, owner: str | None
) -> FunctionSpec:
    condition = ALWAYS
    optional = False
    where: list[tuple[str, str]] = []
    for decorator in node.decorator_list:
        if (
            isinstance(decorator, ast.Call)
            and isinstance(decorator.func, ast.Name)
            and decorator.func.id == where_base.__name__
            and not decorator.args
            and all(
                k.arg and isinstance(k.value, ast.Constant) and isinstance(k.value.value, str)
                for k in decorator.keywords
            )
        ):
            where.extend(
                (str(k.arg), str(getattr(k.value, "value", ""))) for k in decorator.keywords
            )
            continue
        name = decorator.id if isinstance(decorator, ast.Name) else None
        if name == "overload":
            continue  # kept in a @replaced definition's text
        if name == if_overridden.__name__:
            optional = True
            continue
        if name not in _CONDITIONS:
            raise SpecError(
                f"{path}:{decorator.lineno}: unknown decorator; use "
                f"{' or '.join('@' + n for n in [*_CONDITIONS, if_overridden.__name__])} or "
                f'@{where_base.__name__}(parameter="base annotation")'
            )
        condition = _CONDITIONS[name]
    retypes: list[Retype] = []
    positional_only = [a.arg for a in node.args.posonlyargs]
    for argument in all_parameters(node):
        if argument.annotation is None:
            continue
        text = source.segment(argument.annotation)
        if text is None:  # pragma: no cover - ast always has positions for parsed source
            raise SpecError(f"{path}:{argument.lineno}: cannot read the annotation")
        position = positional_only.index(argument.arg) if argument.arg in positional_only else None
        if condition in WRITTEN and not re.search(r"\bLiteralString\b", text):
            continue  # the replacement writes every type; only these are tightened
        retypes.append(Retype(argument.arg, text, position))
    if not retypes and condition not in WRITTEN:
        raise SpecError(f"{path}:{node.lineno}: {node.name} annotates no parameter")
    if condition == ADD and owner is None:
        raise SpecError(f"{path}:{node.lineno}: only a method may be @added (to its class)")
    replacement = ""
    if condition in WRITTEN:
        # The definition with its decorators but @replaced or @added (an @overload stays).
        first = min([node.lineno, *(d.lineno for d in node.decorator_list)])
        lines = [
            line
            for number, line in enumerate(source.lines[first - 1 : node.end_lineno], first)
            if not any(
                d.lineno == number
                and isinstance(d, ast.Name)
                and d.id in (replaced.__name__, added.__name__)
                for d in node.decorator_list
            )
        ]
        replacement = "\n".join(textwrap.dedent("\n".join(lines)).splitlines())
    return FunctionSpec(
        owner,
        node.name,
        tuple(retypes),
        condition,
        node.lineno,
        tuple(where),
        replacement,
        optional,
    )
