"""Find the CPython interpreters the runtime tests run on, and make fresh venvs for them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SUPPORTED = ["3.8", "3.9", "3.10", "3.11", "3.12", "3.13", "3.14"]


def _pyenv_root() -> Path | None:
    root = os.environ.get("PYENV_ROOT")
    if root:
        return Path(root)
    pyenv = shutil.which("pyenv")
    if pyenv is not None:
        proc = subprocess.run([pyenv, "root"], capture_output=True, text=True, check=False)
        if proc.returncode == 0 and proc.stdout.strip():
            return Path(proc.stdout.strip())
    default = Path.home() / ".pyenv"
    return default if default.is_dir() else None


def _reports_version(python: Path, version: str) -> bool:
    proc = subprocess.run(
        [str(python), "-c", "import sys; print('%d.%d' % sys.version_info[:2])"],
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode == 0 and proc.stdout.strip() == version


def find_interpreters() -> dict[str, Path | None]:
    """Map each supported X.Y to a CPython of that version, or None when there is none here."""
    found: dict[str, Path | None] = {}
    root = _pyenv_root()
    for version in SUPPORTED:
        candidates: list[Path] = []
        if sys.version_info[:2] == tuple(int(p) for p in version.split(".")):
            candidates.append(Path(sys.executable))
        if root is not None:
            for install in sorted((root / "versions").glob(version + ".*"), reverse=True):
                candidates.append(install / "bin" / "python3")
        on_path = shutil.which("python" + version)
        if on_path is not None:
            candidates.append(Path(on_path))
        found[version] = next(
            (c for c in candidates if c.is_file() and _reports_version(c, version)), None
        )
    return found


def make_venv(python: Path, where: Path) -> Path:
    """A fresh virtual environment made by ``python``; returns its interpreter."""
    subprocess.run([str(python), "-m", "venv", str(where)], check=True, capture_output=True)
    return where / "bin" / "python"


def pip_install(venv_python: Path, *requirements: str) -> None:
    proc = subprocess.run(
        [
            str(venv_python),
            "-m",
            "pip",
            "install",
            "--quiet",
            "--disable-pip-version-check",
            *requirements,
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    if proc.returncode != 0:
        raise AssertionError(f"pip install {' '.join(requirements)} failed:\n{proc.stderr}")
