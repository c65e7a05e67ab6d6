"""Measure what typing-literalstring, bandit, ruff and semgrep find on published injection CVEs.

The corpus is ``benchmarks/cves/cves.json``: real advisories (CVE or GHSA) of packages on PyPI,
each with the vulnerable and the fixed release, the file and line of the sink call (an SQL
execute, a shell command, a template source, a string marked safe HTML) in the vulnerable
sdist, and where that statement is in the fixed sdist. For each CVE and each of its two
releases the script

- downloads the sdist with ``pip download --no-deps --no-binary :all:`` and extracts it under
  the cache (``~/.cache/typing-literalstring/cves/`` unless ``--cache``), reusing what is there;
- makes one virtual environment per release in the cache with the CVE's ``dependencies``
  (wheels first, then a plain install): the packages whose APIs the sink uses, never the
  checked package itself, which is neither installed nor run by this script;
- runs each tool with a timeout on the release's source folders (``paths``, default the whole
  extracted tree): ``typing-literalstring check`` with pyright and with mypy, ``bandit -r``
  (all tests), ``ruff check --select S`` and, when it can be installed, semgrep with the
  python rules of the public semgrep-rules repository, offline;
- says a tool *found* the CVE when it reports something in the vulnerable file on the lines of
  the sink call (for bandit B608 and ruff S608, "SQL built from strings", also up to five lines
  above it in the same function, where the query is built), and that the flag *stays* on the
  fixed release when it reports on the fixed statement, or, when the fix changed or removed
  it, in the same function near the original place.  A typing-literalstring finding through
  the project's own wrappers sits at the wrapper's caller, maybe in another file; it counts
  on those lines when it or any place of its chain (``through_places``: the call in each
  wrapper the text goes on through, down to the sink call) is there.

It prints a Markdown table (one row per CVE, then totals and timings). A tool that crashes,
times out or prints something that is not its JSON is shown as ``error: ...``, never as
missed. ``--json OUT`` writes the raw results.

Run: ``.venv/bin/python scripts/cve_benchmark.py [--only ID] [--tools ls-pyright,bandit]``.
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shlex
import shutil
import subprocess
import sys
import tarfile
import time
import venv
import zipfile
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any, TypedDict, cast

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "benchmarks" / "cves" / "cves.json"
DEFAULT_CACHE = Path.home() / ".cache" / "typing-literalstring" / "cves"
TOOLS = ("ls-pyright", "ls-mypy", "bandit", "ruff", "semgrep")
FAMILIES = ("sql", "shell", "template", "markup")
# Rules about SQL text built from strings: they report where the string is built, which may be
# a few lines above the execute call.
BUILD_RULES = frozenset({"B608", "S608"})
BUILD_WINDOW = 5
# On the fixed release, "near the original place" when the statement itself changed.
NEAR = 15
TIMEOUT = 900.0
PIP_ENV = {"PIP_DISABLE_PIP_VERSION_CHECK": "1", "PIP_NO_INPUT": "1"}


class ToolError(Exception):
    """A tool or a step that could not give an answer (crash, timeout, output not JSON)."""


@dataclass(frozen=True)
class Cve:
    id: str
    advisory: str
    package: str
    vulnerable: str
    fixed: str
    family: str
    path: str
    line: int
    statement: str
    fixed_path: str
    fixed_line: int | None
    fix: str
    dependencies: tuple[str, ...]
    paths: tuple[str, ...]


@dataclass(frozen=True)
class Finding:
    path: str  # relative to the extracted tree, with forward slashes
    line: int
    end_line: int
    rule: str
    severity: str = ""
    # typing-literalstring's only: where its chain through the project's own wrappers goes
    # (path, line), down to the sink call; the finding itself is at the wrapper's caller.
    chain: tuple[tuple[str, int], ...] = ()


@dataclass
class Run:
    tool: str
    release: str  # "vulnerable" or "fixed"
    seconds: float
    findings: list[Finding] = field(default_factory=lambda: [])
    error: str | None = None
    note: str = ""


@dataclass(frozen=True)
class Place:
    """Where a sink call is: the lines it spans, the lines where its SQL may be built, and the
    function around it."""

    path: str
    span: tuple[int, int]
    build: tuple[int, int] | None
    function: tuple[int, int] | None
    qualname: str


@dataclass
class Verdict:
    tool: str
    vulnerable: str  # "found", "missed" or "error: ..."
    fixed: str  # "flag stays", "-" or "error: ..."
    rules: list[str] = field(default_factory=lambda: [])
    fixed_rules: list[str] = field(default_factory=lambda: [])


@dataclass
class Result:
    cve: Cve
    runs: list[Run] = field(default_factory=lambda: [])
    verdicts: list[Verdict] = field(default_factory=lambda: [])
    problem: str | None = None  # the releases could not be prepared


# The parts of the tools' JSON output read here (json.loads gives Any: these are cast, not
# checked; a key missing or of another type fails as before, with KeyError, TypeError or
# ValueError, and measure_release reports it as "unexpected output").


class LsPlace(TypedDict):
    path: str
    line: int


class _LsFindingBase(TypedDict):
    path: str
    line: int
    rule: str


class LsFinding(_LsFindingBase, total=False):
    through_places: list[LsPlace]  # absent from the output of releases before it


class _LsReportBase(TypedDict):
    findings: list[LsFinding]


class LsReport(_LsReportBase, total=False):
    project: str
    unparsable: list[object]


class BanditIssue(TypedDict):
    filename: str
    line_number: int
    line_range: list[int]
    test_id: str
    issue_severity: str


class BanditReport(TypedDict):
    results: list[BanditIssue]
    errors: list[object]


class RuffLocation(TypedDict):
    row: int


class RuffDiagnostic(TypedDict):
    filename: str
    location: RuffLocation
    end_location: RuffLocation
    code: str | None


class SemgrepPosition(TypedDict):
    line: int


class SemgrepMatch(TypedDict):
    path: str
    start: SemgrepPosition
    end: SemgrepPosition
    check_id: str


class SemgrepReport(TypedDict):
    results: list[SemgrepMatch]
    errors: list[object]


# ----------------------------------------------------------------------------- the corpus


def _text(entry: dict[str, object], key: str) -> str:
    value = entry.get(key)
    if not isinstance(value, str) or not value:
        raise SystemExit(f"{CORPUS.name}: {entry.get('id', '?')}: {key!r} must be a string")
    return value


def _strings(entry: dict[str, object], key: str) -> tuple[str, ...]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(
        isinstance(v, str) for v in cast("list[object]", value)
    ):
        raise SystemExit(
            f"{CORPUS.name}: {entry.get('id', '?')}: {key!r} must be a list of strings"
        )
    return tuple(cast("list[str]", value))


def load_corpus(path: Path) -> list[Cve]:
    data = json.loads(path.read_text(encoding="utf-8"))
    if not isinstance(data, list):
        raise SystemExit(f"{path}: expected a list of CVEs")
    cves: list[Cve] = []
    for item in cast("list[object]", data):
        if not isinstance(item, dict):
            raise SystemExit(f"{path}: every entry must be an object")
        entry = cast("dict[str, object]", item)
        line = entry.get("line")
        fixed_line = entry.get("fixed_line")
        if not isinstance(line, int) or not (fixed_line is None or isinstance(fixed_line, int)):
            raise SystemExit(f"{path}: {entry.get('id')}: line and fixed_line must be integers")
        family = _text(entry, "family")
        if family not in FAMILIES:
            raise SystemExit(f"{path}: {entry.get('id')}: unknown family {family!r}")
        cves.append(
            Cve(
                id=_text(entry, "id"),
                advisory=_text(entry, "advisory"),
                package=_text(entry, "package"),
                vulnerable=_text(entry, "vulnerable"),
                fixed=_text(entry, "fixed"),
                family=family,
                path=_text(entry, "path"),
                line=line,
                statement=_text(entry, "statement"),
                fixed_path=_text(entry, "fixed_path"),
                fixed_line=fixed_line,
                fix=_text(entry, "fix"),
                dependencies=_strings(entry, "dependencies"),
                paths=_strings(entry, "paths") or (".",),
            )
        )
    return cves


# ----------------------------------------------------------------------------- commands


def run_command(
    command: Sequence[str],
    *,
    cwd: Path | None = None,
    timeout: float = TIMEOUT,
    env: dict[str, str] | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``command``; a missing program or a timeout is a ToolError."""
    environment = {**os.environ, **(env or {})}
    try:
        return subprocess.run(
            list(command),
            cwd=cwd,
            capture_output=True,
            text=True,
            timeout=timeout,
            env=environment,
            check=False,
        )
    except FileNotFoundError as error:
        raise ToolError(f"not found: {command[0]}") from error
    except subprocess.TimeoutExpired as error:
        raise ToolError(f"timeout after {timeout:.0f}s") from error


