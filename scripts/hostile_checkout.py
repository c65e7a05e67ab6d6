"""Hostile checkout: `check`, `init` and `doctor` on a booby-trapped copy of a real project.

Issue 25's acceptance: on real projects, with hostile files added, a listing of every file newer
than a marker taken before `check` and `init` shows nothing outside the project and the user
cache, and every pre-existing file keeps its mode.  This script proves it (or shows where not).

It copies a project folder (its .venv too, which `check` finds by itself) to a fresh temporary
folder, so it can be rerun, and adds hostile files to the copy:

* modules that shadow the stdlib and the checkers at the root (json, sysconfig, site,
  sitecustomize, os, typing, enum, re, subprocess, mypy, tomllib, encodings/), a .pth file, a
  conftest.py and a setup.py (prepended to the project's own): each writes a file into a marker
  folder outside the project if it is ever imported or run;
* sources that are hard to read, each with a real injection: PEP 701 f-strings and a PEP 695
  `type` alias (valid Python 3.12), a UTF-8 file with a BOM, a latin-1 file with a coding
  cookie, U+2028 inside a string, terminal escape sequences (raw ESC and BEL bytes) in a string;
* `.typing-literalstring`, the folder `init` writes, as a symlink to a folder outside the
  project (`init` must refuse it, exit 2, and write nothing); pyproject.toml, if any, mode 0664.

Then it runs, each from a fresh marker (a file touched just before the command):

    check --checker pyright .            from the project root
    check --checker pyright <abs path>   from a folder outside the project
    the same two with --checker mypy     the planted typing.py stops mypy, as it stops plain
                                         mypy: must refuse (exit 2) naming it
    init                                 with the hostile symlink: must refuse (exit 2)
    init                                 after the harness removes the symlink: must succeed
    doctor                               its mypy probe is stopped the same way (exit 2)
    issue 43, items 2 and 4              init with a pyrightconfig.json added: must write
                                         stubPath there; doctor once it holds none, and
                                         doctor with a sink loosened in the overlay: exit 2,
                                         naming the cause (issue43_steps)

With --cases input (on by default) it then runs the cases of issue 43, items 1, 3, 5 and 6
(scripts/hostile/input_cases.py), each with a table or folders planted for it alone: the
table's baseline leading out of the project (refused, nothing written), a folder that cannot be
listed (named, exit 2, every injection still found), a package named build beside build output
(checked; the output named, not reported), and tables that hide everything (exit 0, a warning,
what they hid counted).  Each case's output is judged: what it must say is a failure if missing.

After each command it lists every file whose mtime or ctime is newer than the marker (`find /
-xdev`, without /proc, /sys, /dev, /run) and classifies each: the project copy, the user cache
(where `check` keeps its overlays: $TYPING_LITERALSTRING_CACHE, else $XDG_CACHE_HOME or ~/.cache,
then typing-literalstring), the checkers' own caches (~/.cache/pyright-python, ~/.npm, ...), the
bytecode Python writes for the tool's own modules, parents of these folders, or OTHER.  Other
processes write on this machine too, so when strace is there each command runs under
`strace -f` and an OTHER file counts against the command only if its processes wrote it (or
changed the folder's entries); the rest is listed as concurrent activity for the reader to judge.
Without strace (or with --no-strace) every OTHER file counts.  It also prints each command's exit
status, finding count, the hostile injections found (and at which line), raw terminal control
bytes in its output, and its time (under strace: slower than normal).

Exit status: 0 when no marker appeared, every pre-existing file of the project keeps its mode
(and still exists), and nothing outside the project, the user cache and the checkers' caches was
written by the commands; 1 otherwise (also on warnings with --strict: unexpected exit statuses,
missed injections, raw control bytes in the output); 2 usage error.

    .venv/bin/python scripts/hostile_checkout.py /tmp/hostile_projects/src/litecli-1.17.1
    .venv/bin/python scripts/hostile_checkout.py PROJECT --checkers pyright --keep
    .venv/bin/python scripts/hostile_checkout.py PROJECT --command "/venv/bin/typing-literalstring"
    .venv/bin/python scripts/hostile_checkout.py PROJECT --fresh-cache --no-strace --full
    .venv/bin/python scripts/hostile_checkout.py PROJECT --cases input

The project is never imported or run by this script: only the commands under test read it.
This file is the entry point; the parts are in scripts/hostile/, one module per area.
"""

