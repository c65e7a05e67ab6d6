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

The project is never imported or run by this script: only the commands under test read it.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Sequence, Tuple

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

from scripts.strace_writes import (  # noqa: E402
    parse_strace,
    strace_prefix,
    strace_usable,
)

TOOL = "typing-literalstring"
SHADOWED_BY_TYPING = 'typing.py: This file shadows library module "typing"'
STATE = ".typing-literalstring"  # the folder `init` writes in the project root

# Modules at the project root that shadow the stdlib or a checker, if the root ever lands on a
# Python's sys.path (python -m mypy run from the root, a venv Python started there, ...).
SHADOWING = (
    "json.py",
    "sysconfig.py",
    "site.py",
    "sitecustomize.py",
    "os.py",
    "typing.py",
    "enum.py",
    "re.py",
    "subprocess.py",
    "mypy.py",
    "tomllib.py",
    "encodings/__init__.py",
    "conftest.py",
)

# Runs at import (or when run): creates MARKERS/<name>.  Only `posix`, a built-in module, so it
# works even in a shadowed os.py or encodings/ during interpreter start-up.
PAYLOAD = """\
# hostile file added by scripts/hostile_checkout.py: if this runs, a tool ran project code
try:
    import posix as _hostile_posix

    _hostile_posix.close(
        _hostile_posix.open(
            {marker!r} + "." + str(_hostile_posix.getpid()),
            _hostile_posix.O_WRONLY | _hostile_posix.O_CREAT,
            0o644,
        )
    )
except BaseException:
    pass
"""

ESC_SEQUENCES = "\x1b]0;pwned\x07\x1b[2J"  # set the terminal title, then clear the screen

# Raw bytes in a command's output that a terminal would act on.
CONTROL_BYTES = {
    "ESC": b"\x1b",
    "BEL": b"\x07",
    "U+2028": "\u2028".encode(),
    "U+2029": "\u2029".encode(),
}

# Non-failing categories; everything else in OTHER_* fails.
PROJECT = "PROJECT"
USER_CACHE = "USER_CACHE"
CHECKER_CACHE = "CHECKER_CACHE"
TOOL_BYTECODE = "TOOL_BYTECODE"
ANCESTOR = "ANCESTOR"
TMPROOT = "TMPROOT"
HARNESS = "HARNESS"
MARKER = "MARKER"
OUTSIDE_TARGET = "OTHER_SYMLINK_TARGET"
ELSEWHERE = "OTHER_CWD_OUTSIDE"
OTHER = "OTHER"
FAILING = (MARKER, OUTSIDE_TARGET, ELSEWHERE, OTHER)
CATEGORY_ORDER = (
    PROJECT,
    USER_CACHE,
    CHECKER_CACHE,
    TOOL_BYTECODE,
    ANCESTOR,
    TMPROOT,
    HARNESS,
    MARKER,
    OUTSIDE_TARGET,
    ELSEWHERE,
    OTHER,
)

# Caches the checkers keep for themselves, relative to the user cache base ($XDG_CACHE_HOME or
# ~/.cache), and relative to the home folder.
CHECKER_CACHE_NAMES = (
    "pyright-python",
    "pyright",
    "basedpyright",
    "ty",
    "pyrefly",
    "zuban",
    "mypy",
    "node-gyp",
)
CHECKER_HOME_NAMES = (".npm", ".node-gyp", ".cache/node")

FileState = Tuple[int, int, int]  # st_mode, st_mtime_ns, st_size (lstat)


@dataclass(frozen=True)
class Injection:
    file: str  # relative to the project root
    line: int  # the line of the sink call
    what: str


@dataclass(frozen=True)
class Layout:
    run: Path  # the temporary folder holding all of the below
    project: Path  # the hostile copy
    markers: Path  # where hostile code would leave its trace
    harness: Path  # logs, strace output, the timestamp markers
    outside: Path  # the target of the hostile .typing-literalstring symlink
    elsewhere: Path  # an empty folder outside the project, the cwd of `check <abs path>`


@dataclass
class Step:
    name: str
    args: list[str]
    cwd: Path
    expect: set[int]
    counts_findings: bool = False
    must_not_write_project: bool = False
    before: Callable[[], None] | None = None
    # What the output must say: a refusal expected of the command (exit 2) is right only
    # when it names its cause.
    must_say: str = ""