def _last_line(text: str) -> str:
    lines = [line.strip() for line in text.strip().splitlines() if line.strip()]
    return lines[-1][:160] if lines else ""


def _json(text: str, tool: str) -> Any:  # noqa: ANN401 - whatever the tool printed
    starts = [i for i in (text.find("{"), text.find("[")) if i >= 0]
    start = min(starts) if starts else -1
    if start < 0:
        raise ToolError(f"{tool} printed no JSON: {_last_line(text) or 'nothing'}")
    try:
        return json.loads(text[start:])
    except json.JSONDecodeError as error:
        raise ToolError(f"{tool} printed something that is not JSON ({error.msg})") from error


# ----------------------------------------------------------------------------- releases


def _extract(archive: Path, into: Path) -> None:
    if archive.name.endswith(".zip"):
        with zipfile.ZipFile(archive) as zipped:
            for member in zipped.namelist():
                target = (into / member).resolve()
                if not target.is_relative_to(into.resolve()):
                    raise ToolError(f"{archive.name}: a member leaves the folder: {member}")
            zipped.extractall(into)
    else:
        with tarfile.open(archive) as tarred:
            tarred.extractall(into, filter="data")


def fetch_sdist(name: str, version: str, cache: Path) -> Path:
    """The extracted sdist of ``name==version`` (its single top-level folder)."""
    dest = cache / "sdists" / f"{name}-{version}"
    marker = dest / ".top"
    if marker.is_file():
        top = dest / marker.read_text(encoding="utf-8").strip()
        if top.is_dir():
            return top
    download = cache / "downloads" / f"{name}-{version}"
    archives = [p for p in download.glob("*") if p.is_file()] if download.is_dir() else []
    if not archives:
        download.mkdir(parents=True, exist_ok=True)
        done = run_command(
            [sys.executable, "-m", "pip", "download", "--no-deps", "--no-binary", ":all:",
             f"{name}=={version}", "-d", str(download)],
            env=PIP_ENV,
        )  # fmt: skip
        archives = [p for p in download.glob("*") if p.is_file()]
        if done.returncode != 0 or not archives:
            raise ToolError(f"pip download {name}=={version}: {_last_line(done.stderr)}")
    if len(archives) != 1:
        raise ToolError(f"{download}: expected one archive, found {len(archives)}")
    shutil.rmtree(dest, ignore_errors=True)
    dest.mkdir(parents=True)
    _extract(archives[0], dest)
    tops = [p for p in dest.iterdir() if p.is_dir()]
    if len(tops) != 1:
        raise ToolError(f"{archives[0].name}: expected one top-level folder")
    marker.write_text(tops[0].name, encoding="utf-8")
    return tops[0]


