"""One small class per type checker: how to find it, run it with an overlay wired in, and read it.

Each checker honours a different mechanism for replacing a standard-library stub (measured in
shared/FACTS.md): mypy and zuban read ``MYPYPATH``, pyright and basedpyright a ``stubPath``, ty an
``--extra-search-path``, and pyrefly only a complete replacement typeshed.  The classes hide that,
so callers say "run this checker on these files for this Python, with this overlay" and get back
a list of :class:`Diagnostic`.
"""

from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from abc import ABC, abstractmethod
from dataclasses import dataclass
from importlib.util import find_spec
from pathlib import Path
from typing import ClassVar, Mapping, Sequence

from . import mypy_config
from .entry import deferred_signals, raise_if_interrupted
from .errors import CheckerFailedError, CheckerNotFoundError

_VERSION_PATTERN = re.compile(r"\d+\.\d+(?:\.\d+)*")


@dataclass(frozen=True, order=True)
class Diagnostic:
    """One message of a checker, with the position normalised (1-based line and column)."""

    path: str
    line: int
    column: int
    severity: str
    message: str
    code: str = ""


@dataclass(frozen=True)
class Refusal:
    """Why a checker refuses a file: a folder whose name it cannot use in a module name."""

    folder: Path
    module: str = ""  # when set: the file would become this top-level module, already taken


@dataclass(frozen=True)
class RunResult:
    diagnostics: list[Diagnostic]
    exit_code: int
    output: str


_VERSION_OF: dict[tuple[str, ...], str] = {}


