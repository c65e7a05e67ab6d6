"""The specification language and the text edits, on small stubs written for the test."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path

import pytest

from typing_literalstring.core.errors import SpecError
from typing_literalstring.specs.stubspec import (
    ALWAYS,
    ARGS,
    SHELL,
    ModuleSpec,
    load_specs,
    parse_spec,
)
from typing_literalstring.specs.tighten import tighten_module


def _spec(tmp_path: Path, text: str, target: str = "mod.pyi") -> ModuleSpec:
    path = tmp_path / "spec.pyi"
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return parse_spec(path, target)


BASE = textwrap.dedent(
    """\
    import sys
    from typing import Any, overload

    class Conn:
        def execute(self, sql: str, params: Any = ..., /) -> int: ...  # keep this comment
        def other(self, sql: str) -> None: ...

    if sys.version_info >= (3, 11):
        def run(args: str, bufsize: int = -1, shell: bool = False, *, text: bool) -> int: ...
    else:
        @overload
        def run(args: str, shell: bool = False) -> int: ...
        @overload
        def run(args: bytes, shell: bool = False) -> str: ...

    def info(
        msg: object,
        *args: object,
        extra: int | None = None,
    ) -> None: ...
    """
)


def test_retype_changes_only_the_named_parameter(tmp_path: Path) -> None:
    spec = _spec(
        tmp_path,
        """\
        from typing_extensions import LiteralString

        class Conn:
            def execute(self, sql: LiteralString): ...
        """,
    )
    out = tighten_module(BASE, spec, "default")
    assert "def execute(self, sql: LiteralString, params: Any = ..., /) -> int: ...  # keep" in out
    assert "def other(self, sql: str) -> None: ..." in out
    assert "from typing_extensions import LiteralString\n" in out
    # Nothing else moved: removing the two changes gives the base back.
    restored = out.replace("from typing_extensions import LiteralString\n", "", 1).replace(
        "sql: LiteralString, params", "sql: str, params"
    )
    assert restored == BASE


def test_when_shell_splits_every_definition_in_every_branch(tmp_path: Path) -> None:
    spec = _spec(
        tmp_path,
        """\
        from typing_extensions import LiteralString
        from typing_literalstring.specs.stubspec import when_shell

        @when_shell
        def run(args: LiteralString): ...
        """,
    )
    out = tighten_module(BASE, spec, "default")
    assert out.count("def run(") == 6
    assert out.count("shell: Literal[False] = False") == 3
    assert out.count("args: LiteralString") == 3
    assert "    @overload\n    def run(args: str, bufsize: int = -1, shell: Literal[False]" in out
    assert "from typing import Literal\n" in out
    # overload was imported already: not imported twice.
    assert "from typing import overload\n" not in out
    compile(out, "out.pyi", "exec")


def test_when_args_splits_by_formatting_arguments(tmp_path: Path) -> None:
    spec = _spec(
        tmp_path,
        """\
        from typing_extensions import LiteralString
        from typing_literalstring.specs.stubspec import when_args

        @when_args
        def info(msg: LiteralString): ...
        """,
    )
    out = tighten_module(BASE, spec, "default")
    without, with_args = out.split("def info(")[1:]
    assert "msg: object,\n    *,\n    extra" in without
    assert "msg: LiteralString,\n    arg: object,\n    /,\n    *args: object," in with_args
    strict = tighten_module(BASE, spec, "strict")
    assert strict.count("def info(") == 1
    assert "msg: LiteralString,\n    *args: object," in strict


@pytest.mark.parametrize(
    ("spec_text", "message"),
    [
        ("def missing(x: int): ...\n", "missing is not defined in the base mod.pyi"),
        ("class Conn:\n    def gone(self, x: int): ...\n", "Conn.gone is not defined"),
        ("class Conn:\n    def execute(self, query: int): ...\n", "no parameter 'query'"),
        (
            "from typing_literalstring.specs.stubspec import when_shell\n"
            "@when_shell\ndef info(msg: int): ...\n",
            "no annotated `shell` parameter",
        ),
        ("from os import Any\nclass Conn:\n    def execute(self, sql: Any): ...\n", "binds 'Any'"),
    ],
)
def test_a_specification_that_no_longer_matches_fails_loudly(
    tmp_path: Path, spec_text: str, message: str
) -> None:
    with pytest.raises(SpecError, match=message):
        tighten_module(BASE, _spec(tmp_path, spec_text), "default")


def test_an_unannotated_base_parameter_gets_the_annotation(tmp_path: Path) -> None:
    """types-mysqlclient leaves `BaseCursor.execute(self, query, args=None)` unannotated; the
    specification's type is added after the name, and nothing else moves."""
    base = "class BaseCursor:\n    def execute(self, query, args=None): ...\n"
    spec = _spec(
        tmp_path,
        "from typing_extensions import LiteralString\n"
        "class BaseCursor:\n    def execute(self, query: LiteralString | bytes): ...\n",
    )
    out = tighten_module(base, spec, "default")
    assert "def execute(self, query: LiteralString | bytes, args=None): ..." in out


