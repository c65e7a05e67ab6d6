"""Overlays built from the checkers' own typesheds: complete, correct, deterministic, atomic."""

from __future__ import annotations

import filecmp
import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from typing_literalstring.checkers import CHECKERS, Checker
from typing_literalstring.core.errors import SpecError, TypingLiteralStringError
from typing_literalstring.specs.overlay import MANIFEST, build_overlay
from typing_literalstring.specs.stubspec import ALWAYS, FunctionSpec, ModuleSpec, load_specs

WITH_TYPESHED = [name for name, c in CHECKERS.items() if c.bundled_typeshed is not None]
MODULES = ["asyncio", "logging", "os", "sqlite3", "subprocess"]


def _checker(name: str) -> Checker:
    checker = CHECKERS[name]
    if not checker.is_installed():
        pytest.skip(f"{name} is not installed")
    return checker


def _tree(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("name", WITH_TYPESHED)
def test_specifications_match_each_bundled_typeshed(name: str, tmp_path: Path) -> None:
    checker = _checker(name)
    overlay = build_overlay(checker.typeshed_dir(), tmp_path / "overlay")
    assert sorted(p.name for p in overlay.root.iterdir()) == sorted(
        ["asyncio", "logging", "os", "sqlite3", "subprocess.pyi", MANIFEST]
    )
    base = checker.typeshed_dir() / "stdlib"
    for target in overlay.files:
        assert (overlay.root / target).read_text() != (base / target).read_text(), target
    # Untouched files of a copied package are the base's, byte for byte.
    assert filecmp.cmp(base / "logging" / "handlers.pyi", overlay.root / "logging" / "handlers.pyi")


def test_build_is_deterministic(tmp_path: Path) -> None:
    base = _checker("pyright").typeshed_dir()
    first = build_overlay(base, tmp_path / "a", profile="strict")
    second = build_overlay(base, tmp_path / "b", profile="strict")
    assert _tree(first.root) == _tree(second.root)
    manifest = json.loads((first.root / MANIFEST).read_text())
    assert manifest["profile"] == "strict"
    assert manifest["files"] == first.files


def test_failed_build_leaves_previous_overlay_and_no_debris(tmp_path: Path) -> None:
    base = _checker("pyright").typeshed_dir()
    out = tmp_path / "overlay"
    build_overlay(base, out)
    before = _tree(out)
    specs = load_specs()
    template = specs[0].functions[0]
    missing = FunctionSpec(None, "no_such_function", template.retypes, ALWAYS, 1)
    specs.append(ModuleSpec("subprocess.pyi", Path("renamed.pyi"), (), (missing,)))
    with pytest.raises(SpecError, match="no_such_function is not defined in the base"):
        build_overlay(base, out, specs=specs)
    assert _tree(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["overlay"]


def test_interrupted_copy_leaves_previous_overlay(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    base = _checker("pyright").typeshed_dir()
    out = tmp_path / "overlay"
    build_overlay(base, out)
    before = _tree(out)

    def fail(*args: object, **kwargs: object) -> None:
        raise OSError("disk full")

    monkeypatch.setattr(shutil, "copyfile", fail)
    with pytest.raises(
        TypingLiteralStringError, match=r"cannot write the overlay to .*\(disk full\)"
    ):
        build_overlay(base, out, profile="strict")
    assert _tree(out) == before
    assert sorted(p.name for p in tmp_path.iterdir()) == ["overlay"]


def test_not_a_typeshed_is_refused(tmp_path: Path) -> None:
    with pytest.raises(Exception, match="not a typeshed folder"):
        build_overlay(tmp_path, tmp_path / "out")
    assert not (tmp_path / "out").exists()


def _import_all(tmp_path: Path) -> Path:
    probe = tmp_path / "import_all.py"
    probe.write_text(
        "import asyncio, asyncio.base_events, logging, os, sqlite3, sqlite3.dbapi2, subprocess\n"
    )
    return probe


def _untightened_copy(base_stdlib: Path, out: Path) -> Path:
    """The base typeshed's copies of the modules an overlay replaces, untouched."""
    for spec in load_specs():
        source = base_stdlib / spec.package
        if source.is_dir():
            shutil.copytree(source, out / spec.package, dirs_exist_ok=True)
        else:
            out.mkdir(parents=True, exist_ok=True)
            shutil.copyfile(source, out / spec.package)
    return out


def _errors(checker: Checker, root: Path, files: list[Path], target: str, work: Path) -> list[str]:
    result = checker.run(files, python_version=target, overlay=root, workdir=work)
    prefix = str(root.resolve()) + "/"
    return sorted(
        f"{d.path.replace(prefix, '')}: {d.severity} [{d.code}] {d.message}"
        for d in result.diagnostics
    )


@pytest.mark.parametrize("profile", ["default", "strict"])
@pytest.mark.parametrize("name", ["mypy", "pyright", "basedpyright", "zuban"])
def test_overlay_files_add_no_errors(name: str, profile: str, tmp_path: Path) -> None:
    """Checked with the overlay, the stubs draw exactly the errors the untouched base draws.

    mypy checks stubs it finds on MYPYPATH (so importing them is enough); pyright,
    basedpyright and zuban check the stub files they are given.  (ty and pyrefly bundle no typeshed
    of their own: theirs are built from pyright's, checked here.)
    """
    checker = _checker(name)
    overlay = build_overlay(checker.typeshed_dir(), tmp_path / "overlay", profile=profile)
    base = _untightened_copy(checker.typeshed_dir() / "stdlib", tmp_path / "base")

    def files(root: Path) -> list[Path]:
        if name == "mypy":
            return [_import_all(tmp_path)]
        return [root / t for t in overlay.files]

    for target in (".".join(map(str, checker.oldest_target)), "3.14"):
        work = tmp_path / target
        expected = _errors(checker, base, files(base), target, work / "base")
        assert _errors(checker, overlay.root, files(overlay.root), target, work / "new") == expected

    # The same check sees an error planted in the overlay, so its agreement above means something
    # (a property of the check, not of the profile: shown once per checker, to spare CI 30 s).
    if profile != "default":
        return
    with (overlay.root / "subprocess.pyi").open("a") as stub:
        stub.write("def planted(x: NoSuchType) -> None: ...\n")
    planted = _errors(checker, overlay.root, files(overlay.root), "3.12", tmp_path / "planted")
    unplanted = _errors(checker, base, files(base), "3.12", tmp_path / "unplanted")
    added = sorted(set(planted) - set(unplanted))
    assert len(planted) == len(unplanted) + 1
    assert len(added) == 1
    assert added[0].startswith("subprocess.pyi: error")


def _stubtest(typeshed: Path | None, cwd: Path) -> list[str]:
    command = [sys.executable, "-m", "mypy.stubtest", *MODULES]
    if typeshed is not None:
        command[3:3] = ["--custom-typeshed-dir", str(typeshed)]
    proc = subprocess.run(command, capture_output=True, text=True, cwd=cwd, check=False)
    assert "not checking stubs" not in proc.stdout, proc.stdout
    return sorted(line for line in proc.stdout.splitlines() if line.startswith("error: "))


def test_stubtest_reports_nothing_new(tmp_path: Path) -> None:
    """stubtest compares the stubs with the running interpreter's modules."""
    checker = _checker("mypy")
    base = _stubtest(None, tmp_path)
    full = build_overlay(checker.typeshed_dir(), tmp_path / "full", layout="full")
    assert _stubtest(full.root, tmp_path) == base
    # And it does look at the replaced stubs: a wrong parameter name there is reported.
    stub = full.stdlib / "os" / "__init__.pyi"
    stub.write_text(stub.read_text().replace("def system(command:", "def system(cmdline:"))
    assert "error: os.system is inconsistent" in "\n".join(_stubtest(full.root, tmp_path))
