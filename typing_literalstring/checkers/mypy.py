"""mypy and mypy with our plugin: MYPYPATH carries the overlay; run isolated (``python -I``)
with our own ``sys.path``; JSON output."""

from __future__ import annotations

import hashlib
import json
import os
import re
import sys
from importlib.util import find_spec
from pathlib import Path
from typing import Sequence

from typing_literalstring.checkers import mypy_config
from typing_literalstring.checkers.asking import JUDGED, Probe
from typing_literalstring.checkers.base import Checker
from typing_literalstring.checkers.run_values import Diagnostic, Invocation, Refusal, absolute_path
from typing_literalstring.core.errors import CheckerNotFoundError
from typing_literalstring.core.interpreter import interpreter_for


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
    reads_shadow_files = True  # --shadow-file: a copy is checked in the original's place
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
        # mypy starts the interpreter to run its pyinfo.py (not the one it runs on): the check
        # asked it already (core.interpreter), and a stand-in answers.
        python = interpreter_for(run.python, run.workdir / "interpreter", (Path(sys.executable),))
        command = [
            *_mypy_main(run.cwd, run.project),
            "--output=json",
            f"--cache-dir={run.incremental_cache or run.workdir / 'mypy-cache'}",
            f"--python-executable={python}",
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
        for original, copy in _without_init_imports(run).items():
            _stable_mtime(copy)
            command += ["--shadow-file", str(original), str(copy)]
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
                    path=absolute_path(item["file"], cwd),
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
    version_distribution = "mypy"  # the plugin runs the mypy installed beside us
    plugin_module = "typing_literalstring.mypy"
    # The error code of the plugin's own failure on a module (marker.PLUGIN_FAILURE).
    failure_code = "literal-string-plugin"

    def is_installed(self) -> bool:
        return super().is_installed() and find_spec(self.plugin_module) is not None

    # mypy's own reveal writes LiteralString as `str` (to mypy it is str): the type is revealed
    # by the plugin's hook on the probe's `reveal`, and the judge is the plugin's too
    # (typing_literalstring/mypy/reveal.py), which answer in the words of reveal_type.
    def ask(
        self, probe: Probe, expression: str, tag: int, judge: bool = False, bind: bool = True
    ) -> list[str]:
        asked = [f"{probe.reveal}(({expression}), {tag})"]
        if judge:
            asked.append(f"{probe.judged}(({expression}), {tag + JUDGED})")
        return asked

    def plugin_problem(self) -> str | None:
        """Why the plugin cannot run under the installed mypy; None when it can."""
        from typing_literalstring.mypy import unsupported

        return unsupported(self.version())

    def command(self, run: Invocation) -> tuple[list[str], dict[str, str]]:
        command, env = super().command(run)
        if run.project is None:
            # Isolated: a configuration that holds nothing but the plugin, which infers the
            # return types of the project's unannotated functions as pyright does
            # (typing_literalstring/mypy/returns.py), so that a sink reached through one is
            # judged under mypy too.
            config = run.workdir / "mypy-plugin.ini"
            config.write_text(
                f"[mypy]\nplugins = {self.plugin_module}\n\n"
                "[typing_literalstring]\ninfer_return_types = true\n",
                encoding="utf-8",
            )
            command[command.index("--config-file=")] = f"--config-file={config}"
        return command, env


# mypy 2.4 takes a cached module as fresh when its file's size and mtime match the cache's; else
# it compares the hash of the file's text with the cached one.  For a module read from a shadow
# file it takes the size and mtime of the shadow but hashes the original (build.validate_meta):
# a copy written anew on every check never matched, and every file holding a sink call was
# checked again on every run.  Its mtime, read from its own text, is the same on every run
# while the text is, and changes with it (the size is compared too).
_EPOCH = 1_000_000_000  # 2001: no file of the project's is compared with it


def _stable_mtime(copy: Path) -> None:
    """Give ``copy`` an mtime that depends on its text alone."""
    try:
        digest = hashlib.sha256(copy.read_bytes()).digest()
        stamp = _EPOCH + int.from_bytes(digest[:4], "big")
        os.utime(copy, (stamp, stamp))
    except OSError:
        return  # mypy compares the text instead: slower, as correct


# `from .__init__ import __version__` (litecli 1.17.1, pgcli 4.7.1): mypy reaches the package's
# __init__.py under a second name, `litecli.__init__`, and stops the whole run with "Source
# file found twice under different module names" (as plain `mypy .` does).  Importing from
# `.__init__` is importing from the package itself: the shadow copy says `from .` instead,
# with spaces where `__init__` was, so that no line or column moves.
_INIT_IMPORT = re.compile(r"(?m)^([ \t]*from[ \t]+\.*[\w.]*?)(\.?__init__)(?=[ \t]+import\b)")


def _without_init_imports(run: Invocation) -> dict[Path, Path]:
    """The run's shadow files, with a copy of each checked file that imports from its
    package's ``__init__`` by that name (``_INIT_IMPORT``), as mypy will read it."""
    shadows = dict(run.shadows)
    for number, file in enumerate(run.files):
        read = shadows.get(file.resolve(), file)
        try:
            text = read.read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError):
            continue  # mypy says what it cannot read
        if "__init__" not in text:
            continue
        fixed = _INIT_IMPORT.sub(lambda m: m[1] + " " * len(m[2]), text)
        if fixed == text:
            continue
        copy = run.workdir / "init-imports" / str(number) / file.name
        copy.parent.mkdir(parents=True, exist_ok=True)
        copy.write_text(fixed, encoding="utf-8")
        shadows[file.resolve()] = copy
    return shadows