class Checker(ABC):
    """What the rest of the project needs to know about one type checker."""

    name: ClassVar[str]
    # The PyPI distribution that installs it: named in "not installed" messages.
    distribution: ClassVar[str]
    # Oldest and newest Python target this checker version type-checks for.
    oldest_target: ClassVar[tuple[int, int]] = (3, 8)
    newest_target: ClassVar[tuple[int, int]] = (3, 14)
    # The checker's own typeshed, relative to its installed Python package; None when the
    # typeshed is compiled into the binary.
    bundled_typeshed: ClassVar[str | None] = None
    # Whether an overlay must be a complete typeshed (stdlib/ and VERSIONS) rather than only
    # the replaced modules.
    needs_full_typeshed: ClassVar[bool] = False
    # The exit codes that mean "ran to completion" (with or without errors).
    ok_exit_codes: ClassVar[tuple[int, ...]] = (0, 1)

    def executable(self) -> list[str]:
        """The command prefix that starts the checker, from this Python environment first."""
        scripts = Path(sys.executable).parent
        for candidate in (scripts / self.name, scripts / (self.name + ".exe")):
            if candidate.is_file():
                return [str(candidate)]
        found = _which(self.name)
        if found is None:
            raise CheckerNotFoundError(
                f"{self.name} is not installed: install it with "
                f"`{Path(sys.executable).name} -m pip install {self.distribution}`"
            )
        return [found]

    def is_installed(self) -> bool:
        try:
            self.executable()
        except CheckerNotFoundError:
            return False
        return True

    def version(self) -> str:
        """The checker's version; asked once per executable (pyright's start costs 0.3 s)."""
        command = tuple(self.executable())
        if command not in _VERSION_OF:
            _VERSION_OF[command] = self._ask_version()
        return _VERSION_OF[command]

    def _ask_version(self) -> str:
        command = [*self.executable(), "--version"]
        # Run away from the working folder, which may be the checked project.
        proc = self._start(command, cwd=Path(tempfile.gettempdir()), env={})
        match = _VERSION_PATTERN.search(proc.stdout + proc.stderr)
        killed = self.killed_by(proc.returncode)
        if killed is not None:
            raise CheckerFailedError(f"`{self.name} --version` {_killed(killed)}")
        if proc.returncode != 0 or match is None:
            raise CheckerFailedError(
                f"`{self.name} --version` failed (exit {proc.returncode}): "
                f"{(proc.stdout + proc.stderr).strip()}"
            )
        return match.group(0)

    def typeshed_dir(self) -> Path:
        """The checker's own bundled typeshed (the folder holding ``stdlib/``)."""
        if self.bundled_typeshed is None:
            raise CheckerFailedError(
                f"{self.name} has its typeshed compiled into its binary; "
                "build its overlay from another checker's typeshed"
            )
        package = self.bundled_typeshed.split("/", 1)[0]
        spec = find_spec(package)
        if spec is None or not spec.submodule_search_locations:
            raise CheckerNotFoundError(
                f"{self.name}'s Python package is not importable from {sys.executable}: install "
                f"it there with `pip install {self.distribution}`"
            )
        root = Path(next(iter(spec.submodule_search_locations))).parent / self.bundled_typeshed
        if not (root / "stdlib" / "builtins.pyi").is_file():
            raise CheckerFailedError(
                f"{self.name}'s bundled typeshed is not at {root} (no stdlib/builtins.pyi there); "
                "its layout may have changed: reinstall it or report this"
            )
        return root

    def overlay_base(self) -> Path:
        """The typeshed this checker's overlay is built from.

        Its own where it has one on disk, so the overlay matches its version.  ty and pyrefly
        compile theirs into the binary; for them it is pyright's (or basedpyright's), the
        typeshed closest to theirs that ships as files.
        """
        if self.bundled_typeshed is not None:
            return self.typeshed_dir()
        for donor in DONORS:
            checker = CHECKERS[donor]
            if find_spec(donor) is not None:
                return checker.typeshed_dir()
        raise CheckerNotFoundError(
            f"{self.name} has no typeshed files of its own, and neither "
            f"{' nor '.join(DONORS)} is installed to build its overlay from: install one with "
            f"`pip install {CHECKERS[DONORS[0]].distribution}`, or pass a typeshed folder"
        )

    def supports_target(self, target: str) -> bool:
        major, minor = (int(part) for part in target.split("."))
        return self.oldest_target <= (major, minor) <= self.newest_target

    def run(
        self,
        files: Sequence[Path],
        *,
        python_version: str | None,
        overlay: Path | None = None,
        workdir: Path,
        extra_paths: Sequence[Path] = (),
        project: Path | None = None,
        python: Path | None = None,
        platform: str | None = None,
        incremental_cache: Path | None = None,
    ) -> RunResult:
        """Check ``files`` for ``python_version`` with ``overlay`` wired in (``None``: stock).

        ``workdir`` is an empty folder the checker may write its configuration and cache to.
        With ``project`` unset the run is isolated: no user configuration is read.  With
        ``project`` set, the checker runs there and reads the project's configuration, and our
        settings are layered on top; the project's files are never changed.
        ``python_version`` None leaves the target to the project's configuration.
        ``python`` is the interpreter whose packages resolve imports (default: ours).
        ``platform`` is the ``sys.platform`` to check for (``PLATFORMS``; default: the
        checker's, that is, the machine's).
        """
        workdir.mkdir(parents=True, exist_ok=True)
        invocation = Invocation(
            files=[f.resolve() for f in files],
            python_version=python_version,
            overlay=overlay.resolve() if overlay is not None else None,
            extra_paths=[p.resolve() for p in extra_paths],
            workdir=workdir.resolve(),
            project=project.resolve() if project is not None else None,
            python=python if python is not None else Path(sys.executable),
            platform=platform,
            incremental_cache=incremental_cache,
        )
        command, env = self.command(invocation)
        proc = self._start(command, cwd=invocation.cwd, env=env)
        output = proc.stdout + proc.stderr
        killed = self.killed_by(proc.returncode)
        if killed is not None:
            said = f"; it said: {self.failure(output)}" if output.strip() else ""
            raise CheckerFailedError(f"{self.name} {_killed(killed)}{said}")
        if proc.returncode not in self.ok_exit_codes:
            raise CheckerFailedError(
                f"{self.name} failed (exit {proc.returncode}): {self.failure(output)}"
            )
        self._refuse_unanalysed(invocation.files, proc.stdout, output)
        try:
            diagnostics = self.parse(proc.stdout, invocation.cwd)
        except (ValueError, KeyError) as error:
            raise CheckerFailedError(
                f"could not read {self.name}'s output ({error}):\n{output.strip()[-4000:]}"
            ) from error
        if proc.returncode == 1 and not diagnostics:
            # 1 is "errors found" for every checker, and also what Python exits with when it
            # cannot start (a broken environment: "Fatal Python error"): with no error read,
            # the run checked nothing we know of.
            raise CheckerFailedError(
                f"{self.name} exited with status 1, which says it found errors, but reported "
                f"none that we could read: {self.failure(output)}"
            )
        return RunResult(sorted(diagnostics), proc.returncode, output)

    def _start(
        self, command: Sequence[str], *, cwd: Path, env: Mapping[str, str]
    ) -> subprocess.CompletedProcess[str]:
        try:
            return _run_process(command, cwd=cwd, env=_child_environment(env))
        except OSError as error:
            raise CheckerFailedError(
                f"could not start {self.name} ({command[0]}): {error}"
            ) from error

    # Whether the command is a Python script that runs the checker in a child process and
    # exits with that child's status, as ``sys.exit(-9)`` does: 247 for a SIGKILL.
    exits_with_child_signal: ClassVar[bool] = False

    def killed_by(self, returncode: int) -> int | None:
        """The signal that stopped the checker, if a signal did."""
        if returncode < 0:
            return -returncode
        if self.exits_with_child_signal and 256 - _HIGHEST_SIGNAL <= returncode < 256:
            return 256 - returncode
        return None

    # What the checker reports about the number of files it analysed; None: nothing (the run
    # cannot be cross-checked).
    def analysed(self, stdout: str, output: str) -> int | None:
        """How many files the checker says it analysed, when it says so."""
        return None

    # Why a checker analyses fewer files than it was given, for the error message.
    fewer_files_cause: ClassVar[str] = "a broken installation"

    def _refuse_unanalysed(self, files: Sequence[Path], stdout: str, output: str) -> None:
        """A checker that analysed fewer files than it was given reported nothing about the
        others, which would read as "no findings" there: stop instead."""
        analysed = self.analysed(stdout, output)
        if analysed is None:
            return
        given = set(files)
        folders = sum(1 for f in given if f.is_dir())
        # A folder counts as at least one file: the checker found nothing in it otherwise.
        expected = len(given) - folders + (1 if folders else 0)
        if analysed >= expected:
            return
        described = _count(len(given) - folders, "file") + (
            f" and {_count(folders, 'folder')}" if folders else ""
        )
        raise CheckerFailedError(
            f"{self.name} analysed {analysed} of the {described} it was given, and said nothing "
            f"about the others; likely cause: {self.fewer_files_cause}.  Find what excludes "
            f"them, or reinstall {self.name} with `pip install --force-reinstall "
            f"{self.distribution}`"
        )

    def unnameable(self, files: Sequence[Path], roots: Sequence[Path]) -> dict[Path, Refusal]:
        """The files this checker refuses to check at all, each with the folder to blame."""
        return {}

    # Whether the checker still checks the other files when one has a syntax error (measured:
    # pyright, basedpyright, ty and zuban do; mypy stops, pyrefly reported only the parse error).
    checks_past_syntax_errors: ClassVar[bool] = False
    # Whether its "no overload matches" says nothing of the overloads' parameter types, so that
    # check reveals the callee's type (pyrefly's full message and zuban's notes name them).
    reveals_overload_callees: ClassVar[bool] = False

    def failure(self, output: str) -> str:
        """What to tell the user when the checker stopped without checking."""
        return output.strip()[-4000:]

    @abstractmethod
    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        """The command line and extra environment for one run."""

    @abstractmethod
    def parse(self, stdout: str, cwd: Path) -> list[Diagnostic]:
        """Turn the checker's output into diagnostics with absolute paths."""


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


