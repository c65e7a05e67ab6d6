"""The mypy plugin on real code: mypy with and without it, and pyright, on sdists from PyPI.

Each project is checked from its sdist, in a virtual environment that holds the project's
dependencies (so imports resolve as they do for its developers), with the default overlay for
every run.  What the plugin must show: mypy's own errors unchanged, and each `literal-string`
error a real non-literal flow that pyright reports on the same line.  `benchmarks/real_code/`
holds modules of ours that use a project right and wrong (each wrong line marked ``# E``); they
are checked with that project.

    python scripts/benchmark.py --plugin-real-code   # replaces that section of BENCHMARKS.md
"""

from __future__ import annotations

import ast
import subprocess
import sys
import tarfile
import venv
from dataclasses import dataclass
from pathlib import Path
from typing import Mapping, Sequence

REPO = Path(__file__).resolve().parent.parent
if str(REPO) not in sys.path:  # run as a script from a checkout
    sys.path.insert(0, str(REPO))

from typing_literalstring.checkers import CHECKERS, Diagnostic  # noqa: E402
from typing_literalstring.specs.cache import cached_overlay  # noqa: E402

HEADING = "## The mypy plugin on real code"
USER_MODULES = REPO / "benchmarks" / "real_code"
PYTHON = "3.12"


@dataclass(frozen=True)
class Project:
    requirement: str  # the sdist, name==version
    install: str  # what pip installs in its environment (extras bring optional imports)
    packages: tuple[str, ...]  # the folders of the sdist that are checked
    user_modules: tuple[str, ...] = ()  # ours, in USER_MODULES, checked with the project


PROJECTS = (
    Project("psycopg==3.3.9", "psycopg[binary,pool]==3.3.9", ("psycopg",), ("psycopg_user.py",)),
    Project("beets==2.14.1", "beets==2.14.1", ("beets", "beetsplug")),
    Project("coverage==7.18.0", "coverage==7.18.0", ("coverage",)),
    Project("mypy==2.4.1", "mypy==2.4.1", ("mypy",)),
    Project("sqlite-utils==4.2.1", "sqlite-utils==4.2.1", ("sqlite_utils",)),
    Project("datasette==0.65.5", "datasette==0.65.5", ("datasette",)),
    Project("invoke==3.0.3", "invoke==3.0.3", ("invoke",)),
)

# Why pyright is silent on a line where the plugin reports a real flow (measured; the pins above
# fix the line numbers).
PYRIGHT_SILENT: Mapping[tuple[str, int], str] = {
    ("coverage/sqlitedb.py", 188): (
        "pyright honours `# type: ignore[arg-type]` on this line whatever the code, so it hides "
        "its own error too; mypy's ignore names arg-type, not literal-string"
    ),
    ("coverage/sqlitedb.py", 193): (
        "pyright honours `# type: ignore[arg-type]` on this line whatever the code, so it hides "
        "its own error too; mypy's ignore names arg-type, not literal-string"
    ),
    ("beets/util/extension.py", 101): (
        '`shell = os.name == "nt"`: pyright evaluates `os.name` for the platform it checks '
        'for (Linux here: `Literal[False]`); with `pythonPlatform = "Windows"` it reports '
        "this line too, where the list of non-literal arguments goes to cmd.exe"
    ),
}


def _normalised(name: str) -> str:
    return name.lower().replace("-", "_").replace(".", "_")


def fetch_sdist(requirement: str, into: Path) -> Path:
    """Download and unpack a project's sdist, once (``into`` is the cache); returns its root."""
    wanted = _normalised(requirement.replace("==", "-"))

    def archives() -> list[Path]:
        return [
            p for p in into.glob("*.tar.gz") if _normalised(p.name[: -len(".tar.gz")]) == wanted
        ]

    if not archives():
        name = requirement.split("==")[0]
        subprocess.run(
            [sys.executable, "-m", "pip", "download", "-q", "--no-deps", "--no-binary", name,
             "-d", str(into), requirement],
            check=True,
        )  # fmt: skip
    (archive,) = archives()
    return extract_sdist(archive, into / "src")


def extract_sdist(archive: Path, into: Path) -> Path:
    """The sdist's top folder, extracted into ``into`` unless it is there already."""
    with tarfile.open(archive) as sdist:
        root = into / sdist.getnames()[0].split("/")[0]
        if not root.exists():
            if sys.version_info >= (3, 12):
                sdist.extractall(into, filter="data")
            else:  # an sdist from PyPI; the extraction filter only exists from 3.12
                sdist.extractall(into)
    return root


def environment(install: str, folder: Path) -> Path:
    """A virtual environment with ``install`` and its dependencies; returns its interpreter."""
    python = folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")
    if not python.exists():
        venv.create(folder, with_pip=True)
        subprocess.run(
            [str(python), "-m", "pip", "install", "-q", "--disable-pip-version-check", install],
            check=True,
        )
    return python


def _reworded(error: Diagnostic, ours: list[Diagnostic]) -> bool:
    """mypy's overload error that the plugin restated as a literal-string error, when a
    non-literal string is the only reason: mypy puts it on the call's first line, the plugin
    on the argument's."""
    return error.message.startswith("No overload variant") and any(
        o.path == error.path and 0 <= o.line - error.line <= 10 for o in ours
    )


