"""The backport at run time, on every CPython 3.8 and newer that this machine has.

Each interpreter gets a fresh venv holding only the built wheel and what it declares, so a
missing dependency or a file left out of the wheel fails here, not on a user's machine.
"""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from tests.interpreters import SUPPORTED, make_venv, pip_install

PROBE = Path(__file__).parent / "data" / "runtime_probe.py"
EXPECTED_CHECKS = {
    "identity",
    "all_exports",
    "typevar_bound",
    "typing_list",
    "builtin_list",
    "get_type_hints",
    "get_type_hints_string_annotation",
    "isinstance_raises",
    "issubclass_raises",
    "call_raises",
    "subclass_raises",
    "copy_keeps_identity",
    "pickle_keeps_identity",
    "repr_names_the_form",
    "sql_helpers_resist_injection",
    "shell_helpers_resist_injection",
}


@pytest.mark.parametrize("version", SUPPORTED)
def test_backport_at_runtime(
    version: str,
    interpreters: dict[str, Path | None],
    dists: dict[str, Path],
    tmp_path: Path,
) -> None:
    python = interpreters[version]
    if python is None:
        pytest.skip(f"no CPython {version} on this machine (looked in pyenv and on PATH)")
    venv_python = make_venv(python, tmp_path / "venv")
    pip_install(venv_python, str(dists["wheel"]))
    proc = subprocess.run(
        [str(venv_python), "-I", str(PROBE)], capture_output=True, text=True, check=False
    )
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["python"].startswith(version + ".")
    results: dict[str, str] = report["results"]
    assert set(results) == EXPECTED_CHECKS
    failures = {name: detail for name, detail in results.items() if detail != "ok"}
    assert not failures, "\n".join(f"{name}: {detail}" for name, detail in failures.items())


def test_only_declared_dependencies(
    interpreters: dict[str, Path | None], dists: dict[str, Path], tmp_path: Path
) -> None:
    """On 3.8 the wheel pulls in typing_extensions and nothing else."""
    python = interpreters["3.8"] or interpreters["3.9"] or interpreters["3.10"]
    if python is None:
        pytest.skip("no CPython 3.8, 3.9 or 3.10 here to install the dependency on")
    venv_python = make_venv(python, tmp_path / "venv")
    pip_install(venv_python, str(dists["wheel"]))
    proc = subprocess.run(
        [str(venv_python), "-m", "pip", "list", "--format=json", "--disable-pip-version-check"],
        capture_output=True,
        text=True,
        check=True,
    )
    installed = {item["name"].lower().replace("_", "-") for item in json.loads(proc.stdout)}
    added = installed - {"pip", "setuptools", "wheel"}
    assert added == {"typing-literalstring", "typing-extensions"}
