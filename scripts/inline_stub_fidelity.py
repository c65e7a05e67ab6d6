"""How faithfully the stubs made from inline-typed packages keep their types (thirdparty.py).

A tightened inline-typed package reaches the checker as a copy of its own modules
(source_copy.py).  pyright infers from a body what a function without a return annotation
returns, which a stub without bodies lost; the copy keeps the bodies.  This measures what is lost:
every public name of the package, and every public attribute of its public classes, is revealed
by pyright with the package as installed and with its untightened stub copy first on the search
path; the lines whose revealed type differs are listed.

    python scripts/inline_stub_fidelity.py              # every inline-typed package installed
    python scripts/inline_stub_fidelity.py jinja2 markupsafe
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Sequence

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

from typing_literalstring.checkers import CHECKERS  # noqa: E402
from typing_literalstring.specs import thirdparty  # noqa: E402
from typing_literalstring.specs.source_copy import copy_sources  # noqa: E402

# Run in the checked environment: the public names of a package, imported at run time.
_NAMES = """
import __future__, importlib, inspect, json, sys
module = importlib.import_module(sys.argv[1])
names = getattr(module, "__all__", [n for n in vars(module) if not n.startswith("_")])
found = []
for name in sorted(names):
    value = getattr(module, name, None)
    if value is None or inspect.ismodule(value) or isinstance(value, __future__._Feature):
        continue
    found.append(name)
    if inspect.isclass(value):
        found += [f"{name}.{a}" for a in sorted(vars(value)) if not a.startswith("_")]
print(json.dumps(found))
"""


@dataclass
class Fidelity:
    package: str
    probed: int = 0
    differing: list[tuple[str, str, str]] = field(default_factory=lambda: [])  # name, stock, stub


def inline_packages(python: Path) -> list[str]:
    """The packages we have specifications for that are installed with inline types."""
    sites = thirdparty.site_packages(python)
    return sorted(
        spec.package
        for specs in thirdparty.specifications().values()
        for spec in {s.package: s for s in specs}.values()
        if any((site / spec.package / "py.typed").is_file() for site in sites)
        and not any((site / f"{spec.package}-stubs").is_dir() for site in sites)
    )


def _public_names(python: Path, package: str) -> list[str]:
    done = subprocess.run(
        [str(python), "-c", _NAMES, package], capture_output=True, text=True, check=True
    )
    names: list[str] = json.loads(done.stdout)
    return names


def _revealed(probe: Path, python: Path, extra: Path | None, work: Path) -> dict[int, str]:
    config: dict[str, object] = {"pythonVersion": f"{sys.version_info[0]}.{sys.version_info[1]}"}
    if extra is not None:
        config["extraPaths"] = [str(extra)]
    (work / "pyrightconfig.json").write_text(json.dumps(config), encoding="utf-8")
    done = subprocess.run(
        [*CHECKERS["pyright"].executable(), "--outputjson", "--pythonpath", str(python),
         str(probe)],
        capture_output=True, text=True, cwd=work, check=False,
    )  # fmt: skip
    report = json.loads(done.stdout)
    return {
        d["range"]["start"]["line"] + 1: d["message"]
        for d in report["generalDiagnostics"]
        if d["file"] == str(probe)
    }


def measure(python: Path, package: str) -> Fidelity:
    site = next(s for s in thirdparty.site_packages(python) if (s / package).is_dir())
    names = _public_names(python, package)
    with tempfile.TemporaryDirectory(prefix="tls-fidelity-") as tmp:
        work = Path(tmp)
        copy = work / "copy"
        copy_sources(site / package, copy / package)
        probe = work / "probe.py"
        lines = [f"import {package}", *(f"reveal_type({package}.{n})" for n in names)]
        probe.write_text("\n".join(lines) + "\n", encoding="utf-8")
        stock = _revealed(probe, python, None, work)
        stub = _revealed(probe, python, copy, work)
    fidelity = Fidelity(package, len(names))
    for number, name in enumerate(names, 2):
        if stock.get(number) != stub.get(number):
            fidelity.differing.append((name, stock.get(number, ""), stub.get(number, "")))
    return fidelity


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("packages", nargs="*", help="default: every inline-typed one installed")
    parser.add_argument("--python", default=sys.executable, help="the checked environment")
    args = parser.parse_args(argv)
    python = Path(args.python)
    for package in args.packages or inline_packages(python):
        fidelity = measure(python, package)
        print(
            f"{package}: {fidelity.probed} public names and class attributes, "
            f"{len(fidelity.differing)} revealed differently by pyright through the stubs"
        )
        for name, stock, stub in fidelity.differing:
            print(f"  {name}\n    installed: {stock}\n    stub:      {stub}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