# The highest signal number on the platforms we run on (Linux's SIGRTMAX).
_HIGHEST_SIGNAL = 64


def _killed(signum: int) -> str:
    """How a checker stopped by ``signum`` is reported, with what to do about it."""
    try:
        name = signal.Signals(signum).name
    except ValueError:
        name = f"signal {signum}"
    if signum == getattr(signal, "SIGKILL", None):
        # The kernel's out-of-memory killer sends SIGKILL, and nothing says it did.
        return (
            "was killed (SIGKILL), perhaps out of memory: check fewer files at a time, or give "
            "it more memory"
        )
    return f"was killed by {name} ({signum}): run it again; if it recurs, report it to its authors"


def _which(name: str) -> str | None:
    """``name`` in a folder of PATH, like ``shutil.which`` but only in absolute folders.

    An empty or relative entry of PATH (``.``, ``bin``) names a folder under the working one,
    which may be the checked project, and so does the current folder Windows searches first:
    a program there belongs to the project, not to the user.
    """
    suffixes = [""]
    if sys.platform == "win32":
        suffixes = [s for s in os.environ.get("PATHEXT", ".COM;.EXE;.BAT;.CMD").split(";") if s]
    for folder in os.environ.get("PATH", os.defpath).split(os.pathsep):
        if not folder or not os.path.isabs(folder):
            continue
        for suffix in suffixes:
            candidate = os.path.join(folder, name + suffix)
            if os.path.isfile(candidate) and os.access(candidate, os.X_OK):
                return candidate
    return None


def _child_environment(extra: Mapping[str, str]) -> dict[str, str]:
    """The environment of a checker: ours, made independent of the folder it runs in."""
    env = {**os.environ, **extra}
    # Python 3.11 and newer put no working folder first on sys.path of a child interpreter:
    # the ones the checkers start to ask for its search paths (pyright, basedpyright,
    # pyrefly, mypy's pyinfo for another interpreter) run from a folder that may be the
    # checked project, whose json.py or os.py would otherwise run.
    env["PYTHONSAFEPATH"] = "1"
    # The checker's own temporary files (pyright's pyright-<pid>-* folder, which a killed node
    # cannot remove) go where ours do: in the command's private folder (entry.main), removed
    # with it whatever stops the run.
    for name in ("TMPDIR", "TEMP", "TMP"):
        env[name] = tempfile.gettempdir()
    # Relative and empty entries name folders under the working one, which may be the
    # project: a `node` or module there is the project's code.  Absolute entries stay.
    for name in ("PATH", "PYTHONPATH"):
        if name in env:
            kept = [p for p in env[name].split(os.pathsep) if p and os.path.isabs(p)]
            if kept:
                env[name] = os.pathsep.join(kept)
            else:
                del env[name]
    return env


