"""The hostile copy of a project: shadowing modules that leave a marker if run, sources that
are hard to read (each with a real injection), and a `.typing-literalstring` symlink out."""

from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from scripts.hostile.model import STATE, FileState, Injection, Layout

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