@dataclass
class Areas:
    project: Path
    user_cache: Path
    checker_caches: list[Path]
    tool_dirs: list[Path]  # the tool's venv and package folder: their __pycache__ is bytecode
    tmp_roots: list[Path]
    layout: Layout


@dataclass
class StepResult:
    step: Step
    exit_code: int
    elapsed: float
    stdout: bytes
    stderr: bytes
    findings: int | None
    listing: dict[str, list[str]]  # category -> paths newer than the marker
    attributed_other: list[str]  # failing paths the command's processes wrote
    concurrent_other: list[str]  # OTHER paths nobody of ours wrote
    transient: list[str]  # written by the command outside the allowed areas, gone after it
    markers: list[str]
    mode_changes: list[str]
    deleted: list[str]
    modified: list[str]  # pre-existing project files whose content or mtime changed
    created: list[str]  # new project files
    injections: list[str]  # one line per expected injection: found where, or missed
    control: list[str]  # raw control bytes found in the output
    warnings: list[str]
    failures: list[str]


# --- preparing the hostile copy -------------------------------------------------------------


def prepare(source: Path, work_dir: Path) -> Layout:
    run = Path(tempfile.mkdtemp(prefix="hostile-checkout-", dir=str(work_dir))).resolve()
    layout = Layout(
        run=run,
        project=run / source.name,
        markers=run / "markers",
        harness=run / "harness",
        outside=run / "outside",
        elsewhere=run / "elsewhere",
    )
    for folder in (layout.markers, layout.harness, layout.outside, layout.elsewhere):
        folder.mkdir()
    shutil.copytree(str(source), str(layout.project), symlinks=True)
    return layout


def add_hostile_files(layout: Layout) -> list[Injection]:
    project = layout.project

    def marker(name: str) -> str:
        return str(layout.markers / name.replace("/", "_"))

    for name in SHADOWING:
        target = project / name
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(PAYLOAD.format(marker=marker(name)), encoding="utf-8")
    pth = "import posix; posix.close(posix.open({!r}, posix.O_WRONLY | posix.O_CREAT, 0o644))\n"
    (project / "_pth_marker.pth").write_text(
        pth.format(marker("_pth_marker.pth")), encoding="utf-8"
    )
    setup = project / "setup.py"
    own = setup.read_text(encoding="utf-8") if setup.exists() else ""
    setup.write_text(PAYLOAD.format(marker=marker("setup.py")) + "\n" + own, encoding="utf-8")

    injections: list[Injection] = []

    def source(name: str, data: bytes, line: int, what: str) -> None:
        (project / name).write_bytes(data)
        injections.append(Injection(name, line, what))

    source(
        "hostile_grammar.py",
        (
            b"import subprocess\n"
            b"\n"
            b"type Mapping = dict[str, str]\n"
            b"\n"
            b"\n"
            b"def listing(d: Mapping) -> None:\n"
            b'    subprocess.run(f"ls {d["k"]}", shell=True)\n'
        ),
        7,
        "PEP 701 f-string and PEP 695 type alias",
    )
    source(
        "hostile_bom.py",
        b"\xef\xbb\xbf"
        + (
            b"import subprocess\n"
            b"\n"
            b"\n"
            b"def listing(path: str) -> None:\n"
            b'    subprocess.run("ls " + path, shell=True)\n'
        ),
        5,
        "UTF-8 with a BOM",
    )
    source(
        "hostile_latin1.py",
        (
            "# -*- coding: latin-1 -*-\n"
            "import sqlite3\n"
            "\n"
            'CAFE = "caf\u00e9"\n'
            "\n"
            "\n"
            "def lookup(conn: sqlite3.Connection, name: str) -> None:\n"
            '    conn.execute("SELECT * FROM t WHERE c = \'" + name + "\' -- caf\u00e9")\n'
        ).encode("latin-1"),
        8,
        "latin-1 with a coding cookie",
    )
    source(
        "hostile_linesep.py",
        (
            "import os\n"
            "\n"
            'NOTE = "before\u2028after"\n'
            "\n"
            "\n"
            "def echo(text: str) -> None:\n"
            '    os.system("echo " + text)\n'
        ).encode(),
        7,
        "U+2028 in a string before the injection",
    )
    source(
        "hostile_escape.py",
        (
            "import os\n"
            "\n"
            "\n"
            "def title(name: str) -> None:\n"
            f"    os.system(\"printf '{ESC_SEQUENCES}' \" + name)\n"
        ).encode(),
        5,
        "terminal escape sequences (raw ESC, BEL) in a string",
    )

    state = project / STATE
    if state.is_symlink() or state.is_file():
        state.unlink()
    elif state.exists():
        shutil.rmtree(str(state))
    state.symlink_to(layout.outside, target_is_directory=True)
    pyproject = project / "pyproject.toml"
    if pyproject.exists():
        pyproject.chmod(0o664)
    return injections