def _run_process(
    command: Sequence[str], *, cwd: Path, env: Mapping[str, str]
) -> subprocess.CompletedProcess[str]:
    """Run a checker to completion and collect its output; on any exception (an interrupt
    above all) kill it with every process it started, and wait for them.

    The checker runs in a session of its own (POSIX), so its process group holds it and its
    children: the `pyright` command is a Python script that starts node, and killing the
    script alone would leave node running.  A terminal's Ctrl-C then reaches us alone, and we
    stop the checker.
    """
    raise_if_interrupted()
    process: subprocess.Popen[str] | None = None
    try:
        # Held until Popen returns: an interrupt inside it would leave a process no one knows.
        with deferred_signals():
            process = subprocess.Popen(
                command,
                cwd=cwd,
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                text=True,
                errors="replace",
                start_new_session=os.name == "posix",
            )
        stdout, stderr = process.communicate()
    except BaseException:
        if process is not None:
            _kill_group(process)
        raise
    # A signal whose exception a finaliser swallowed still stops the run.
    raise_if_interrupted()
    return subprocess.CompletedProcess(command, process.returncode, stdout, stderr)


def _kill_group(process: subprocess.Popen[str]) -> None:
    """Kill ``process`` and its process group, and reap it (it cannot ignore SIGKILL)."""
    with deferred_signals():  # a second interrupt must not leave the group half-killed
        if hasattr(os, "killpg"):
            with contextlib.suppress(ProcessLookupError, PermissionError):  # already gone
                os.killpg(process.pid, signal.SIGKILL)
        else:  # Windows: no process groups to kill; the child itself
            process.kill()
        for pipe in (process.stdout, process.stderr):
            if pipe is not None:
                pipe.close()
        process.wait()


# The platforms `check --platform` offers, as `sys.platform` names them; pyright spells them
# its own way and checks one per run (docs/checker-facts.md).
PLATFORMS = ("linux", "darwin", "win32")
_PYRIGHT_PLATFORMS = {"linux": "Linux", "darwin": "Darwin", "win32": "Windows"}


@dataclass(frozen=True)
class Invocation:
    """One run of a checker, as the adapters see it (all paths absolute)."""

    files: Sequence[Path]
    python_version: str | None
    overlay: Path | None
    extra_paths: Sequence[Path]
    workdir: Path
    project: Path | None
    python: Path = Path(sys.executable)  # the environment whose packages resolve imports
    platform: str | None = None  # the sys.platform checked for; None: the checker's default
    # A folder kept from one check to the next for the checker's incremental cache (mypy's);
    # None: a fresh one in workdir.
    incremental_cache: Path | None = None

    @property
    def cwd(self) -> Path:
        return self.project or self.workdir

    def search_path(self) -> str:
        """Overlay first, then the extra paths, as MYPYPATH wants them."""
        paths = [*([self.overlay] if self.overlay else []), *self.extra_paths]
        return os.pathsep.join(str(p) for p in paths)


@functools.lru_cache(maxsize=4096)
def _absolute(path: str, cwd: Path) -> str:
    """Each file's path resolved once: a checker reports many errors per file."""
    return str((cwd / path).resolve())


_MYPY_STYLE_LINE = re.compile(
    r"^(?P<path>[^\n:]+):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning|note): "
    r"(?P<message>.*?)(?:  \[(?P<code>[a-z0-9-]+)\])?$"
)


def _mypy_style(stdout: str, cwd: Path) -> list[Diagnostic]:
    diagnostics: list[Diagnostic] = []
    for line in stdout.splitlines():
        match = _MYPY_STYLE_LINE.match(line)
        if match is not None:
            diagnostics.append(
                Diagnostic(
                    path=_absolute(match["path"], cwd),
                    line=int(match["line"]),
                    column=int(match["column"]),
                    severity=match["severity"],
                    message=match["message"],
                    code=match["code"] or "",
                )
            )
    return diagnostics