def test_unknown_decorator_and_empty_spec_are_refused(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="unknown decorator"):
        _spec(tmp_path, "@staticmethod\ndef f(x: int): ...\n")
    with pytest.raises(SpecError, match="tightens nothing"):
        _spec(tmp_path, "from typing import Any\n")


def test_the_shipped_specifications_parse() -> None:
    specs = {spec.target: spec for spec in load_specs()}
    assert sorted(specs) == [
        "asyncio/base_events.pyi",
        "asyncio/events.pyi",
        "asyncio/subprocess.pyi",
        "logging/__init__.pyi",
        "os/__init__.pyi",
        "sqlite3/__init__.pyi",
        "subprocess.pyi",
    ]
    conditions = {f.qualname: f.condition for spec in specs.values() for f in spec.functions}
    assert conditions["Cursor.execute"] == ALWAYS
    assert conditions["run"] == SHELL
    assert conditions["Popen.__init__"] == SHELL
    assert conditions["Logger.info"] == ARGS
    assert conditions["getoutput"] == ALWAYS


# Markup.__new__ as MarkupSafe 2.1.5 and 3.0.4 declare it (their signatures, in our words): the
# first parameter is `base` in one and `object` in the other, and so is the protocol's name.
MARKUPSAFE_2 = textwrap.dedent(
    """\
    import typing as t
    import typing_extensions as te

    class Markup(str):
        def __new__(
            cls, base: t.Any = "", encoding: t.Optional[str] = None, errors: str = "strict"
        ) -> "te.Self": ...
    """
)
MARKUPSAFE_3 = textwrap.dedent(
    """\
    import typing as t
    import typing_extensions as te

    class _HasHTML(t.Protocol):
        def __html__(self, /) -> str: ...

    class Markup(str):
        def __new__(
            cls, object: t.Any = "", encoding: str | None = None, errors: str = "strict"
        ) -> te.Self: ...
    """
)


@pytest.mark.parametrize("base", [MARKUPSAFE_2, MARKUPSAFE_3], ids=["2.1.5", "3.0.4"])
def test_a_positional_only_parameter_applies_to_every_release(base: str) -> None:
    """The shipped MarkupSafe specification tightens Markup's first parameter whatever a
    release names it, with a protocol of its own: before, 2.1.5 was "no longer applies"."""
    spec = next(
        s for s in load_specs(Path(__file__).parents[1] / "stubs" / "MarkupSafe")
        if s.target == "markupsafe/__init__.pyi"
    )  # fmt: skip
    tightened = tighten_module(base, spec, "default")
    first = "base" if base is MARKUPSAFE_2 else "object"
    assert f'cls, {first}: LiteralString | _TypingLiteralStringHasHTML = ""' in tightened
    assert "class _TypingLiteralStringHasHTML(Protocol):" in tightened
    assert "from typing import Protocol" in tightened
    compile(tightened, "markupsafe/__init__.pyi", "exec")