from __future__ import annotations

import argparse
import os
import shlex
import shutil
import stat
import sys
import tempfile
from pathlib import Path
from typing import Sequence

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

from scripts.hostile.init_cases import init_steps  # noqa: E402
from scripts.hostile.input_cases import input_steps  # noqa: E402
from scripts.hostile.model import SHADOWED_BY_TYPING, STATE, TOOL, Step, StepResult  # noqa: E402
from scripts.hostile.places import make_areas  # noqa: E402
from scripts.hostile.planting import SHADOWING, add_hostile_files, prepare, snapshot  # noqa: E402
from scripts.hostile.printing import print_step, print_summary  # noqa: E402
from scripts.hostile.steps import run_step  # noqa: E402
from scripts.strace_writes import strace_usable  # noqa: E402

# --- main -------------------------------------------------------------------------------------

# The groups of steps --cases chooses from.
CASES = {
    "writes": "check, init and doctor write nothing outside the project and run none of its code "
    "(issue 25)",
    "input": "what check reads of the checkout and what its table can hide (issue 43: 1, 3, 5, 6; "
    "scripts/hostile/input_cases.py)",
    "init": "init writes where each checker reads, doctor fails on a loosened overlay (issue 43: "
    "2, 4; scripts/hostile/init_cases.py)",
}


