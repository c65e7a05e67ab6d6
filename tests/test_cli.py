"""The command line: exit statuses and messages."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS, base
from typing_literalstring.commands import EXIT_ERROR, EXIT_OK
from typing_literalstring.commands.cli import main


def test_stubs_builds_an_overlay(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    assert main(["stubs", "--checker", "pyright", "--out", str(tmp_path / "o")]) == EXIT_OK
    assert (tmp_path / "o" / "sqlite3" / "__init__.pyi").is_file()
    assert "tightened sqlite3/__init__.pyi" in capsys.readouterr().out


def test_stubs_for_ty_and_pyrefly_come_from_pyrights_typeshed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    donor = CHECKERS["pyright"].typeshed_dir()
    assert main(["stubs", "--checker", "ty", "--out", str(tmp_path / "ty")]) == EXIT_OK
    assert f"overlay for ty from {donor} in" in capsys.readouterr().out
    assert main(["stubs", "--checker", "pyrefly", "--out", str(tmp_path / "pyrefly")]) == EXIT_OK
    assert "full overlay for pyrefly" in capsys.readouterr().out
    assert (tmp_path / "pyrefly" / "stdlib" / "VERSIONS").is_file()


def test_stubs_without_any_typeshed_says_what_to_install(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    def nothing_installed(name: str) -> None:
        return None

    monkeypatch.setattr(base, "find_spec", nothing_installed)
    assert main(["stubs", "--checker", "ty", "--out", str(tmp_path / "o")]) == EXIT_ERROR
    error = capsys.readouterr().err
    assert "ty has no typeshed files of its own" in error
    assert "pip install pyright[nodejs]" in error
    assert not (tmp_path / "o").exists()


def test_module_entry_point_and_version() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "typing_literalstring", "--version"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    assert proc.stdout.startswith("typing-literalstring ")


def test_pre_commit_hook_manifest_is_valid() -> None:
    manifest = Path(__file__).resolve().parent.parent / ".pre-commit-hooks.yaml"
    pre_commit = Path(sys.executable).parent / "pre-commit"
    if not pre_commit.is_file():
        pytest.skip("pre-commit is not installed")
    proc = subprocess.run(
        [str(pre_commit), "validate-manifest", str(manifest)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr
    assert "entry: typing-literalstring check" in manifest.read_text()


def test_stubs_into_an_unwritable_folder(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    if not CHECKERS["pyright"].is_installed():
        pytest.skip("pyright is not installed")
    blocker = tmp_path / "a-file"
    blocker.write_text("not a folder")
    assert main(["stubs", "--out", str(blocker / "overlay")]) == EXIT_ERROR
    assert f"cannot write the overlay to {blocker / 'overlay'}" in capsys.readouterr().err


def test_a_crash_exits_2_not_1_which_means_findings(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """A CI step that tolerates findings (exit 1) must not take a crash for a result."""

    def crash(args: object) -> int:
        raise MemoryError("no room")

    monkeypatch.setattr("typing_literalstring.commands.check.command", crash)
    assert main(["check", "x.py"]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert "Traceback" in err
    assert "error: internal error (MemoryError: no room); nothing was checked" in err


def test_an_error_naming_a_file_of_the_project_cannot_drive_the_terminal(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.chdir(tmp_path)
    name = "evil\x1b]0;owned\x07.py"
    assert main(["check", "--checker", "pyright", name]) == EXIT_ERROR
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert "\x07" not in err
    assert "evil\\u001b]0;owned\\u0007.py" in err


EXITS = """\
import sys
from typing_literalstring.commands.entry import _exit
sys.stdout.write("x" * int(sys.argv[1]))
sys.stderr.write("said\\n")
_exit(3)
"""


def test_the_command_exits_without_teardown_and_nothing_it_wrote_is_lost() -> None:
    """The command ends with os._exit (tearing the interpreter down cost 0.15 s of a check):
    what it wrote, still in the buffers, is flushed first, and its status is kept; a reader
    that went away early (a closed pipe) changes neither."""
    done = subprocess.run(
        [sys.executable, "-c", EXITS, "200000"], capture_output=True, text=True, check=False
    )
    assert (done.returncode, len(done.stdout), done.stderr) == (3, 200_000, "said\n")
    # Buffered, and less than a buffer: the write succeeds, the flush at the exit finds no
    # reader.
    buffered = {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}
    closed = subprocess.Popen(
        [sys.executable, "-c", EXITS, "1000"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        env=buffered,
    )
    assert closed.stdout is not None
    assert closed.stderr is not None
    closed.stdout.close()  # the reader is gone before the command writes
    assert closed.wait(timeout=60) == 3
    assert closed.stderr.read() == b"said\n"