def _venv_python(folder: Path) -> Path:
    return folder / ("Scripts/python.exe" if sys.platform == "win32" else "bin/python")


def environment(name: str, version: str, dependencies: Sequence[str], cache: Path) -> Path:
    """A virtual environment for one release holding ``dependencies`` (never the package
    itself); made once, and again when the dependencies change. Returns its interpreter."""
    folder = cache / "envs" / f"{name}-{version}"
    python = _venv_python(folder)
    marker = folder / "typing-literalstring-installed.json"
    wanted = list(dependencies)
    if (
        python.exists()
        and marker.is_file()
        and json.loads(marker.read_text(encoding="utf-8")) == wanted
    ):
        return python
    shutil.rmtree(folder, ignore_errors=True)
    venv.EnvBuilder(with_pip=bool(wanted)).create(folder)
    if wanted:
        pip = [str(python), "-m", "pip", "install", "-q"]
        done = run_command([*pip, "--only-binary", ":all:", *wanted], env=PIP_ENV)
        if done.returncode != 0:
            done = run_command([*pip, *wanted], env=PIP_ENV)
        if done.returncode != 0:
            raise ToolError(f"pip install {' '.join(wanted)}: {_last_line(done.stderr)}")
    marker.write_text(json.dumps(wanted), encoding="utf-8")
    return python


def semgrep_program(cache: Path) -> tuple[Path | None, str]:
    """Semgrep installed in its own environment in the cache, or why it cannot run."""
    folder = cache / "semgrep-venv"
    program = folder / ("Scripts/semgrep.exe" if sys.platform == "win32" else "bin/semgrep")
    if program.exists():
        return program, ""
    try:
        shutil.rmtree(folder, ignore_errors=True)
        venv.EnvBuilder(with_pip=True).create(folder)
        done = run_command(
            [str(_venv_python(folder)), "-m", "pip", "install", "-q", "semgrep"], env=PIP_ENV
        )
    except (ToolError, OSError) as error:
        return None, f"semgrep could not be installed: {error}"
    if done.returncode != 0 or not program.exists():
        return None, f"semgrep could not be installed: {_last_line(done.stderr)}"
    return program, ""


def semgrep_rules(given: Path | None, cache: Path) -> Path | None:
    candidates = [given] if given else []
    candidates += [ROOT / "benchmarks" / "cves" / "semgrep-rules" / "python"]
    candidates += [cache / "semgrep-rules" / "python"]
    return next((c for c in candidates if c.is_dir()), None)


# ----------------------------------------------------------------------------- tools