def _mypy_main(*outside: Path | None) -> list[str]:
    """Our interpreter running mypy, isolated from the folder it runs in.

    ``-I``: neither the working folder (which may be the checked project, with its own
    json.py or typing_extensions.py) nor PYTHONPATH nor the user's site-packages go on
    sys.path.  Our own sys.path is then added back after the interpreter's own entries, so
    mypy and our plugin are found wherever we found them (the user's site-packages, a
    PYTHONPATH folder) -- less '' and the folders in ``outside`` (our working folder, the
    project): added last, an entry cannot hide a module of the standard library or of
    site-packages anyway.
    """
    excluded = {os.path.normcase(os.path.abspath(p)) for p in (os.getcwd(), *outside) if p}
    ours = [
        os.path.abspath(entry)
        for entry in sys.path
        if entry and os.path.normcase(os.path.abspath(entry)) not in excluded
    ]
    code = (
        f"import sys; sys.path.extend(p for p in {ours!a} if p not in sys.path); "
        "sys.argv[0] = 'mypy'; from mypy.__main__ import console_entry; console_entry()"
    )
    return [sys.executable, "-I", "-c", code]


class Mypy(Checker):
    name = "mypy"
    distribution = "mypy"
    # mypy 2.x refuses `--python-version` below 3.10.
    oldest_target = (3, 10)
    bundled_typeshed = "mypy/typeshed"
    # No analysed(): with --output=json mypy prints no summary, so no count of the files it
    # checked.  Measured: it checks every file named on its command line, whatever an
    # `exclude` says, and stops with status 2 when it has none.

    def executable(self) -> list[str]:
        if find_spec("mypy") is None:
            raise CheckerNotFoundError(
                f"mypy is not installed: install it with `{Path(sys.executable).name} -m pip "
                "install mypy`"
            )
        # Not `-m mypy`: that puts the working folder first on sys.path, and a project's own
        # types.py or json.py would then run, or break the interpreter before mypy starts.
        return _mypy_main()

    def unnameable(self, files: Sequence[Path], roots: Sequence[Path]) -> dict[Path, Refusal]:
        """mypy names each module after the folders above it, as its find_sources crawls up
        (namespace packages on, the roots as explicit package bases), and stops the whole run
        on two things that plain ``mypy .`` stops on too:

        - a folder that holds ``__init__.py`` under a name that is not an identifier
          (borgmatic 2.1.10's ``tests/end-to-end``);
        - a file below a folder whose name is not an identifier, which becomes a top-level
          module and may take a name already used (invoke 3.0.3's
          ``tests/_support/configs/all-four/invoke.py``: "Duplicate module named invoke").
        """
        bases = {r.resolve() for r in roots}
        refused: dict[Path, Refusal] = {}
        stopped: dict[Path, Path] = {}  # file -> the non-identifier folder its crawl stopped at
        modules: dict[str, list[Path]] = {}
        for file in files:
            folder = file.resolve().parent
            parts = [] if file.stem == "__init__" else [file.stem]
            while folder not in bases and folder.parent != folder:
                name = (
                    folder.name[: -len("-stubs")] if folder.name.endswith("-stubs") else folder.name
                )
                if not name.isidentifier():
                    if any((folder / f"__init__{s}").is_file() for s in (".py", ".pyi")):
                        refused[file] = Refusal(folder, "")
                    else:
                        stopped[file] = folder
                    break
                parts.insert(0, name)
                folder = folder.parent
            if file not in refused:
                modules.setdefault(".".join(parts), []).append(file)
        for module, named in modules.items():
            if len(named) > 1:
                for file in named:
                    if file in stopped:
                        refused[file] = Refusal(stopped[file], module)
        return refused

    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        self.executable()  # raises with the install hint
        command = [
            *_mypy_main(run.cwd, run.project),
            "--output=json",
            f"--cache-dir={run.incremental_cache or run.workdir / 'mypy-cache'}",
            f"--python-executable={run.python}",
        ]
        if run.project is None:
            command.append("--config-file=")  # isolated: no user configuration
            # Application code is full of unannotated handlers: check their bodies too.  Module
            # names come from the search path (the project root), so folders without
            # __init__.py (namespace packages, plugin folders) do not stop mypy.
            command += ["--check-untyped-defs", "--explicit-package-bases"]
        else:
            # The project's configuration (doctor), less what would run the project's code or
            # write outside it (mypy_config.py).  None: mypy looks further, as it would.
            found = mypy_config.find(run.project)
            if found is not None:
                config = mypy_config.write_reduced(found, run.workdir)
                command.append(f"--config-file={config}")
        if run.python_version is not None:
            command.append(f"--python-version={run.python_version}")
        if run.platform is not None:
            command.append(f"--platform={run.platform}")
        command.extend(str(f) for f in run.files)
        # MYPYPATH comes before the configuration's mypy_path, which keeps working.
        return command, {"MYPYPATH": run.search_path()} if run.search_path() else {}

    def failure(self, output: str) -> str:
        # mypy prints JSON lines or its usage text: say the one line that matters.  An error
        # that stops mypy ("Source file found twice under different module names") comes
        # after the ordinary errors it found until then: the last error is the one.
        said: list[str] = []
        errors: list[str] = []
        for line in output.splitlines():
            if line.startswith("{"):
                try:
                    item = json.loads(line)
                except ValueError:
                    continue
                where = f"{item['file']}: " if item.get("file") else ""
                message = f"{where}{item.get('message', '')}"
                said.append(message)
                if item.get("severity") == "error":
                    errors.append(message)
            elif line.strip() and not line.startswith(("usage:", " ")):
                said.append(line.strip())
        first = errors[-1] if errors else next((s for s in said if s), "no message")
        return (
            f"{first} (a target Python older than this mypy supports needs --python-version "
            f"{'.'.join(map(str, self.oldest_target))} or newer)"
            if "python_version" in first.lower() or "python version" in first.lower()
            else first
        )

    def parse(self, stdout: str, cwd: Path) -> list[Diagnostic]:
        diagnostics: list[Diagnostic] = []
        for line in stdout.splitlines():
            if not line.startswith("{"):
                continue
            item = json.loads(line)
            diagnostics.append(
                Diagnostic(
                    path=_absolute(item["file"], cwd),
                    line=int(item["line"]),
                    column=int(item["column"]) + 1,
                    severity=str(item["severity"]),
                    message=str(item["message"]),
                    code=str(item["code"] or ""),
                )
            )
        return diagnostics


