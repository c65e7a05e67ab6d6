"""Check that a check served from the kept probed copies says what a check that made them says.

``analysis/probe_cache.py`` keeps the probed copies of the last check of a project (pickled) and
takes them again when nothing they are made from changed.  Pickling loses what the analysis
keys by ``id()`` and by ``is``, so a miss there would change verdicts silently.  For each
project this runs ``typing-literalstring check --format json`` three times with each checker:
the slot removed first (the copies made), then twice more (the copies taken from the slot),
and compares the three outputs byte for byte.  Prints one line per project and checker and
exits 1 on any difference or failed run.

Run: ``.venv/bin/python scripts/probe_cache_fidelity.py --checkers pyright,mypy
PROJECT_FOLDER[=PYTHON] ...`` (``PYTHON``: the interpreter whose packages the project uses).
"""

from __future__ import annotations

import argparse
import difflib
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Sequence


def _check(folder: Path, checker: str, cache: Path, python: str | None) -> tuple[str, float]:
    command = [sys.executable, "-m", "typing_literalstring", "check", "--format", "json"]
    command += ["--checker", checker, "--cache-dir", str(cache)]
    command += ["--python", python] if python else []
    began = time.perf_counter()
    done = subprocess.run(
        [*command, "."], cwd=folder, capture_output=True, text=True, check=False, timeout=1800
    )
    seconds = time.perf_counter() - began
    if done.returncode not in (0, 1):
        raise RuntimeError(f"exit {done.returncode}: {done.stderr.strip()[-600:]}")
    return done.stdout, seconds


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("projects", nargs="+", help="FOLDER or FOLDER=PYTHON")
    parser.add_argument("--checkers", default="pyright,mypy")
    parser.add_argument("--cache-dir", type=Path, default=None, help="default: a new folder")
    args = parser.parse_args(argv)
    cache = args.cache_dir or Path(tempfile.mkdtemp(prefix="tls-fidelity-"))
    failed = 0
    for spec in args.projects:
        folder_text, _, python = spec.partition("=")
        folder = Path(folder_text).resolve()
        for checker in args.checkers.split(","):
            try:
                shutil.rmtree(cache / "prepared", ignore_errors=True)
                made, cold = _check(folder, checker, cache, python or None)
                kept, warm = _check(folder, checker, cache, python or None)
                again, warm2 = _check(folder, checker, cache, python or None)
            except (RuntimeError, subprocess.TimeoutExpired) as error:
                print(f"FAILED {folder.name} {checker}: {error}")
                failed += 1
                continue
            same = made == kept == again
            failed += not same
            print(
                f"{'same' if same else 'DIFFERENT'} {folder.name} {checker}: "
                f"made {cold:.1f} s, kept {warm:.1f} s and {warm2:.1f} s"
            )
            if not same:
                other = kept if kept != made else again
                diff = difflib.unified_diff(made.splitlines(), other.splitlines(), lineterm="")
                print("\n".join(list(diff)[:40]))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