def _relative(path: str | Path, tree: Path, base: Path | None = None) -> str:
    candidate = Path(path)
    if not candidate.is_absolute():
        candidate = (base or tree) / candidate
    try:
        return candidate.resolve().relative_to(tree.resolve()).as_posix()
    except ValueError:
        return Path(path).as_posix()


def _has_findings(data: object) -> bool:
    """Whether ``data`` is an object with a list under "findings"."""
    return isinstance(data, dict) and isinstance(
        cast("dict[str, object]", data).get("findings"), list
    )


def run_typing_literalstring(
    command: Sequence[str], checker: str, tree: Path, paths: Sequence[str], python: Path,
    timeout: float,
) -> tuple[list[Finding], str]:  # fmt: skip
    done = run_command(
        [*command, "check", "--checker", checker, "--format", "json", "--python", str(python),
         *paths],
        cwd=tree, timeout=timeout,
    )  # fmt: skip
    if done.returncode not in (0, 1, 2):
        raise ToolError(f"exit {done.returncode}: {_last_line(done.stderr)}")
    if done.returncode == 2 and '"findings"' not in done.stdout:
        raise ToolError(f"exit 2: {_last_line(done.stderr)}")
    data = _json(done.stdout, "typing-literalstring")
    if not _has_findings(data):
        raise ToolError("typing-literalstring: JSON without findings")
    report = cast("LsReport", data)
    # Paths in our JSON are shown from where the command ran (the tree), not from the project
    # root it found (arches' is a folder below the tree: every path came out doubled).
    findings = [
        Finding(
            _relative(f["path"], tree), int(f["line"]), int(f["line"]), str(f["rule"]),
            chain=tuple(
                (_relative(p["path"], tree), int(p["line"])) for p in f.get("through_places", [])
            ),
        )
        for f in report["findings"]
    ]  # fmt: skip
    notes: list[str] = []
    if done.returncode == 2:
        notes.append("exit 2")
    unparsable: list[object] = report.get("unparsable") or []
    if unparsable:
        notes.append(f"{len(unparsable)} unparsable files")
    return findings, "; ".join(notes)


def run_bandit(
    program: str, tree: Path, paths: Sequence[str], timeout: float
) -> tuple[list[Finding], str]:
    done = run_command([program, "-r", "-f", "json", "-q", *paths], cwd=tree, timeout=timeout)
    if done.returncode not in (0, 1):
        raise ToolError(f"exit {done.returncode}: {_last_line(done.stderr)}")
    data = cast("BanditReport", _json(done.stdout, "bandit"))
    findings: list[Finding] = []
    for item in data.get("results", []):
        lines = item.get("line_range") or [item["line_number"]]
        findings.append(
            Finding(
                _relative(item["filename"], tree),
                int(min(lines)),
                int(max(lines)),
                str(item["test_id"]),
                str(item.get("issue_severity", "")),
            )
        )
    errors: list[object] = data.get("errors") or []
    return findings, f"{len(errors)} files bandit could not read" if errors else ""


def run_ruff(
    program: str, tree: Path, paths: Sequence[str], timeout: float
) -> tuple[list[Finding], str]:
    done = run_command(
        [program, "check", "--select", "S", "--output-format", "json", "--no-cache",
         "--isolated", "--exit-zero", *paths],
        cwd=tree, timeout=timeout,
    )  # fmt: skip
    if done.returncode != 0:
        raise ToolError(f"exit {done.returncode}: {_last_line(done.stderr)}")
    data = cast("list[RuffDiagnostic]", _json(done.stdout, "ruff"))
    findings = [
        Finding(
            _relative(item["filename"], tree),
            int(item["location"]["row"]),
            int(item["end_location"]["row"]),
            str(item.get("code") or "syntax-error"),
        )
        for item in data
    ]
    syntax = sum(1 for f in findings if f.rule == "syntax-error")
    kept = [f for f in findings if f.rule != "syntax-error"]
    return kept, f"{syntax} syntax errors" if syntax else ""


def run_semgrep(
    program: Path, rules: Path, tree: Path, paths: Sequence[str], timeout: float
) -> tuple[list[Finding], str]:
    done = run_command(
        [str(program), "scan", "--metrics=off", "--disable-version-check", "--json", "--quiet",
         "--config", str(rules), *paths],
        cwd=tree, timeout=timeout,
        env={"SEMGREP_SEND_METRICS": "off", "SEMGREP_ENABLE_VERSION_CHECK": "0"},
    )  # fmt: skip
    if done.returncode not in (0, 1):
        raise ToolError(f"exit {done.returncode}: {_last_line(done.stderr)}")
    data = cast("SemgrepReport", _json(done.stdout, "semgrep"))
    findings = [
        Finding(
            _relative(item["path"], tree),
            int(item["start"]["line"]),
            int(item["end"]["line"]),
            str(item["check_id"]).rsplit(".", 1)[-1],
        )
        for item in data.get("results", [])
    ]
    errors: list[object] = data.get("errors") or []
    return findings, f"{len(errors)} semgrep errors" if errors else ""


