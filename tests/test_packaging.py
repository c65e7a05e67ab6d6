"""The sdist and the wheel carry what users and checkers need."""

from __future__ import annotations

import tarfile
import zipfile
from email.parser import Parser
from pathlib import Path

STUBS = Path(__file__).resolve().parent.parent / "stubs"
RULE_PAGES = Path(__file__).resolve().parent.parent / "docs" / "rules"


def _wheel_names(wheel: Path) -> list[str]:
    with zipfile.ZipFile(wheel) as archive:
        return archive.namelist()


def _sdist_names(sdist: Path) -> list[str]:
    with tarfile.open(sdist) as archive:
        return [name.split("/", 1)[1] for name in archive.getnames() if "/" in name]


def test_wheel_has_py_typed_and_stub_specs(dists: dict[str, Path]) -> None:
    names = _wheel_names(dists["wheel"])
    assert "typing_literalstring/py.typed" in names
    assert "typing_literalstring/__init__.py" in names
    packaged = {n.split("/_stubs/", 1)[1] for n in names if n.endswith(".pyi") and "/_stubs/" in n}
    shipped = {p.relative_to(STUBS).as_posix() for p in STUBS.rglob("*.pyi")}
    assert packaged == shipped


def test_wheel_declares_only_typing_extensions(dists: dict[str, Path]) -> None:
    with zipfile.ZipFile(dists["wheel"]) as archive:
        (metadata_name,) = [n for n in archive.namelist() if n.endswith(".dist-info/METADATA")]
        metadata = Parser().parsestr(archive.read(metadata_name).decode())
    requires = [
        r.replace("'", '"') for r in metadata.get_all("Requires-Dist") or [] if "extra ==" not in r
    ]
    assert requires == ['typing-extensions>=4.1.0; python_version < "3.11"']
    assert metadata["Requires-Python"] == ">=3.8"


def test_sdist_has_sources_py_typed_and_stub_specs(dists: dict[str, Path]) -> None:
    names = _sdist_names(dists["sdist"])
    assert "typing_literalstring/py.typed" in names
    assert "pyproject.toml" in names
    assert any(name.startswith("stubs/") for name in names), names


def test_wheel_and_sdist_carry_the_rule_pages(dists: dict[str, Path]) -> None:
    """`typing-literalstring rule` and the SARIF help read the pages from the package
    (report/rule_pages.py), and a wheel built from the sdist needs them in it."""
    pages = {p.name for p in RULE_PAGES.glob("LS*.md")}
    assert len(pages) >= 12
    in_wheel = {
        n.split("/_rules/", 1)[1]
        for n in _wheel_names(dists["wheel"])
        if n.startswith("typing_literalstring/_rules/")
    }
    assert pages <= in_wheel
    sdist = _sdist_names(dists["sdist"])
    assert {f"docs/rules/{page}" for page in pages} <= set(sdist)
    assert "docs/schema/check-output.schema.json" in sdist