class MypyPlugin(Mypy):
    """mypy with this project's plugin (``typing_literalstring.mypy``), which enforces PEP 675.

    An isolated run enables the plugin in a configuration of its own; a run in a project reads
    the project's configuration, where ``init --checker mypy`` enables it.
    """

    name = "mypy+plugin"
    distribution = "typing-literalstring[mypy]"
    plugin_module = "typing_literalstring.mypy"
    # The error code of the plugin's own failure on a module (marker.PLUGIN_FAILURE).
    failure_code = "literal-string-plugin"

    def is_installed(self) -> bool:
        return super().is_installed() and find_spec(self.plugin_module) is not None

    def plugin_problem(self) -> str | None:
        """Why the plugin cannot run under the installed mypy; None when it can."""
        from .mypy import unsupported

        return unsupported(self.version())

    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        command, env = super().command(run)
        if run.project is None:
            # Isolated: a configuration that holds nothing but the plugin.
            config = run.workdir / "mypy-plugin.ini"
            config.write_text(f"[mypy]\nplugins = {self.plugin_module}\n", encoding="utf-8")
            command[command.index("--config-file=")] = f"--config-file={config}"
        return command, env


class Pyright(Checker):
    name = "pyright"
    checks_past_syntax_errors = True
    reveals_overload_callees = True
    distribution = "pyright[nodejs]"
    bundled_typeshed = "pyright/dist/dist/typeshed-fallback"
    # Where a project keeps its pyright settings, in the order pyright itself looks.
    project_configs = ("pyrightconfig.json", "pyproject.toml")
    pyproject_section = "[tool.pyright]"
    # The `pyright` command is pyright-python's script, which runs node and exits with its
    # status: 247 when node was killed by SIGKILL.
    exits_with_child_signal = True
    fewer_files_cause = (
        "an `exclude` of the configuration it read, or its default excludes (**/node_modules, "
        "**/__pycache__, **/.*) matching a folder above the files, or a broken installation"
    )

    def analysed(self, stdout: str, output: str) -> int | None:
        # Measured: filesAnalyzed counts each distinct file given, .py and .pyi alike, and
        # those with a syntax error; an excluded one is left out, with exit status 0.
        try:
            return int(json.loads(stdout)["summary"]["filesAnalyzed"])
        except (ValueError, KeyError, TypeError):
            return None  # parse() says what is wrong with the output

    def project_config(self, project: Path) -> Path | None:
        json_config = project / self.project_configs[0]
        if json_config.is_file():
            return json_config
        pyproject = project / "pyproject.toml"
        if pyproject.is_file() and self.pyproject_section in pyproject.read_text("utf-8"):
            return pyproject
        return None

    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        config: dict[str, object] = {}
        if run.project is not None:
            base = self.project_config(run.project)
            if base is not None:
                # Our settings on top of the project's own (pyright resolves the paths in the
                # extended file relative to it); the project's files stay untouched.
                config["extends"] = str(base)
            # The configuration lives in our work folder, so name the project as a search root.
            config["extraPaths"] = [str(run.project), *map(str, run.extra_paths)]
        else:
            config["typeCheckingMode"] = "standard"
            config["extraPaths"] = [str(p) for p in run.extra_paths]
        if run.python_version is not None:
            config["pythonVersion"] = run.python_version
        if run.platform is not None:
            config["pythonPlatform"] = _PYRIGHT_PLATFORMS[run.platform]
        if run.overlay is not None:
            config["stubPath"] = str(run.overlay)
        elif run.project is None:
            # Where stubPath is unset, pyright looks in ./typings: point it at a folder that
            # holds nothing, so no stub can replace a module in an isolated run.
            config["stubPath"] = str(run.workdir / "no-stubs")
        config_file = run.workdir / f"{self.name}config.json"
        config_file.write_text(json.dumps(config, indent=2), encoding="utf-8")
        command = [
            *self.executable(),
            "--outputjson",
            "--project",
            str(config_file),
            "--pythonpath",
            str(run.python),
            *(str(f) for f in run.files),
        ]
        return command, {}

    def parse(self, stdout: str, cwd: Path) -> list[Diagnostic]:
        report = json.loads(stdout)
        diagnostics: list[Diagnostic] = []
        for item in report["generalDiagnostics"]:
            start = item.get("range", {}).get("start", {"line": 0, "character": 0})
            diagnostics.append(
                Diagnostic(
                    path=_absolute(item["file"], cwd),
                    line=int(start["line"]) + 1,
                    column=int(start["character"]) + 1,
                    severity=str(item["severity"]),
                    message=str(item["message"]),
                    code=str(item.get("rule", "")),
                )
            )
        return diagnostics