# ----------------------------------------------------------------------------- matching


def _functions(module: ast.Module) -> list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]]:
    found: list[tuple[str, ast.FunctionDef | ast.AsyncFunctionDef]] = []

    def visit(node: ast.AST, prefix: str) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
                name = f"{prefix}{child.name}"
                found.append((name, child))
                visit(child, f"{name}.")
            elif isinstance(child, ast.ClassDef):
                visit(child, f"{prefix}{child.name}.")
            else:
                visit(child, prefix)

    visit(module, "")
    return found


def _parse(file: Path) -> ast.Module | None:
    try:
        return ast.parse(file.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError, OSError):
        return None


def locate(tree: Path, path: str, line: int) -> Place:
    """The sink call starting on ``line`` of ``path``: the lines of the largest call starting
    there (else of the innermost statement), and its function."""
    module = _parse(tree / path)
    if module is None:
        return Place(path, (line, line), (max(1, line - BUILD_WINDOW), line), None, "")
    calls = [n for n in ast.walk(module) if isinstance(n, ast.Call) and n.lineno == line]
    statements = [
        n for n in ast.walk(module)
        if isinstance(n, ast.stmt) and n.lineno <= line <= (n.end_lineno or n.lineno)
    ]  # fmt: skip
    if calls:
        span = (line, max(c.end_lineno or line for c in calls))
    elif statements:
        inner = min(statements, key=lambda s: (s.end_lineno or s.lineno) - s.lineno)
        span = (inner.lineno, inner.end_lineno or inner.lineno)
    else:
        span = (line, line)
    around = [
        (name, f) for name, f in _functions(module)
        if f.lineno <= line <= (f.end_lineno or f.lineno)
    ]  # fmt: skip
    if around:
        qualname, function = max(around, key=lambda item: item[1].lineno)
        bounds = (function.lineno, function.end_lineno or function.lineno)
        build = (max(bounds[0], span[0] - BUILD_WINDOW), span[0])
        return Place(path, span, build, bounds, qualname)
    return Place(path, span, (max(1, span[0] - BUILD_WINDOW), span[0]), None, "")


def _at(findings: Iterable[Finding], place: Place) -> list[Finding]:
    """Findings starting on the sink call's lines (a finding spanning a whole function, such
    as semgrep's on a decorator, does not count), or whose chain through the project's own
    wrappers goes through them (reported at a wrapper's caller, the flow still reaches that
    sink call), and B608/S608 where its SQL is built."""
    hits: list[Finding] = []
    for f in findings:
        on_call = any(
            path == place.path and place.span[0] <= line <= place.span[1]
            for path, line in ((f.path, f.line), *f.chain)
        )
        built = (
            f.path == place.path
            and f.rule in BUILD_RULES
            and place.build is not None
            and place.build[0] <= f.line <= place.build[1]
        )
        if on_call or built:
            hits.append(f)
    return hits


def near_in_fixed(cve: Cve, vulnerable: Place, fixed_tree: Path) -> Place | None:
    """Where the fix changed or removed the statement: the same function in the fixed file,
    around the line matching the original one."""
    file = fixed_tree / cve.fixed_path
    module = _parse(file) if file.is_file() else None
    if module is None:
        return None
    if vulnerable.function is not None and vulnerable.qualname:
        same = [f for name, f in _functions(module) if name == vulnerable.qualname]
        if same:
            function = same[0]
            start, end = function.lineno, function.end_lineno or function.lineno
            anchor = start + (cve.line - vulnerable.function[0])
            span = (max(start, anchor - NEAR), min(end, anchor + NEAR))
            return Place(cve.fixed_path, span, None, (start, end), vulnerable.qualname)
    return Place(cve.fixed_path, (max(1, cve.line - NEAR), cve.line + NEAR), None, None, "")


def _rules(findings: Sequence[Finding]) -> list[str]:
    return sorted({f.rule for f in findings})


def judge(
    cve: Cve, tool: str, runs: dict[tuple[str, str], Run], vulnerable: Place,
    fixed: Place | None,
) -> Verdict:  # fmt: skip
    before = runs.get((tool, "vulnerable"))
    after = runs.get((tool, "fixed"))
    verdict = Verdict(tool, "n/a", "n/a")
    if before is not None:
        if before.error:
            verdict.vulnerable = f"error: {before.error}"
        else:
            hits = _at(before.findings, vulnerable)
            verdict.vulnerable = "found" if hits else "missed"
            verdict.rules = _rules(hits)
    if after is not None:
        if after.error:
            verdict.fixed = f"error: {after.error}"
        elif fixed is None:
            verdict.fixed = "-"
        else:
            hits = _at(after.findings, fixed)
            verdict.fixed = "flag stays" if hits else "-"
            verdict.fixed_rules = _rules(hits)
    return verdict


