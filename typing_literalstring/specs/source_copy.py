"""The base of an inline-typed package: its own modules, copied as they are.

A package that ships its own types (``py.typed``: SQLAlchemy, Jinja2, MarkupSafe) has no stub to
tighten.  Its tightened copy is its modules untouched, ``.py`` files and all, but for the
signatures our specification tightens (tighten.py): what a checker infers from a body (the
return type of a function without an annotation, the type of an attribute set in a method, a
module variable set through ``global``) stays what it infers from the installed package.

A copy made into stubs, bodies dropped, lost exactly that: pyright infers nothing from a stub's
body, so asyncpg's ``Connection.transaction()`` was Unknown there and a variable declared
``Transaction | None`` kept its ``None`` after ``tr = conn.transaction()`` ("start" is not a
known attribute of "None"); mypy reported 387 errors in 74 files of SQLAlchemy's stubs (an
overload's implementation in a stub, definitions in ``try``/``except``), none of them in the
package itself.
"""

from __future__ import annotations

from pathlib import Path

from typing_literalstring.core.safe_write import new_folder_mode

# What a checker reads of a package: its modules, stubs it ships beside them, its marker.
_READ = (".py", ".pyi", ".typed")


def copy_sources(package: Path, into: Path) -> None:
    """Every module of ``package`` (a folder), its stubs and its ``py.typed`` into ``into``,
    byte for byte (a module in a grammar newer than ours is copied too: only the modules a
    specification tightens are parsed)."""
    mode = new_folder_mode()
    into.mkdir(mode=mode, parents=True, exist_ok=True)
    for source in sorted(package.rglob("*")):
        if source.suffix not in _READ or "__pycache__" in source.parts or not source.is_file():
            continue
        target = into / source.relative_to(package)
        for folder in reversed(target.relative_to(into).parents):
            (into / folder).mkdir(mode=mode, exist_ok=True)
        target.write_bytes(source.read_bytes())


def module_file(copy: Path, target: str) -> Path:
    """The file of the copy that a specification of ``target`` (``pkg/mod.pyi``, written as
    typeshed names stubs) speaks of: the stub the package ships, else its module."""
    stub = copy / target.split("/", 1)[1]
    return stub if stub.is_file() else stub.with_suffix(".py")