class BasedPyright(Pyright):
    name = "basedpyright"
    distribution = "basedpyright"
    bundled_typeshed = "basedpyright/dist/typeshed-fallback"
    pyproject_section = "[tool.basedpyright]"


_TY_LINE = re.compile(
    r"^(?P<path>[^\n:]+):(?P<line>\d+):(?P<column>\d+): (?P<severity>error|warning|info)"
    r"\[(?P<code>[^\]]+)\] (?P<message>.*)$"
)


class Ty(Checker):
    name = "ty"
    # No analysed(): ty prints no count of the files it checked ("All checks passed!"), but
    # for a log line of -v ("Indexed 2 file(s)").  Measured: it checks every file named on its
    # command line, configured excludes, .gitignore and node_modules alike.
    checks_past_syntax_errors = True
    reveals_overload_callees = True
    distribution = "ty"

    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        command = [
            *self.executable(),
            "check",
            "--output-format=concise",
            "--no-progress",
            f"--python={run.python}",
            f"--project={run.cwd}",
        ]
        if run.python_version is not None:
            command.append(f"--python-version={run.python_version}")
        if run.platform is not None:
            command.append(f"--python-platform={run.platform}")
        paths = [*([run.overlay] if run.overlay else []), *run.extra_paths]
        command.extend(f"--extra-search-path={p}" for p in paths)
        return [*command, *(str(f) for f in run.files)], {}

    def parse(self, stdout: str, cwd: Path) -> list[Diagnostic]:
        diagnostics: list[Diagnostic] = []
        for line in stdout.splitlines():
            match = _TY_LINE.match(line)
            if match is not None:
                diagnostics.append(
                    Diagnostic(
                        path=_absolute(match["path"], cwd),
                        line=int(match["line"]),
                        column=int(match["column"]),
                        severity=match["severity"],
                        message=match["message"],
                        code=match["code"],
                    )
                )
        return diagnostics


# The end of mypy's (and zuban's) summary: "Success: no issues found in 3 source files",
# "Found 2 errors in 1 file (checked 3 source files)".
_CHECKED_SOURCE_FILES = re.compile(
    r"^(?:Success: no issues found in |Found .*\(checked )(?P<count>\d+) source files?\)?$",
    re.MULTILINE,
)


class Zuban(Checker):
    name = "zuban"
    checks_past_syntax_errors = True
    distribution = "zuban"
    bundled_typeshed = "zuban/third_party/typeshed"

    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        # `zuban check` (its own mode) enforces LiteralString; `zuban mypy` mimics mypy and
        # does not.
        command = [*self.executable(), "check"]
        if run.project is None:
            config = run.workdir / "zuban.ini"  # isolated: an empty configuration
            config.write_text("[mypy]\n", encoding="utf-8")
            command.append(f"--config-file={config}")
        command += ["--show-column-numbers", "--no-pretty", f"--python-executable={run.python}"]
        if run.python_version is not None:
            command.append(f"--python-version={run.python_version}")
        if run.platform is not None:
            command.append(f"--platform={run.platform}")
        command.extend(str(f) for f in run.files)
        return command, {"MYPYPATH": run.search_path()} if run.search_path() else {}

    fewer_files_cause = "an `exclude` of the configuration it read, or a broken installation"

    def analysed(self, stdout: str, output: str) -> int | None:
        # mypy's summary line, which a configuration may turn off (error_summary = false).
        match = _CHECKED_SOURCE_FILES.search(stdout)
        return int(match["count"]) if match is not None else None

    def parse(self, stdout: str, cwd: Path) -> list[Diagnostic]:
        return _mypy_style(stdout, cwd)