# ----------------------------------------------------------------------------- the run


@dataclass
class Options:
    cache: Path
    tools: tuple[str, ...]
    tool_command: tuple[str, ...]
    bandit: str
    ruff: str
    semgrep: Path | None
    semgrep_rules: Path | None
    semgrep_problem: str
    timeout: float


def measure_release(
    cve: Cve, release: str, tree: Path, python: Path, options: Options
) -> list[Run]:
    runs: list[Run] = []
    for tool in options.tools:
        started = time.perf_counter()
        run = Run(tool, release, 0.0)
        try:
            if tool in ("ls-pyright", "ls-mypy"):
                checker = tool.removeprefix("ls-")
                run.findings, run.note = run_typing_literalstring(
                    options.tool_command, checker, tree, cve.paths, python, options.timeout
                )
            elif tool == "bandit":
                run.findings, run.note = run_bandit(
                    options.bandit, tree, cve.paths, options.timeout
                )
            elif tool == "ruff":
                run.findings, run.note = run_ruff(options.ruff, tree, cve.paths, options.timeout)
            elif options.semgrep is None or options.semgrep_rules is None:
                run.error = "n/a"
                run.note = options.semgrep_problem
            else:
                run.findings, run.note = run_semgrep(
                    options.semgrep, options.semgrep_rules, tree, cve.paths, options.timeout
                )
        except ToolError as error:
            run.error = str(error)
        except (KeyError, TypeError, ValueError) as error:
            run.error = f"unexpected output ({type(error).__name__}: {error})"
        run.seconds = time.perf_counter() - started
        state = run.error or f"{len(run.findings)} findings"
        print(f"  {release:10} {tool:10} {run.seconds:6.1f}s  {state}", file=sys.stderr)
        runs.append(run)
    return runs


def _saved_finding(saved: dict[str, Any]) -> Finding:
    """A finding of an earlier ``--json`` output (its chain saved as lists, or not at all)."""
    chain = tuple((str(path), int(line)) for path, line in saved.get("chain", ()))
    return Finding(
        str(saved["path"]), int(saved["line"]), int(saved["end_line"]), str(saved["rule"]),
        str(saved.get("severity", "")), chain,
    )  # fmt: skip


def _load_runs(path: Path) -> dict[str, list[Run]]:
    """The runs of an earlier ``--json`` output, by CVE id."""
    data = json.loads(path.read_text(encoding="utf-8"))
    runs: dict[str, list[Run]] = {}
    for item in data:
        runs[item["cve"]["id"]] = [
            Run(
                tool=run["tool"],
                release=run["release"],
                seconds=float(run["seconds"]),
                findings=[_saved_finding(finding) for finding in run["findings"]],
                error=run["error"],
                note=run["note"],
            )
            for run in item["runs"]
        ]
    return runs


def measure(cve: Cve, options: Options, earlier: list[Run] | None = None) -> Result:
    result = Result(cve)
    print(f"{cve.id} {cve.package} {cve.vulnerable} -> {cve.fixed}", file=sys.stderr)
    try:
        trees = {
            "vulnerable": fetch_sdist(cve.package, cve.vulnerable, options.cache),
            "fixed": fetch_sdist(cve.package, cve.fixed, options.cache),
        }
        versions = {"vulnerable": cve.vulnerable, "fixed": cve.fixed}
        pythons = {
            release: environment(cve.package, versions[release], cve.dependencies, options.cache)
            for release in trees
        }
    except (ToolError, OSError, tarfile.TarError, zipfile.BadZipFile) as error:
        result.problem = str(error)
        print(f"  cannot prepare: {error}", file=sys.stderr)
        return result
    if not (trees["vulnerable"] / cve.path).is_file():
        result.problem = f"{cve.path} is not in the vulnerable sdist"
        return result
    if earlier is not None:
        result.runs = [run for run in earlier if run.tool in options.tools]
    else:
        for release, tree in trees.items():
            result.runs += measure_release(cve, release, tree, pythons[release], options)
    vulnerable = locate(trees["vulnerable"], cve.path, cve.line)
    if cve.fixed_line is not None:
        fixed: Place | None = locate(trees["fixed"], cve.fixed_path, cve.fixed_line)
    else:
        fixed = near_in_fixed(cve, vulnerable, trees["fixed"])
    by_key = {(run.tool, run.release): run for run in result.runs}
    result.verdicts = [judge(cve, tool, by_key, vulnerable, fixed) for tool in options.tools]
    return result


