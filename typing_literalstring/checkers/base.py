"""What every checker adapter shares: how it is found, run and cross-checked (the ``Checker``
base class).  One run's parameters and what it gives back (``Invocation``, ``Diagnostic``) are
``run_values``'s."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import tempfile
from abc import ABC, abstractmethod
from importlib.util import find_spec
from pathlib import Path
from typing import Callable, ClassVar, Mapping, Sequence

from typing_literalstring.checkers import type_text
from typing_literalstring.checkers.asking import JUDGED, Answer, Probe
from typing_literalstring.checkers.out_of_memory import OUT_OF_MEMORY, CheckerOutOfMemoryError
from typing_literalstring.checkers.run_values import (
    Diagnostic,
    Invocation,
    Refusal,
    RunResult,
)
from typing_literalstring.core.errors import CheckerFailedError, CheckerNotFoundError
from typing_literalstring.core.processes import (
    HIGHEST_SIGNAL,
    child_environment,
    run_process,
    which,
)

_VERSION_PATTERN = re.compile(r"\d+\.\d+(?:\.\d+)*")
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
    # Checkers whose typeshed files stand in where a checker compiles its own into its binary.
    typeshed_donors: ClassVar[tuple[type[Checker], ...]] = ()
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
        found = which(self.name)
        if found is None:
            raise CheckerNotFoundError(
                f"{self.name} is not installed: install it with "
                f"`{Path(sys.executable).name} -m pip install {self.distribution}`"
            )
        return [found]

    def launcher(self) -> list[str]:
        """The command prefix a check runs: ``executable()``, unless a checker knows a shorter
        way to start the same program (``Pyright.launcher``)."""
        return self.executable()

    def is_installed(self) -> bool:
        try:
            self.executable()
        except CheckerNotFoundError:
            return False
        return True

    def version(self) -> str:
        """The checker's version, once per executable: from the metadata of the distribution
        that runs it when it runs from our environment, else asked (`pyright --version` costs
        0.3 to 0.6 s: node starts)."""
        command = tuple(self.executable())
        if command not in _VERSION_OF:
            _VERSION_OF[command] = self._installed_version(command) or self._ask_version()
        return _VERSION_OF[command]

    # The distribution whose version is the checker's, when it runs from our environment
    # (None: the distribution's name, without extras).
    version_distribution: ClassVar[str | None] = None

    # Settings under which the distribution runs another version than its own (pyright's
    # PyPI wrapper can fetch any release).
    version_overrides: ClassVar[tuple[str, ...]] = ()

    def _installed_version(self, command: Sequence[str]) -> str | None:
        """The version of the distribution in our environment, if that is what ``command`` runs
        (its program is in our interpreter's folder: our scripts, or our interpreter)."""
        if Path(command[0]).parent != Path(sys.executable).parent:
            return None
        if any(os.environ.get(name) for name in self.version_overrides):
            return None
        # Never the working folder (`python -m` puts it on sys.path): it may be the project.
        here = Path.cwd().resolve()
        paths = [p for p in sys.path if p and Path(p).resolve() != here]
        name = self.version_distribution or self.distribution.split("[")[0]
        version = _dist_info_version(name, paths)
        if version is None:  # installed otherwise (an .egg-info): ask the slower reader
            import importlib.metadata

            found = next(iter(importlib.metadata.distributions(name=name, path=paths)), None)
            version = found.version if found is not None else None
        return version if version and _VERSION_PATTERN.fullmatch(version) else None

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
        for donor in self.typeshed_donors:
            if find_spec(donor.name) is not None:
                return donor().typeshed_dir()
        names = " nor ".join(d.name for d in self.typeshed_donors) or "no other checker"
        install = self.typeshed_donors[0].distribution if self.typeshed_donors else "pyright"
        raise CheckerNotFoundError(
            f"{self.name} has no typeshed files of its own, and neither "
            f"{names} is installed to build its overlay from: install one with "
            f"`pip install {install}`, or pass a typeshed folder"
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
        shadows: Mapping[Path, Path] | None = None,
        started: Callable[[], None] | None = None,
    ) -> RunResult:
        """Check ``files`` for ``python_version`` with ``overlay`` wired in (``None``: stock).

        ``workdir`` is an empty folder the checker may write its configuration and cache to.
        With ``project`` unset the run is isolated: no user configuration is read.  With
        ``project`` set, the checker runs there and reads the project's configuration, and our
        settings are layered on top; the project's files are never changed.
        ``python_version`` None leaves the target to the project's configuration.
        ``python`` is the interpreter whose packages resolve imports (default: ours).
        ``platform`` is the ``sys.platform`` to check for (``PLATFORMS``; default: the
        checker's, that is, the machine's).  ``shadows``: files checked as the text of another
        file, in their place (only where ``reads_shadow_files``).  ``started`` is called once
        the checker's process runs.
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
            shadows={f.resolve(): c.resolve() for f, c in (shadows or {}).items()},
        )
        if invocation.shadows and not self.reads_shadow_files:
            raise TypeError(f"{self.name} reads no shadow files")
        command, env = self.command(invocation)
        proc = self._start(command, cwd=invocation.cwd, env=env, started=started)
        output = proc.stdout + proc.stderr
        killed = self.killed_by(proc.returncode)
        exhausted = proc.returncode not in self.ok_exit_codes and bool(OUT_OF_MEMORY.search(output))
        if exhausted or killed == getattr(signal, "SIGKILL", None):
            raise CheckerOutOfMemoryError(self, invocation.files, said=exhausted)
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
        self,
        command: Sequence[str],
        *,
        cwd: Path,
        env: Mapping[str, str],
        started: Callable[[], None] | None = None,
    ) -> subprocess.CompletedProcess[str]:
        try:
            return run_process(command, cwd=cwd, env=child_environment(env), started=started)
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
        if self.exits_with_child_signal and 256 - HIGHEST_SIGNAL <= returncode < 256:
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
    # Whether its "no overload matches" lists the arguments' types (pyright's "Argument types:",
    # mypy's "matches argument types", pyrefly's "called with arguments"): ty's does not, so
    # the command of each shell=True call is revealed in the tightened run (analysis.probes).
    lists_argument_types: ClassVar[bool] = True
    # Whether it checks a file as the text of another in its place (mypy's --shadow-file);
    # the others check a mirror of the project holding the copy (analysis.runs).
    reads_shadow_files: ClassVar[bool] = False

    # -- asking about an expression (checkers/asking.py), and reading the answer --------------

    def ask(
        self, probe: Probe, expression: str, tag: int, judge: bool = False, bind: bool = True
    ) -> list[str]:
        """Expressions that, placed in a probed copy, make the checker reveal ``expression``'s
        type under ``tag`` and, with ``judge``, give it to the judge.  ``bind``: the place
        allows binding a name with ``:=`` (not in a comprehension's iterable, nor in a
        comprehension of a class body), for checkers whose message prints the expression."""
        asked = [f"reveal_type((({expression}), {tag}))"]
        if judge:
            asked.append(f"reveal_type(({probe.judge}(({expression})), {tag + JUDGED}))")
        return asked

    # What begins and ends the message of a reveal: mypy's and zuban's (a note).
    revealed_around: ClassVar[tuple[str, str]] = ('Revealed type is "', '"')

    def answer(self, probe: Probe, diagnostic: Diagnostic) -> Answer | None:
        """What a message of a probed copy reveals, if it is the answer to an ``ask``.  Its
        message holds nothing but the type between fixed words, so the reading is exact."""
        if diagnostic.severity == "error":
            return None
        start, end = self.revealed_around
        message = diagnostic.message
        if not (message.startswith(start) and message.endswith(end)):
            return None
        return tagged_answer(message[len(start) : len(message) - len(end)], exact=True)

    # How to give the checker more memory, said when it ran out (after "more memory").
    memory_hint: ClassVar[str] = ""

    def failure(self, output: str) -> str:
        """What to tell the user when the checker stopped without checking."""
        return output.strip()[-4000:]

    @abstractmethod
    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        """The command line and extra environment for one run."""

    @abstractmethod
    def parse(self, stdout: str, cwd: Path) -> list[Diagnostic]:
        """Turn the checker's output into diagnostics with absolute paths."""


def tagged_answer(text: str, exact: bool) -> Answer | None:
    """The answer a revealed ``tuple[T, Literal[tag]]`` gives: the judge's when the tag says so."""
    found = type_text.tagged(type_text.without_builtins(text))
    if found is None:
        return None
    tag, revealed = found
    if tag >= JUDGED:
        return Answer(tag - JUDGED, revealed, judged=True, exact=exact)
    return Answer(tag, revealed, exact=exact)


def _count(n: int, thing: str) -> str:
    return f"{n} {thing}{'' if n == 1 else 's'}"


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


def _dist_info_version(name: str, paths: Sequence[str]) -> str | None:
    """The version of the first wheel-installed distribution ``name`` on ``paths``, read from
    its ``NAME-VERSION.dist-info`` folder's name as the wheel format writes it: importing
    ``importlib.metadata`` for this took a tenth of a warm mypy check."""
    wanted = _normalized(name)
    for path in paths:
        try:
            entries = os.listdir(path)
        except OSError:
            continue
        for entry in entries:
            if entry.endswith(".dist-info"):
                distribution, _, version = entry[: -len(".dist-info")].partition("-")
                if _normalized(distribution) == wanted:
                    return version
    return None


def _normalized(name: str) -> str:
    return re.sub(r"[-_.]+", "_", name).lower()
