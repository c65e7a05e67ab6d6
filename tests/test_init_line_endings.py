"""`init` keeps each file's line endings, byte order mark and final newline (issue 43, item 8):
a CRLF pyproject.toml written back with LF shows every line as changed."""

from __future__ import annotations

from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands import EXIT_OK
from typing_literalstring.commands.cli import main

PYPROJECT = (
    '# ours\n[project]\nname = "demo"\nversion = "0"\n\n'
    '[tool.pyright]\ntypeCheckingMode = "standard"  # keep\n\n[tool.ruff]\nline-length = 99\n'
)


def _init(project: Path, *checkers: str) -> None:
    for name in checkers:
        if not CHECKERS[name].is_installed():
            pytest.skip(f"{name} is not installed")
    args = ["init", "--project", str(project)]
    for name in checkers:
        args += ["--checker", name]
    assert main(args) == EXIT_OK


def _kept(before: bytes, after: bytes, ending: bytes) -> None:
    """Every line of ``before`` is in ``after`` in its order, byte for byte (its ending
    included), and every line ``after`` adds ends with ``ending``."""
    old = before.splitlines(keepends=True)
    new = after.splitlines(keepends=True)
    position = 0
    for line in old:
        position = new.index(line, position) + 1
    added = [line for line in new if line not in old and line.endswith(b"\n")]
    assert added, after
    assert all(line.endswith(ending) for line in added), after


@pytest.mark.parametrize("checkers", [("pyright",), ("pyright", "mypy", "ty")])
def test_a_crlf_pyproject_stays_crlf(tmp_path: Path, checkers: tuple[str, ...]) -> None:
    before = PYPROJECT.replace("\n", "\r\n").encode()
    (tmp_path / "pyproject.toml").write_bytes(before)
    _init(tmp_path, *checkers)
    after = (tmp_path / "pyproject.toml").read_bytes()
    assert b'stubPath = ".typing-literalstring/stubs/pyright"\r\n' in after
    assert after.count(b"\n") == after.count(b"\r\n"), after
    _kept(before, after, b"\r\n")
    _init(tmp_path, *checkers)  # and a second init changes nothing
    assert (tmp_path / "pyproject.toml").read_bytes() == after


def test_a_byte_order_mark_and_a_missing_final_newline_are_kept(tmp_path: Path) -> None:
    before = ("\ufeff" + PYPROJECT.rstrip("\n")).encode()
    (tmp_path / "pyproject.toml").write_bytes(before)
    _init(tmp_path, "pyright", "ty")  # ty's tables are new: they go at the end
    after = (tmp_path / "pyproject.toml").read_bytes()
    assert after.startswith(b"\xef\xbb\xbf# ours\n")
    assert b"extra-paths" in after
    assert not after.endswith(b"\n")
    assert b"\r" not in after


def test_mixed_line_endings_keep_their_own(tmp_path: Path) -> None:
    """Each line init leaves alone keeps its ending; new lines take the most common one."""
    lines = PYPROJECT.splitlines(keepends=True)
    before = "".join(
        line.replace("\n", "\r\n") if i % 3 else line for i, line in enumerate(lines)
    ).encode()
    (tmp_path / "pyproject.toml").write_bytes(before)
    _init(tmp_path, "pyright")
    after = (tmp_path / "pyproject.toml").read_bytes()
    _kept(before, after, b"\r\n")


def test_a_crlf_mypy_ini_and_pyrightconfig_stay_crlf(tmp_path: Path) -> None:
    ini = b"# team\r\n[mypy]\r\nwarn_unused_configs = True\r\nplugins =\r\n    a.b,\r\n    c.d\r\n"
    config = b'{\r\n  // team\r\n  "include": ["."],\r\n}\r\n'
    (tmp_path / "mypy.ini").write_bytes(ini)
    (tmp_path / "pyrightconfig.json").write_bytes(config)
    _init(tmp_path, "pyright", "mypy")
    # The last plugin's line gets a comma: every other line is as it was.
    unchanged = ini.replace(b"    c.d\r\n", b"")
    for name, before in (("mypy.ini", unchanged), ("pyrightconfig.json", config)):
        after = (tmp_path / name).read_bytes()
        assert after.count(b"\n") == after.count(b"\r\n"), after
        _kept(before, after, b"\r\n")
    assert b"    c.d,\r\n    typing_literalstring.mypy\r\n" in (tmp_path / "mypy.ini").read_bytes()