@dataclass
class Comparison:
    project: Project
    files: int
    plain: list[Diagnostic]
    plugin: list[Diagnostic]
    pyright: list[Diagnostic]

    @property
    def ours(self) -> list[Diagnostic]:
        return [d for d in self.plugin if d.code == "literal-string"]

    def changed(self) -> tuple[list[Diagnostic], list[Diagnostic], int]:
        """mypy's errors the plugin lost, the other errors it added, and how many of mypy's
        errors it restated as literal-string errors (moved, not lost)."""
        rest = set(self.plugin) - set(self.ours)
        missing = set(self.plain) - rest
        lost = sorted(d for d in missing if not _reworded(d, self.ours))
        return lost, sorted(rest - set(self.plain)), len(missing) - len(lost)

    def pyright_on(self, d: Diagnostic) -> list[Diagnostic]:
        """pyright's errors at the call whose argument ``d`` is about (mypy's error is at the
        argument, pyright's may be at the call's first line or another argument's), or else
        on the same line."""
        first, last = _call_lines(Path(d.path), d.line, d.column)
        return [
            p
            for p in self.pyright
            if p.path == d.path and first <= p.line <= last and p.severity == "error"
        ]


def _call_lines(path: Path, line: int, column: int) -> tuple[int, int]:
    """The lines of the call that has an argument at ``line``:``column`` (1-based), else the
    line alone."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            arguments = [*node.args, *(k.value for k in node.keywords)]
            if any(a.lineno == line and a.col_offset == column - 1 for a in arguments):
                return node.lineno, node.end_lineno or line
    return line, line


def compare(project: Project, work: Path) -> Comparison:
    root = fetch_sdist(project.requirement, work / "sdists")
    python = environment(project.install, work / "venvs" / root.name)
    files = [f for package in project.packages for f in sorted((root / package).rglob("*.py"))]
    files += [USER_MODULES / name for name in project.user_modules]
    runs: dict[str, list[Diagnostic]] = {}
    for name in ("mypy", "mypy+plugin", "pyright"):
        checker = CHECKERS[name]
        overlay = cached_overlay(checker, "default", work / "cache").root
        runs[name] = checker.run(
            files,
            python_version=PYTHON,
            overlay=overlay,
            workdir=work / "runs" / root.name / name,
            extra_paths=[root],
            python=python,
        ).diagnostics
    return Comparison(project, len(files), runs["mypy"], runs["mypy+plugin"], runs["pyright"])


def marked_lines(path: Path) -> list[int]:
    lines = path.read_text(encoding="utf-8").splitlines()
    return [n for n, line in enumerate(lines, 1) if line.rstrip().endswith("# E")]


def _place(d: Diagnostic, roots: Sequence[Path]) -> str:
    path = Path(d.path)
    for root in roots:
        if root in path.parents:
            return f"{path.relative_to(root).as_posix()}:{d.line}"
    return f"{path.name}:{d.line}"


def section(comparisons: Sequence[Comparison], work: Path) -> list[str]:
    roots = [*sorted((work / "sdists" / "src").glob("*")), USER_MODULES]
    summary = [
        HEADING,
        "",
        "`python scripts/benchmark.py --plugin-real-code`: each sdist checked with the default",
        "overlay, in a virtual environment with its dependencies, by mypy without and with our",
        'plugin and by pyright. "mypy\'s errors": plain mypy; "the rest": the run with the',
        'plugin once its `literal-string` errors are set apart; "pyright too": how many of',
        "those lines pyright reports as well.",
        "",
        "| project | files | mypy's errors | the rest, with the plugin | `literal-string` "
        "errors | pyright too |",
        "|---|---|---|---|---|---|",
    ]
    details = [
        "",
        "Every `literal-string` error, with pyright's error on the same line:",
        "",
        "| where | the plugin | pyright |",
        "|---|---|---|",
    ]
    marked: list[str] = []
    for c in comparisons:
        lost, gained, reworded = c.changed()
        verdict = (
            "identical"
            if not lost and not gained
            else f"DIFFERENT ({len(lost)} lost, {len(gained)} gained)"
        )
        if reworded:
            verdict += f" ({reworded} reworded as literal-string)"
        also = sum(1 for d in c.ours if c.pyright_on(d))
        summary.append(
            f"| {c.project.requirement} | {c.files} | {len(c.plain)} | {verdict} | "
            f"{len(c.ours)} | {also} |"
        )
        for d in lost + gained:
            kind = "lost" if d in lost else "gained"
            details.append(f"| `{_place(d, roots)}` | {kind}: {d.message} | |")
        for d in c.ours:
            place = _place(d, roots)
            theirs = c.pyright_on(d)
            said = (
                theirs[-1].message.splitlines()[0]
                if theirs
                else "none: "
                + PYRIGHT_SILENT.get((place.rsplit(":", 1)[0], d.line), "NOT EXPLAINED")
            )
            details.append(f"| `{place}` | {d.message} | {said} |")
        for name in c.project.user_modules:
            path = USER_MODULES / name
            expected = marked_lines(path)
            found = sorted({d.line for d in c.ours if Path(d.path) == path})
            verdict = "exactly those" if found == expected else f"DIFFERENT: lines {found}"
            marked.append(
                f"`benchmarks/real_code/{name}` (with {c.project.requirement}): "
                f"{len(expected)} lines marked `# E`; the plugin reports {verdict}."
            )
    return [*summary, *details, "", *marked]


def run(work: Path) -> list[str]:
    return section([compare(p, work) for p in PROJECTS], work)
