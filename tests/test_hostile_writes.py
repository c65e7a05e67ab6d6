"""`init` and `check --write-baseline` on a repository we do not trust (issue 25): nothing is
written, replaced or deleted through a symbolic link that leads out of the project, a refusal
changes nothing on disk, and what is written keeps or gets the modes a user expects."""

from __future__ import annotations

import os
import stat
import sys
from pathlib import Path
from typing import Iterator

import pytest

from typing_literalstring.analysis.findings import CheckResult
from typing_literalstring.checkers import CHECKERS
from typing_literalstring.commands import EXIT_ERROR, EXIT_OK
from typing_literalstring.commands.cli import main
from typing_literalstring.commands.init import init
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.report import baseline

PYPROJECT = '[project]\nname = "demo"  # keep me\n'
STUBS = Path(".typing-literalstring", "stubs")

# What a refusal must say: the link, where it points, and the fix.
REFUSED = ("is a symbolic link to", "outside the project", "Remove the link")

needs_modes = pytest.mark.skipif(sys.platform == "win32", reason="POSIX file modes")


def _installed(name: str = "pyright") -> None:
    if not CHECKERS[name].is_installed():
        pytest.skip(f"{name} is not installed")


@pytest.fixture(scope="module")
def cache(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """One cache for the module: the third-party copies an init builds are built once."""
    return tmp_path_factory.mktemp("cache")


@pytest.fixture
def umask_022() -> Iterator[None]:
    previous = os.umask(0o022)
    try:
        yield
    finally:
        os.umask(previous)


@pytest.fixture
def project(tmp_path: Path) -> Path:
    root = tmp_path.resolve() / "proj"  # resolved: messages name real paths
    root.mkdir()
    (root / "pyproject.toml").write_text(PYPROJECT)
    return root


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    folder = tmp_path.resolve() / "outside"
    folder.mkdir()
    return folder


def _link(link: Path, to: Path) -> None:
    try:
        link.symlink_to(to, target_is_directory=to.is_dir())
    except (OSError, NotImplementedError) as error:  # Windows without the privilege
        pytest.skip(f"cannot create symbolic links here: {error}")


def _init(project: Path, cache: Path, *args: str) -> int:
    return main(["init", "--project", str(project), "--cache-dir", str(cache), *args])


def _snapshot(root: Path) -> dict[str, tuple[int, int, str]]:
    """Every entry under ``root`` (links not followed): its mode, mtime and link text."""
    state: dict[str, tuple[int, int, str]] = {}
    for folder, folders, files in os.walk(root):
        for name in [".", *folders, *files]:
            path = Path(folder, name)
            status = path.lstat()
            text = os.readlink(path) if path.is_symlink() else ""
            state[str(path.relative_to(root))] = (status.st_mode, status.st_mtime_ns, text)
    return state


def _mode(path: Path) -> int:
    return stat.S_IMODE(path.stat().st_mode)


def test_init_refuses_a_generated_folder_that_links_outside(
    project: Path, outside: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed()
    link = project / ".typing-literalstring"
    _link(link, outside)
    assert _init(project, cache) == EXIT_ERROR
    err = capsys.readouterr().err
    assert all(part in err for part in REFUSED), err
    assert f"{link} is a symbolic link to {outside}" in err
    assert list(outside.iterdir()) == []
    assert link.is_symlink()
    assert (project / "pyproject.toml").read_text() == PYPROJECT


def test_init_refuses_a_dir_option_folder_that_links_outside(
    project: Path, outside: Path, cache: Path
) -> None:
    _installed()
    _link(project / ".tools", outside)
    with pytest.raises(TypingLiteralStringError, match="Remove the link") as refused:
        init(project, [CHECKERS["pyright"]], folder=".tools/stubs", cache_dir=cache)
    assert str(project / ".tools") in str(refused.value)
    assert list(outside.iterdir()) == []
    assert (project / "pyproject.toml").read_text() == PYPROJECT


def test_init_refuses_a_stubs_folder_that_links_outside_and_deletes_nothing_there(
    project: Path, outside: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed()
    (outside / "pyright").mkdir()
    kept = outside / "pyright" / "mine.pyi"
    kept.write_text("x: int\n")
    (project / ".typing-literalstring").mkdir()
    link = project / STUBS
    _link(link, outside)
    assert _init(project, cache) == EXIT_ERROR
    err = capsys.readouterr().err
    assert all(part in err for part in REFUSED), err
    assert f"{link} is a symbolic link to" in err
    assert kept.read_text() == "x: int\n"
    assert sorted(p.name for p in outside.rglob("*")) == ["mine.pyi", "pyright"]


def test_init_refuses_a_pyproject_that_links_outside(
    project: Path, outside: Path, cache: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    _installed()
    shared = outside / "pyproject.toml"
    shared.write_text(PYPROJECT)
    pyproject = project / "pyproject.toml"
    pyproject.unlink()
    _link(pyproject, shared)
    assert _init(project, cache) == EXIT_ERROR
    err = capsys.readouterr().err
    assert all(part in err for part in REFUSED), err
    assert f"{pyproject} is a symbolic link to" in err
    assert pyproject.is_symlink()
    assert shared.read_text() == PYPROJECT
    assert not (project / ".typing-literalstring").exists()  # checked before the overlays


def test_a_refusal_changes_nothing_anywhere(tmp_path: Path, project: Path, outside: Path) -> None:
    """The second checker's overlay folder is a link out: the first's, pyproject.toml and the
    third-party cache are not written either."""
    _installed("pyright")
    _installed("mypy")
    (outside / "keep.pyi").write_text("x: int\n")
    (project / STUBS).mkdir(parents=True)
    _link(project / STUBS / "mypy", outside)
    cache = tmp_path / "fresh-cache"
    before = _snapshot(tmp_path)
    assert _init(project, cache, "--checker", "pyright", "--checker", "mypy") == EXIT_ERROR
    assert _snapshot(tmp_path) == before
    assert not cache.exists()


def test_init_follows_a_pyproject_link_that_stays_inside(project: Path, cache: Path) -> None:
    _installed()
    real = project / "config" / "pyproject.toml"
    real.parent.mkdir()
    (project / "pyproject.toml").rename(real)
    _link(project / "pyproject.toml", Path("config", "pyproject.toml"))
    assert _init(project, cache) == EXIT_OK
    assert (project / "pyproject.toml").is_symlink()
    assert 'stubPath = ".typing-literalstring/stubs/pyright"' in real.read_text()


@needs_modes
@pytest.mark.parametrize("mode", [0o644, 0o664])
def test_init_keeps_the_mode_of_pyproject(
    project: Path, cache: Path, umask_022: None, mode: int
) -> None:
    _installed()
    pyproject = project / "pyproject.toml"
    pyproject.chmod(mode)
    assert _init(project, cache) == EXIT_OK
    assert "stubPath" in pyproject.read_text()
    assert not pyproject.is_symlink()
    assert oct(_mode(pyproject)) == oct(mode)
    assert [p.name for p in project.iterdir() if p.name.startswith(".pyproject")] == []


@needs_modes
def test_new_overlay_folders_and_files_get_the_umask_modes(
    tmp_path: Path, cache: Path, umask_022: None
) -> None:
    _installed()
    project = tmp_path / "bare"
    project.mkdir()
    assert _init(project, cache) == EXIT_OK
    overlay = project / STUBS / "pyright"
    folders = [project / ".typing-literalstring", project / STUBS, overlay]
    folders += [p for p in overlay.rglob("*") if p.is_dir()]
    assert {str(p.relative_to(project)): oct(_mode(p)) for p in folders if _mode(p) != 0o755} == {}
    files = [p for p in overlay.rglob("*") if p.is_file()]
    assert {str(p.relative_to(project)): oct(_mode(p)) for p in files if _mode(p) != 0o644} == {}
    assert oct(_mode(project / "pyproject.toml")) == oct(0o644)  # created: 0666 less the umask


def _record(project: Path, path: Path) -> int:
    """Write the baseline the way `check --write-baseline` does (cli.py calls record)."""
    result = CheckResult(checker="pyright", checker_version="1", profile="default", project=project)
    return baseline.record(result, path)


@needs_modes
@pytest.mark.parametrize("mode", [0o644, 0o664])
def test_the_baseline_keeps_its_mode(project: Path, umask_022: None, mode: int) -> None:
    path = project / baseline.DEFAULT
    path.parent.mkdir()
    baseline.write(path, [], [], "pyright")
    path.chmod(mode)
    assert _record(project, path) == 0
    assert oct(_mode(path)) == oct(mode)


@needs_modes
def test_a_new_baseline_gets_the_umask_mode(project: Path, umask_022: None) -> None:
    path = project / baseline.DEFAULT
    assert _record(project, path) == 0
    assert oct(_mode(path)) == oct(0o644)
    assert oct(_mode(path.parent)) == oct(0o755)
    assert [p.name for p in path.parent.iterdir()] == ["baseline.json"]


def test_the_baseline_is_not_written_through_a_link_out_of_the_project(
    project: Path, outside: Path
) -> None:
    link = project / ".typing-literalstring"
    _link(link, outside)
    before = _snapshot(outside.parent)
    with pytest.raises(TypingLiteralStringError) as refused:
        _record(project, project / baseline.DEFAULT)
    message = str(refused.value)
    assert all(part in message for part in REFUSED), message
    assert f"{link} is a symbolic link to" in message
    assert _snapshot(outside.parent) == before