def test_an_added_class_may_not_shadow_the_base(tmp_path: Path) -> None:
    spec = _spec(
        tmp_path,
        """\
        from typing import Protocol
        @added
        class Conn(Protocol): ...
        class Conn:
            def other(self, sql: str): ...
        """,
    )
    with pytest.raises(SpecError, match="already defines 'Conn'"):
        tighten_module(BASE, spec, "default")


RELEASE_BASE = textwrap.dedent(
    """\
    from typing import Any, Generic, TypeVar, TypeAlias
    _T = TypeVar("_T")

    class BaseManager(Generic[_T]):
        def raw(self, raw_query: str) -> None: ...

    class Manager(BaseManager[_T]): ...

    class _QuerySet(Generic[_T]):
        def raw(self, raw_query: str) -> None: ...

    QuerySet: TypeAlias = _QuerySet[_T]

    class Engine(Any): ...
    """
)


def test_a_method_is_found_through_the_class_s_bases_and_aliases_of_the_release(
    tmp_path: Path,
) -> None:
    """django-stubs 4.2: `raw` on `BaseManager`, `QuerySet` an alias of `_QuerySet`."""
    spec = """\
        from typing_extensions import LiteralString
        class Manager:
            def raw(self, raw_query: LiteralString): ...
        class QuerySet:
            def raw(self, raw_query: LiteralString): ...
        """
    tightened = tighten_module(RELEASE_BASE, _spec(tmp_path, spec), "default")
    assert tightened.count("def raw(self, raw_query: LiteralString) -> None: ...") == 2


def test_only_a_method_marked_if_overridden_may_be_absent(tmp_path: Path) -> None:
    """`Engine` inherits from another module: absent is no error only when the specification
    says a release may inherit it; otherwise the missing method still fails loudly."""
    absent = """\
        from typing_extensions import LiteralString
        class Engine:
            def from_string(self, template_code: LiteralString): ...
        """
    with pytest.raises(SpecError, match=r"Engine\.from_string is not defined"):
        tighten_module(RELEASE_BASE, _spec(tmp_path, absent), "default")
    optional = absent.replace(
        "    def from_string", "    @if_overridden\n            def from_string"
    )
    assert "from_string" not in tighten_module(RELEASE_BASE, _spec(tmp_path, optional), "default")


PROXY_BASE = textwrap.dedent(
    """\
    from typing import Any

    class Proxy:
        def __getattr__(self, attr: str) -> Any: ...

    class Plain: ...
    """
)


def test_an_added_method_joins_its_class_and_may_not_shadow_the_base(tmp_path: Path) -> None:
    """asyncpg's pooled-connection proxy gets Connection's methods from its metaclass: the
    specification adds them to the class; one the base defines already is refused."""
    spec = """\
        from typing import Any
        from typing_extensions import LiteralString
        class Proxy:
            @added
            async def fetch(self, query: LiteralString, *args: Any) -> Any: ...
        """
    tightened = tighten_module(PROXY_BASE, _spec(tmp_path, spec), "default")
    assert (
        "    def __getattr__(self, attr: str) -> Any: ...\n"
        "    async def fetch(self, query: LiteralString, *args: Any) -> Any: ...\n"
    ) in tightened
    ast.parse(tightened)
    shadowing = spec.replace("async def fetch", "def __getattr__").replace("query", "attr")
    with pytest.raises(SpecError, match="defines it already"):
        tighten_module(PROXY_BASE, _spec(tmp_path, shadowing), "default")
    with pytest.raises(SpecError, match="on one line"):
        tighten_module(PROXY_BASE, _spec(tmp_path, spec.replace("Proxy", "Plain")), "default")