# ----------------------------------------------------------------------------- the report


def _cell(verdict: Verdict) -> str:
    before = verdict.vulnerable
    if before == "found" and verdict.rules:
        before = f"found ({', '.join(verdict.rules)})"
    after = verdict.fixed
    if after == "flag stays" and verdict.fixed_rules:
        after = f"flag stays ({', '.join(verdict.fixed_rules)})"
    return f"{before} / {after}".replace("|", "\\|")


SECTION = "## Published CVEs (held out)"
INTRO = (
    "Generated by `python scripts/cve_benchmark.py --write BENCHMARKS.md` (`--reuse` judges "
    "saved runs again). The corpus and how each entry was checked: `benchmarks/cves/`. A tool "
    "finds a CVE when it reports a finding of the family on the vulnerable statement (a "
    "typing-literalstring finding at a wrapper's caller also when its chain through the "
    'wrapper goes through that statement); "flag stays" means it still reports there on the '
    "fixed release."
)


def write_section(path: Path, rendered: str) -> None:
    """Replace (or add) the CVE section of ``path``; the rest of the file is kept."""
    text = path.read_text("utf-8") if path.exists() else ""
    body = f"{SECTION}\n\n{INTRO}\n\n{rendered.strip()}\n"
    start = text.find(SECTION)
    if start < 0:
        text = text.rstrip("\n") + "\n\n" + body
    else:
        # To the next heading, or to the marker that opens another script's section
        # (scripts/unseen.py's sits on the line before its heading).
        ends = [text.find(m, start + len(SECTION)) for m in ("\n## ", "\n<!-- scripts/")]
        end = min((e for e in ends if e >= 0), default=-1)
        text = text[:start] + body + (text[end:] if end >= 0 else "")
    path.write_text(text, "utf-8")


def render(results: Sequence[Result], tools: Sequence[str], seconds: float) -> str:
    lines = [
        "Each cell: vulnerable release (found / missed, with the rules on the sink) / fixed "
        "release (flag stays, or -).",
        "",
        "| CVE | package | family | " + " | ".join(tools) + " |",
        "|---|---|---|" + "---|" * len(tools),
    ]
    for result in results:
        cve = result.cve
        if result.problem:
            cells = [f"error: {result.problem}"] * len(tools)
        else:
            cells = [_cell(v) for v in result.verdicts]
        lines.append(
            f"| {cve.id} | {cve.package} {cve.vulnerable} -> {cve.fixed} | {cve.family} | "
            + " | ".join(cells)
            + " |"
        )
    lines += [
        "",
        "| tool | found | flag stays on fixed | of which the fix changed the statement | errors "
        "| findings on the vulnerable trees | findings on the fixed trees | seconds |",
        "|---|---|---|---|---|---|---|---|",
    ]
    total = len(results)
    for index, tool in enumerate(tools):
        verdicts = [r.verdicts[index] for r in results if not r.problem]
        found = sum(1 for v in verdicts if v.vulnerable == "found")
        stays = sum(1 for v in verdicts if v.fixed == "flag stays")
        # A flag is wrong only where the fix changed the statement (no fixed_line recorded):
        # where it left the statement in place (and fixed its input), a flag there is fair.
        wrong = sum(
            1
            for r in results
            if not r.problem
            and r.verdicts[index].fixed == "flag stays"
            and r.cve.fixed_line is None
        )
        errors = sum(
            1 for v in verdicts if v.vulnerable.startswith("error") or v.fixed.startswith("error")
        ) + sum(1 for r in results if r.problem)
        runs = [run for r in results for run in r.runs if run.tool == tool and not run.error]
        before = [run for run in runs if run.release == "vulnerable"]
        after = [run for run in runs if run.release == "fixed"]
        count_before = str(sum(len(run.findings) for run in before))
        count_after = str(sum(len(run.findings) for run in after))
        if tool == "bandit":
            serious = sum(
                1 for run in before for f in run.findings if f.severity in ("MEDIUM", "HIGH")
            )
            count_before += f" ({serious} MEDIUM/HIGH)"
            serious = sum(
                1 for run in after for f in run.findings if f.severity in ("MEDIUM", "HIGH")
            )
            count_after += f" ({serious} MEDIUM/HIGH)"
        spent = sum(run.seconds for r in results for run in r.runs if run.tool == tool)
        if all(run.error == "n/a" for r in results for run in r.runs if run.tool == tool):
            lines.append(f"| {tool} | n/a | n/a | n/a | n/a | n/a | n/a | {spent:.0f} |")
            continue
        lines.append(
            f"| {tool} | {found} of {total} | {stays} | {wrong} | {errors} | {count_before} | "
            f"{count_after} | {spent:.0f} |"
        )
    notes = sorted(
        {f"{run.tool}: {run.note}" for r in results for run in r.runs if run.error == "n/a"}
    )
    if seconds >= 0:
        lines += ["", f"Total time {seconds:.0f}s (including downloads and environments)."]
    lines += [f"Note: {note}" for note in notes if not note.endswith(": ")]
    return "\n".join(lines)