def snapshot(root: Path) -> dict[str, FileState]:
    """lstat of every entry under ``root`` (symlinks not followed), keyed by relative path."""
    states: dict[str, FileState] = {}
    for folder, dirs, files in os.walk(str(root)):
        for name in dirs + files:
            path = os.path.join(folder, name)
            try:
                st = os.lstat(path)
            except OSError:
                continue
            states[os.path.relpath(path, str(root))] = (st.st_mode, st.st_mtime_ns, st.st_size)
    return states


# --- where a path belongs -----------------------------------------------------------------


def is_within(path: str, root: Path) -> bool:
    r = str(root)
    return path == r or path.startswith(r.rstrip("/") + "/")


def cache_base(env: dict[str, str]) -> Path:
    return Path(env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache"))


def user_cache(env: dict[str, str]) -> Path:
    """Where `check` keeps its overlays (typing_literalstring/specs/cache.py, cache_root)."""
    if env.get("TYPING_LITERALSTRING_CACHE"):
        return Path(env["TYPING_LITERALSTRING_CACHE"])
    return cache_base(env) / TOOL


def resolved(path: Path) -> Path:
    return Path(os.path.realpath(str(path)))


def make_areas(layout: Layout, env: dict[str, str], command: Sequence[str]) -> Areas:
    base = cache_base(env)
    home = Path.home()
    checker = [base / name for name in CHECKER_CACHE_NAMES]
    checker += [home / name for name in CHECKER_HOME_NAMES]
    tool_dirs: list[Path] = []
    executable = Path(command[0])
    if executable.is_absolute() and executable.parent.name in ("bin", "Scripts"):
        tool_dirs.append(executable.parent.parent)
    tool_dirs.append(Path(sys.prefix))
    if (REPO / "typing_literalstring").is_dir():
        tool_dirs.append(REPO / "typing_literalstring")
    tmp_roots = [Path("/tmp"), Path("/var/tmp"), Path("/dev/shm"), Path(tempfile.gettempdir())]
    tmp_roots.append(layout.run.parent)
    return Areas(
        project=resolved(layout.project),
        user_cache=resolved(user_cache(env)),
        checker_caches=[resolved(p) for p in checker],
        tool_dirs=[resolved(p) for p in tool_dirs],
        tmp_roots=[resolved(p) for p in tmp_roots],
        layout=layout,
    )


def classify(path: str, areas: Areas) -> str:
    layout = areas.layout
    if is_within(path, layout.markers):
        return MARKER
    if is_within(path, areas.project):
        return PROJECT
    if is_within(path, areas.user_cache):
        return USER_CACHE
    if any(is_within(path, c) for c in areas.checker_caches):
        return CHECKER_CACHE
    if "/__pycache__" in path and any(is_within(path, d) for d in areas.tool_dirs):
        return TOOL_BYTECODE
    if is_within(path, layout.outside):
        return OUTSIDE_TARGET
    if is_within(path, layout.elsewhere):
        return ELSEWHERE
    if is_within(path, layout.harness) or path == str(layout.run):
        return HARNESS
    allowed = [areas.project, areas.user_cache, layout.run, *areas.checker_caches]
    if any(is_within(str(a), Path(path)) for a in allowed):
        return ANCESTOR
    if any(path == str(t) for t in areas.tmp_roots):
        return TMPROOT
    return OTHER


# --- listing files newer than a marker -----------------------------------------------------


def newer_than(marker: Path, prune: Sequence[Path]) -> list[str]:
    roots = ["/"] + [r for r in ("/dev/shm",) if os.path.isdir(r)]
    pruned = ["/proc", "/sys", "/dev", "/run", *[str(p) for p in prune]]
    expression: list[str] = ["("]
    for i, p in enumerate(pruned):
        expression += (["-o"] if i else []) + ["-path", p]
    expression += [")", "-prune", "-o", "(", "-newer", str(marker), "-o", "-cnewer", str(marker)]
    expression += [")", "-print0"]
    done = subprocess.run(
        ["find", *roots, "-xdev", *expression],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return sorted({os.fsdecode(p) for p in done.stdout.split(b"\0") if p})


# --- running a step -----------------------------------------------------------------------


def run_command(
    args: Sequence[str], cwd: Path, env: dict[str, str], timeout: float
) -> tuple[int, bytes, bytes]:
    proc = subprocess.Popen(
        list(args),
        cwd=str(cwd),
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 15)
        out, err = proc.communicate()
        err += f"\n[hostile_checkout: killed after {timeout:.0f} s]\n".encode()
    return proc.returncode, out, err


def find_injections(stdout: str, injections: Sequence[Injection]) -> tuple[list[str], int]:
    lines: list[str] = []
    missed = 0
    for inj in injections:
        name = re.escape(inj.file)
        found = [
            int(m.group(1)) for m in re.finditer(rf"(?:^|[/\s]){name}:(\d+):\d+: LS", stdout, re.M)
        ]
        unparsable = re.search(rf"(?:^|[/\s]){name}:(\d+): not checked: (.*)$", stdout, re.M)
        if inj.line in found:
            lines.append(f"{inj.file}:{inj.line} found ({inj.what})")
        elif found:
            missed += 1
            where = ", ".join(str(n) for n in found)
            lines.append(f"{inj.file}:{inj.line} reported at line {where} instead ({inj.what})")
        elif unparsable is not None:
            missed += 1
            lines.append(
                f"{inj.file}:{inj.line} NOT CHECKED: line {unparsable.group(1)}: "
                f"{unparsable.group(2)} ({inj.what})"
            )
        else:
            missed += 1
            lines.append(f"{inj.file}:{inj.line} MISSED ({inj.what})")
    return lines, missed


def show(data: bytes) -> str:
    """Output made safe to print: control characters escaped (the raw bytes are reported)."""
    text = data.decode("utf-8", "replace")
    return "".join(
        c if c in "\n\t" or (c.isprintable() and c not in "\u2028\u2029") else ascii(c)[1:-1]
        for c in text
    )


def run_step(
    number: int,
    step: Step,
    layout: Layout,
    areas: Areas,
    env: dict[str, str],
    strace: str | None,
    timeout: float,
    pre: dict[str, FileState],
    injections: Sequence[Injection],
) -> StepResult:
    if step.before is not None:
        step.before()
    before = snapshot(layout.project)
    marker = layout.harness / f"marker-{number}"
    time.sleep(0.1)  # the harness's own changes must be older than the marker
    marker.touch()
    time.sleep(0.1)  # and the command's newer: timestamps are coarse (a clock tick)
    log = layout.harness / f"strace-{number}.log"
    prefix = strace_prefix(strace, log) if strace else []
    start = time.monotonic()
    code, out, err = run_command(prefix + step.args, step.cwd, env, timeout)
    elapsed = time.monotonic() - start
    (layout.harness / f"stdout-{number}.txt").write_bytes(out)
    (layout.harness / f"stderr-{number}.txt").write_bytes(err)

    listing: dict[str, list[str]] = {}
    for path in newer_than(marker, [layout.harness, layout.markers]):
        listing.setdefault(classify(path, areas), []).append(path)
    markers = sorted(os.listdir(str(layout.markers)))
    listing[MARKER] = [str(layout.markers / m) for m in markers]

    written = parse_strace(log, step.cwd) if strace else None
    attributed: list[str] = []
    concurrent: list[str] = []
    transient: list[str] = []
    parents: set[str] = set()
    if written is not None:
        parents = {os.path.dirname(p) for p in written.paths}
    for category in (OUTSIDE_TARGET, ELSEWHERE):  # only the command writes in these
        attributed += listing.get(category, [])

    def by_command(path: str) -> bool:
        """Whether the command wrote ``path``, its folder's entries, or a folder above it (a
        folder built elsewhere and renamed into place holds files strace saw under old names)."""
        if written is None:
            return True
        if path in written.paths or path in parents:
            return True
        folder = os.path.dirname(path)
        while folder not in ("/", ""):
            if folder in written.paths and classify(folder, areas) not in (TMPROOT, ANCESTOR):
                return True
            folder = os.path.dirname(folder)
        return False

    for path in listing.get(OTHER, []):
        if by_command(path):
            attributed.append(path)
        else:
            concurrent.append(path)
    if written is not None:
        listed = {p for paths in listing.values() for p in paths}
        for path in sorted(written.paths):
            if path in listed or os.path.lexists(path):
                continue
            if classify(path, areas) in (*FAILING, TMPROOT, ANCESTOR):
                transient.append(path)

    after = snapshot(layout.project)
    mode_changes = [
        f"{rel}: {stat.filemode(old[0])} -> {stat.filemode(after[rel][0])}"
        for rel, old in sorted(pre.items())
        if rel in after and stat.S_IMODE(after[rel][0]) != stat.S_IMODE(old[0])
    ]
    deleted = sorted(rel for rel in pre if rel not in after)
    modified = sorted(
        rel
        for rel, old in before.items()
        if rel in after and after[rel][1:] != old[1:] and not stat.S_ISDIR(old[0])
    )
    created = sorted(rel for rel in after if rel not in before)

    stdout = out.decode("utf-8", "replace")
    findings: int | None = None
    injection_lines: list[str] = []
    missed = 0
    if step.counts_findings:
        m = re.search(r"^(\d+) findings?\b", stdout, re.M)
        findings = int(m.group(1)) if m else None
        injection_lines, missed = find_injections(stdout, injections)
    control = [
        f"{name} x{(out + err).count(raw)}"
        for name, raw in CONTROL_BYTES.items()
        if raw in out + err
    ]

    failures: list[str] = []
    warnings: list[str] = []
    if markers:
        failures.append(f"hostile code ran: marker files {', '.join(markers)}")
    if mode_changes:
        failures.append(f"{len(mode_changes)} pre-existing file(s) changed mode")
    if deleted:
        failures.append(f"{len(deleted)} pre-existing file(s) deleted")
    if attributed:
        what = "written by the command" if written is not None else "written (no strace)"
        failures.append(f"{len(attributed)} file(s) outside the allowed areas {what}")
    if step.must_not_write_project and (created or modified):
        failures.append(
            f"the refused command changed the project: {len(created)} created, "
            f"{len(modified)} modified"
        )
    if code not in step.expect:
        expected = " or ".join(str(c) for c in sorted(step.expect))
        message = f"exit status {code}, expected {expected}"
        (failures if step.must_not_write_project else warnings).append(message)
    if step.must_say and step.must_say.encode() not in out + err:
        warnings.append(f"the output does not say {step.must_say!r}")
    if b"Traceback (most recent call last)" in err:
        last = show(err).strip().splitlines()[-1]
        warnings.append(f"the command crashed: {last[:200]}")
    if step.counts_findings and findings is None:
        warnings.append("no finding count in the output (the check did not complete)")
    if missed:
        warnings.append(f"{missed} of {len(injections)} hostile injections not reported")
    if control:
        warnings.append(f"raw terminal control bytes in the output: {', '.join(control)}")
    if step.counts_findings and (modified or created):
        warnings.append(
            f"check changed the project: {len(created)} created, {len(modified)} modified"
        )
    if not step.counts_findings:
        for line in stdout.splitlines():
            said_as_expected = bool(step.must_say) and step.must_say in line
            if not said_as_expected and re.search(r"\bfail(ed|s)?\b|\bshadows\b", line, re.I):
                warnings.append(f"output: {show(line.encode())[:200]}")
    if written is not None:
        # Only the command writes in the project: what strace did not see there measures how
        # much the attribution of OTHER files can be trusted.
        unseen = [
            p for p in listing.get(PROJECT, []) if not by_command(p) and p != str(areas.project)
        ]
        if unseen:
            warnings.append(
                f"strace did not see {len(unseen)} of the project's changed files (e.g. "
                f"{unseen[0]}): the OTHER attribution may be incomplete"
            )
    return StepResult(
        step=step,
        exit_code=code,
        elapsed=elapsed,
        stdout=out,
        stderr=err,
        findings=findings,
        listing=listing,
        attributed_other=attributed,
        concurrent_other=concurrent,
        transient=transient,
        markers=markers,
        mode_changes=mode_changes,
        deleted=deleted,
        modified=modified,
        created=created,
        injections=injection_lines,
        control=control,
        warnings=warnings,
        failures=failures,
    )


# --- printing -------------------------------------------------------------------------------


def group_key(path: str, depth: int) -> str:
    parts = path.split("/")
    return "/".join(parts[: depth + 1]) if len(parts) > depth + 1 else path


def grouped(paths: Sequence[str], root_depth: int) -> list[str]:
    counts = Counter(group_key(p, root_depth) for p in paths)
    return [
        f"{key}{'/...' if n > 1 or key not in paths else ''}  ({n})"
        for key, n in sorted(counts.items())
    ]


def depth_of(path: Path) -> int:
    return len(str(path).rstrip("/").split("/")) - 1


def print_step(number: int, result: StepResult, areas: Areas, full: bool) -> None:
    step = result.step
    out = sys.stdout
    command = shlex.join(step.args)
    out.write(f"\n=== {number}. {step.name}: {command}\n    cwd: {step.cwd}\n")
    expected = " or ".join(str(c) for c in sorted(step.expect))
    summary = f"exit {result.exit_code} (expected {expected}) in {result.elapsed:.1f} s"
    if step.counts_findings:
        count = "?" if result.findings is None else str(result.findings)
        summary += f"; {count} findings"
    out.write(summary + "\n")
    stdout = show(result.stdout)
    interesting = [
        line
        for line in stdout.splitlines()
        if re.match(r"^(\d+ findings?\b|error:|warning:|Checked |refus|Wrote|wrote)", line)
        or "hostile_" in line
    ]
    if not step.counts_findings:
        interesting = stdout.splitlines()[:40]
    for line in interesting:
        out.write(f"  | {line[:300]}\n")
    err_lines = show(result.stderr).splitlines()
    for line in err_lines[-15:]:
        out.write(f"  ! {line[:300]}\n")
    for line in result.injections:
        out.write(f"  injection: {line}\n")
    out.write(f"  output control bytes: {', '.join(result.control) or 'none'}\n")

    total = sum(len(v) for v in result.listing.values())
    out.write(f"  files newer than the marker: {total}\n")
    depths = {
        PROJECT: depth_of(areas.project) + 1,
        USER_CACHE: depth_of(areas.user_cache) + 1,
        CHECKER_CACHE: depth_of(Path.home()) + 2,
        TOOL_BYTECODE: 6,
    }
    for category in CATEGORY_ORDER:
        paths = result.listing.get(category, [])
        if category in FAILING:
            paths = [p for p in paths if p in result.attributed_other or category == MARKER]
        out.write(f"    {category:<22} {len(paths)}\n")
        if not paths:
            continue
        if full or category in (*FAILING, ANCESTOR, TMPROOT):
            lines = paths
        else:
            lines = grouped(paths, depths.get(category, 4))
        for line in lines:
            out.write(f"        {show(line.encode())}\n")
    if result.concurrent_other:
        n = len(result.concurrent_other)
        out.write(
            f"    {'OTHER, concurrent':<22} {n} (changed during the command, but not by its "
            "processes (strace): other work on this machine)\n"
        )
        lines = result.concurrent_other if full else grouped(result.concurrent_other, 3)[:25]
        for line in lines:
            out.write(f"        {show(line.encode())}\n")
    if result.transient:
        out.write(
            f"  written outside the allowed areas and removed again (strace): "
            f"{len(result.transient)}\n"
        )
        for line in result.transient if full else grouped(result.transient, 3)[:25]:
            out.write(f"        {show(line.encode())}\n")
    if result.created or result.modified:
        out.write(
            f"  project: {len(result.created)} created, {len(result.modified)} pre-existing "
            "modified\n"
        )
        for rel in result.modified:
            out.write(f"        modified {rel}\n")
        created = result.created if full else grouped(result.created, 1)[:20]
        for line in created:
            out.write(f"        created {line}\n")
    out.write(f"  markers: {', '.join(result.markers) or 'none'}\n")
    if result.mode_changes or result.deleted:
        for line in result.mode_changes:
            out.write(f"  MODE CHANGED {line}\n")
        for line in result.deleted:
            out.write(f"  DELETED {line}\n")
    else:
        out.write("  modes: every pre-existing entry keeps its mode\n")
    for line in result.failures:
        out.write(f"  FAIL: {line}\n")
    for line in result.warnings:
        out.write(f"  WARN: {line}\n")
    out.flush()


def print_summary(results: Sequence[StepResult]) -> None:
    out = sys.stdout
    out.write("\n=== summary\n")
    header = (
        f"{'step':<26}{'exit':>5}{'want':>7}{'finds':>7}{'secs':>8}{'proj+':>7}{'cache':>7}"
        f"{'other':>7}{'conc.':>7}{'mark':>6}{'modes':>7}\n"
    )
    out.write(header)
    for r in results:
        findings = "-" if r.findings is None else str(r.findings)
        cache = len(r.listing.get(USER_CACHE, [])) + len(r.listing.get(CHECKER_CACHE, []))
        want = "/".join(str(c) for c in sorted(r.step.expect))
        out.write(
            f"{r.step.name:<26}{r.exit_code:>5}{want:>7}{findings:>7}{r.elapsed:>8.1f}"
            f"{len(r.created):>7}{cache:>7}{len(r.attributed_other):>7}"
            f"{len(r.concurrent_other):>7}{len(r.markers):>6}"
            f"{len(r.mode_changes) + len(r.deleted):>7}\n"
        )


# --- main -------------------------------------------------------------------------------------


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

    steps += issue43_steps(command, project)  # issue 43, items 2 and 4 (functions at the end)

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


# --- issue 43, items 2 and 4: a checkout whose configuration misdirects init, or whose
# committed overlay was loosened.  After the steps above (`init` has written the pyright
# overlay and [tool.pyright] stubPath into pyproject.toml).

# A pyrightconfig.json wins over [tool.pyright]: settings written into pyproject.toml then load
# nothing, and the team's own pyright passes.  JSON with comments and a trailing comma, as
# pyright reads it.
ISSUE43_PYRIGHTCONFIG = (
    "{\n"
    "  // added by scripts/hostile_checkout.py: pyright reads this file, not [tool.pyright]\n"
    '  "typeCheckingMode": "standard",\n'
    "}\n"
)
ISSUE43_SINK = ("sql: LiteralString", "sql: str")  # sqlite3's execute, loosened back to str


def issue43_steps(command: Sequence[str], project: Path) -> list[Step]:
    """Item 4: with a pyrightconfig.json added, `init` must write stubPath into it (and say
    so), and `doctor` must fail once it holds none while pyproject.toml still does.  Item 2:
    with a sink of the committed overlay loosened to `str`, `doctor` must fail naming the file
    (its probe alone said "loads our stubs: yes")."""
    config = project / "pyrightconfig.json"
    stub = project / STATE / "stubs" / "pyright" / "sqlite3" / "__init__.pyi"
    doctor = [*command, "doctor", "--checker", "pyright"]

    def add_config() -> None:
        config.write_text(ISSUE43_PYRIGHTCONFIG, encoding="utf-8")

    def loosen_sink() -> None:
        text = stub.read_text(encoding="utf-8")
        stub.write_text(text.replace(*ISSUE43_SINK), encoding="utf-8")

    return [
        Step(
            "init-pyrightconfig",
            [*command, "init"],
            project,
            {0},
            before=add_config,
            must_say="pyright reads pyrightconfig.json",
        ),
        Step(
            "doctor-misplaced",
            doctor,
            project,
            {2},
            before=add_config,  # the team's file again, without our stubPath
            must_say="but pyright reads pyrightconfig.json",
        ),
        Step("init-again", [*command, "init"], project, {0}),
        Step(
            "doctor-loosened",
            doctor,
            project,
            {2},
            before=loosen_sink,
            must_say="changed sqlite3/__init__.pyi",
        ),
    ]


if __name__ == "__main__":
    sys.exit(main())