def parse_args(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0] if __doc__ else None,
        epilog="Prints one report per command and a summary; see the module docstring.",
    )
    parser.add_argument("project", type=Path, help="the project folder (with its .venv)")
    default_command = str(Path(sys.executable).parent / TOOL)
    parser.add_argument(
        "--command",
        default=default_command,
        help=f"the command under test, split like a shell would (default: {default_command})",
    )
    parser.add_argument(
        "--checkers",
        default="pyright,mypy",
        help="comma-separated checkers for `check` (default: pyright,mypy)",
    )
    parser.add_argument(
        "--python-version",
        default="3.12",
        help="passed to `check` (the grammar file is Python 3.12); '' passes none",
    )
    parser.add_argument(
        "--work-dir",
        type=Path,
        default=Path(tempfile.gettempdir()),
        help="where the temporary copy is made",
    )
    parser.add_argument(
        "--fresh-cache",
        action="store_true",
        help="an empty TYPING_LITERALSTRING_CACHE in the temporary folder (default: yours)",
    )
    parser.add_argument("--no-strace", action="store_true", help="do not attribute by strace")
    parser.add_argument("--timeout", type=float, default=1800.0, help="seconds per command")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder and logs")
    parser.add_argument("--full", action="store_true", help="list every file, not grouped")
    parser.add_argument(
        "--strict", action="store_true", help="warnings (exit statuses, misses) fail too"
    )
    parser.add_argument(
        "--cases",
        default=",".join(CASES),
        help="which cases to run, comma-separated: "
        + "; ".join(f"{name}: {what}" for name, what in CASES.items())
        + " (default: all)",
    )
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse_args(argv)
    source: Path = args.project.resolve()
    if not source.is_dir():
        sys.stderr.write(f"error: {source} is not a folder\n")
        return 2
    command = shlex.split(args.command)
    if not command or shutil.which(command[0]) is None:
        sys.stderr.write(f"error: cannot run {args.command!r}\n")
        return 2
    cases = {name.strip() for name in args.cases.split(",") if name.strip()}
    if not cases <= set(CASES):
        sys.stderr.write(f"error: --cases: unknown {', '.join(sorted(cases - set(CASES)))}\n")
        return 2
    strace = None if args.no_strace else shutil.which("strace")
    if strace is not None and not strace_usable(strace):
        sys.stderr.write("warning: strace cannot trace here: every OTHER file counts\n")
        strace = None

    layout = prepare(source, args.work_dir)
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("VIRTUAL_ENV", "PYTHONPATH", "PYTHONHOME", "PYTHONSTARTUP", "CONDA_PREFIX")
    }
    if args.fresh_cache:
        env["TYPING_LITERALSTRING_CACHE"] = str(layout.run / "user-cache")
    areas = make_areas(layout, env, command)
    injections = add_hostile_files(layout)
    project = layout.project
    pre = snapshot(project)
    version = ["--python-version", args.python_version] if args.python_version else []

    def remove_symlink() -> None:
        (project / STATE).unlink()
        pre.pop(STATE, None)

    steps: list[Step] = []
    for checker in [c.strip() for c in args.checkers.split(",") if c.strip()]:
        check = [*command, "check", "--checker", checker, *version]
        # mypy refuses a project whose root holds a typing.py (plain mypy too): the planted
        # one must stop it loudly, naming the file, never pass for a clean run.
        refused = checker == "mypy" and (project / "typing.py").exists()
        expect, say = ({2}, SHADOWED_BY_TYPING) if refused else ({1}, "")
        for where, cwd, target in (("root", project, "."), ("elsewhere", layout.elsewhere, "")):
            steps.append(
                Step(
                    f"check-{checker}-{where}",
                    [*check, target or str(project)],
                    cwd,
                    expect,
                    counts_findings=not refused,
                    must_say=say,
                )
            )
    steps.append(
        Step("init-symlink-refused", [*command, "init"], project, {2}, must_not_write_project=True)
    )
    steps.append(Step("init", [*command, "init"], project, {0}, before=remove_symlink))
    # doctor probes mypy with the project root as its working folder: the planted typing.py
    # stops that probe as it stops the team's own mypy, which doctor must report (exit 2).
    shadowed = (project / "typing.py").exists()
    steps.append(
        Step(
            "doctor",
            [*command, "doctor"],
            project,
            {2} if shadowed else {0},
            must_say=SHADOWED_BY_TYPING if shadowed else "",
        )
    )

    if "writes" not in cases:
        steps = []
    if "input" in cases:
        checkers = [c.strip() for c in args.checkers.split(",") if c.strip() != "mypy"]
        # pyright unless --checkers names another: the planted typing.py stops mypy.
        checker = checkers[0] if checkers else "pyright"
        steps += input_steps(command, checker, version, layout, len(injections))
    if "init" in cases:
        steps += init_steps(command, project)

    out = sys.stdout
    out.write(f"hostile checkout of {source}\n")
    out.write(f"  copy:        {project}\n")
    out.write(f"  command:     {shlex.join(command)}\n")
    out.write(f"  user cache:  {areas.user_cache}\n")
    out.write(f"  markers in:  {layout.markers}\n")
    out.write(f"  {STATE} -> {layout.outside} (until step init)\n")
    out.write(f"  strace:      {strace or 'no (every OTHER file counts)'}\n")
    out.write(f"  pre-existing entries in the copy: {len(pre)}\n")
    out.write(f"  hostile injections: {len(injections)}; shadowing modules: {len(SHADOWING)}\n")
    if (project / "pyproject.toml").exists():
        mode = stat.filemode((project / "pyproject.toml").stat().st_mode)
        out.write(f"  pyproject.toml mode: {mode}\n")
    else:
        out.write("  pyproject.toml: none (init creates it)\n")
    out.flush()

    results: list[StepResult] = []
    try:
        for number, step in enumerate(steps, 1):
            result = run_step(
                number, step, layout, areas, env, strace, args.timeout, pre, injections
            )
            results.append(result)
            print_step(number, result, areas, args.full)
    finally:
        if args.keep:
            out.write(f"\nkept {layout.run} (logs in {layout.harness})\n")
        else:
            shutil.rmtree(str(layout.run), ignore_errors=True)
    print_summary(results)
    failures = [f"{r.step.name}: {f}" for r in results for f in r.failures]
    warnings = [f"{r.step.name}: {w}" for r in results for w in r.warnings]
    for line in failures:
        out.write(f"FAIL {line}\n")
    for line in warnings:
        out.write(f"WARN {line}\n")
    failed = bool(failures) or (args.strict and bool(warnings))
    out.write(
        ("FAILED" if failed else "PASSED")
        + f": {len(failures)} failure(s), {len(warnings)} warning(s)\n"
    )
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