# pyrefly --summary, on stderr: "INFO 3 modules (19 dependent modules); 17,850 lines ...".
# Measured: a module per distinct file given (a.py and a.pyi are two), none for an excluded one.
_PYREFLY_MODULES = re.compile(r"\bINFO (?P<count>[\d,]+) modules? \(")
# What it says, with exit status 1 and no JSON report, when every file given is excluded.
_PYREFLY_NOTHING_MATCHED = "No Python files matched"


class Pyrefly(Checker):
    name = "pyrefly"
    distribution = "pyrefly"
    # Its bundled typeshed describes Python 3.10 and newer; older targets are modelled wrongly.
    oldest_target = (3, 10)
    needs_full_typeshed = True

    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        command = [
            *self.executable(),
            "check",
            "--output-format=json",
            # The number of files it checked ("3 modules"), on stderr: see analysed().
            "--summary",
            f"--python-interpreter-path={run.python}",
        ]
        if run.project is None:
            config = run.workdir / "pyrefly.toml"
            config.write_text('preset = "default"\n', encoding="utf-8")
            command.append(f"--config={config}")
            # Files given by name are still matched against pyrefly's default excludes
            # (**/node_modules, **/__pycache__, **/venv/**): a project below a folder named
            # venv was "No Python files matched", one file in node_modules silently left out.
            # This replaces them with our configuration's, which has none.
            command.append("--disable-project-excludes-heuristics")
        elif self._config(run.project) is not None:
            # Named outright: pyrefly looks for it from each checked file's folder upward.
            command.append(f"--config={self._config(run.project)}")
        else:
            # Without a configuration pyrefly uses its lenient "basic" preset, which reports
            # no LiteralString error at all; the "default" preset turns checking on.
            command.append("--preset=default")
        if run.python_version is not None:
            command.append(f"--python-version={run.python_version}")
        if run.platform is not None:
            command.append(f"--python-platform={run.platform}")
        if run.overlay is not None:
            command.append(f"--typeshed-path={run.overlay}")
        command.extend(f"--search-path={p}" for p in run.extra_paths)
        # A folder outside the configuration's own folder matches nothing for pyrefly; a glob
        # of its Python files does.
        files = [str(f) if not f.is_dir() else str(f / "**" / "*.py") for f in run.files]
        return [*command, *files], {}

    fewer_files_cause = (
        "a `project-excludes` of the configuration it read, or its default excludes "
        "(**/node_modules, **/__pycache__, **/venv/**) matching a folder above the files, or a "
        "broken installation"
    )

    def analysed(self, stdout: str, output: str) -> int | None:
        if _PYREFLY_NOTHING_MATCHED in output:
            return 0
        match = _PYREFLY_MODULES.search(output)
        return int(match["count"].replace(",", "")) if match is not None else None

    @staticmethod
    def _config(project: Path) -> Path | None:
        pyproject = project / "pyproject.toml"
        if (project / "pyrefly.toml").is_file():
            return project / "pyrefly.toml"
        if pyproject.is_file() and "[tool.pyrefly]" in pyproject.read_text("utf-8"):
            return pyproject
        return None

    def parse(self, stdout: str, cwd: Path) -> list[Diagnostic]:
        start = stdout.find("{")
        if start < 0:
            raise ValueError("no JSON report in pyrefly's output")
        report = json.loads(stdout[start:])
        return [
            Diagnostic(
                path=_absolute(item["path"], cwd),
                line=int(item["line"]),
                column=int(item["column"]),
                severity=str(item["severity"]),
                # The full description: for "no matching overload" it names the closest
                # overload's parameter types, which the concise one leaves out.
                message=str(item.get("description") or item["concise_description"]),
                code=str(item.get("name", "")),
            )
            for item in report["errors"]
        ]


# The commands name a checker by the program users run; the regression suite also has a column
# for mypy with our plugin, which is what `check`, `doctor` and `init` use for "mypy".
WITH_PLUGIN = {"mypy": "mypy+plugin"}
# Where an overlay for a checker without typeshed files comes from, in order of preference.
DONORS = ("pyright", "basedpyright")
CHECKERS: Mapping[str, Checker] = {
    checker.name: checker
    for checker in (Pyright(), BasedPyright(), Mypy(), MypyPlugin(), Ty(), Zuban(), Pyrefly())
}


# The checkers the commands offer (the plugin variants go by the checker's own name).
COMMAND_CHECKERS = [name for name in CHECKERS if name not in WITH_PLUGIN.values()]


def enforcing(checker: Checker) -> Checker:
    """The checker as the commands run it: mypy with our plugin, the others as they are."""
    return CHECKERS[WITH_PLUGIN.get(checker.name, checker.name)]


def get_checker(name: str) -> Checker:
    try:
        return CHECKERS[name]
    except KeyError:
        raise CheckerNotFoundError(
            f"unknown checker {name!r}: choose one of {', '.join(CHECKERS)}"
        ) from None