def to_json(results: Sequence[Result]) -> list[dict[str, Any]]:
    out: list[dict[str, Any]] = []
    for result in results:
        item: dict[str, Any] = {"cve": asdict(result.cve), "problem": result.problem}
        item["verdicts"] = [asdict(v) for v in result.verdicts]
        item["runs"] = [asdict(run) for run in result.runs]
        out.append(item)
    return out


def _default_tool(name: str) -> str:
    local = Path(sys.executable).parent / name
    if local.is_file():
        return str(local)
    project = ROOT / ".venv" / "bin" / name
    return str(project) if project.is_file() else name


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--corpus", type=Path, default=CORPUS)
    parser.add_argument("--cache", type=Path, default=DEFAULT_CACHE)
    parser.add_argument("--only", action="append", default=[], metavar="ID",
                        help="only this CVE (repeatable)")  # fmt: skip
    parser.add_argument("--tools", default=",".join(TOOLS),
                        help=f"comma-separated, from {', '.join(TOOLS)}")  # fmt: skip
    parser.add_argument(
        "--tool-command",
        default=_default_tool("typing-literalstring"),
        help="the typing-literalstring command (to compare another checkout)",
    )
    parser.add_argument("--bandit", default=_default_tool("bandit"))
    parser.add_argument("--ruff", default=_default_tool("ruff"))
    parser.add_argument("--semgrep-rules", type=Path, default=None,
                        help="semgrep rules folder (default: benchmarks/cves/semgrep-rules/python,"
                             " else <cache>/semgrep-rules/python)")  # fmt: skip
    parser.add_argument("--timeout", type=float, default=TIMEOUT, help="seconds per tool run")
    parser.add_argument("--json", type=Path, default=None, metavar="OUT")
    parser.add_argument(
        "--write",
        type=Path,
        default=None,
        metavar="MARKDOWN",
        help=f"also put the tables in this file's section {SECTION!r} (BENCHMARKS.md)",
    )
    parser.add_argument(
        "--reuse",
        type=Path,
        default=None,
        metavar="JSON",
        help="judge the runs saved by an earlier --json instead of running the tools again",
    )
    args = parser.parse_args(argv)

    tools = tuple(t.strip() for t in str(args.tools).split(",") if t.strip())
    unknown = [t for t in tools if t not in TOOLS]
    if unknown:
        parser.error(f"unknown tools: {', '.join(unknown)} (known: {', '.join(TOOLS)})")
    cves = load_corpus(args.corpus)
    if args.only:
        wanted = {i.upper() for i in args.only}
        cves = [c for c in cves if c.id.upper() in wanted]
        if not cves:
            parser.error(f"no CVE {', '.join(args.only)} in {args.corpus}")
    cache: Path = args.cache.expanduser()
    cache.mkdir(parents=True, exist_ok=True)
    semgrep: Path | None = None
    rules: Path | None = None
    problem = ""
    if "semgrep" in tools:
        rules = semgrep_rules(args.semgrep_rules, cache)
        if rules is None:
            problem = "no semgrep rules folder (see benchmarks/cves/README.md)"
        else:
            semgrep, problem = semgrep_program(cache)
        if problem:
            print(f"semgrep cannot run: {problem}", file=sys.stderr)
    options = Options(
        cache=cache,
        tools=tools,
        tool_command=tuple(shlex.split(str(args.tool_command))),
        bandit=str(args.bandit),
        ruff=str(args.ruff),
        semgrep=semgrep,
        semgrep_rules=rules,
        semgrep_problem=problem,
        timeout=float(args.timeout),
    )
    started = time.perf_counter()
    earlier = _load_runs(args.reuse) if args.reuse is not None else {}
    if args.reuse is not None:
        missing = [cve.id for cve in cves if cve.id not in earlier]
        if missing:
            parser.error(f"{args.reuse} has no runs for {', '.join(missing)}")
    results = [measure(cve, options, earlier.get(cve.id)) for cve in cves]
    spent = time.perf_counter() - started if args.reuse is None else -1.0
    rendered = render(results, tools, spent)
    if args.reuse is not None:
        rendered += f"\nJudged from the runs saved in {args.reuse.name}; the seconds are theirs.\n"
    print(rendered)
    if args.write is not None:
        write_section(args.write, rendered)
    if args.json is not None:
        args.json.write_text(json.dumps(to_json(results), indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
