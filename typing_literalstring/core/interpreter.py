"""The project's interpreter, started once per check.

A checker resolves third-party imports in the project's environment by asking its interpreter
where the packages are: pyright and basedpyright ask twice (its search paths, and its version
when none is configured), mypy once (``pyinfo.py getsearchdirs``), pyrefly once, and we once
more for the tightening of third-party packages (``specs.thirdparty``).  When that interpreter
is a ``.venv`` of the checkout, each start runs the checkout's code (its ``bin/python`` may be
any program; its ``site-packages`` ``.pth`` files and ``sitecustomize`` run at start-up).

So it is started once, here, and asked everything at once (``ask``); the answers are kept for
the run.  The checkers that would start it again get them instead: pyright, basedpyright and
mypy start a *stand-in* (``stand_in``), a small script of ours that prints the interpreter's
recorded answer to each question they are known to ask (``core/stand_in.py``), and starts the
real interpreter only for a question it does not know (a newer checker's); pyrefly is given
its site-packages folders, version and platform on its command line; ty and zuban read the
environment's folders without starting it.
"""

from __future__ import annotations

import json
import os
import shlex
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping, Sequence, cast

from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.core.processes import child_environment, run_process

# The questions pyright 1.1.414 and basedpyright 1.40.2 ask an interpreter (its
# FullAccessHost), word for word: the stand-in answers only these exact command lines.
_PYRIGHT_PREAMBLE = [
    "import os, os.path, sys",
    "normalize = lambda p: os.path.normcase(os.path.normpath(p))",
    "cwd = normalize(os.getcwd())",
    'orig_sys_path = [p for p in sys.path if p != ""]',
    'sys.path[:] = [p for p in sys.path if p != "" and normalize(p) != cwd]',
]
PYRIGHT_SEARCH_PATHS = "; ".join(
    [
        *_PYRIGHT_PREAMBLE,
        "import sys, json",
        "json.dump(dict(path=orig_sys_path, prefix=sys.prefix), sys.stdout)",
    ]
)
PYRIGHT_VERSION = "; ".join(
    [*_PYRIGHT_PREAMBLE, "import sys, json", "json.dump(tuple(sys.version_info), sys.stdout)"]
)

_MARK = "typing-literalstring-interpreter:"
# Run as the checkers run their questions (``python -c``, not isolated: the user's PYTHONPATH
# and user site-packages count, as they do for them), so that each answer is the one the
# checker would get.  Before importing anything that start-up has not imported already, the
# working folder leaves sys.path, as pyright's own question does (``-c`` puts it first before
# Python 3.11; PYTHONSAFEPATH, set by child_environment, keeps it off from 3.11 on).  The
# answers to mypy's and pyrefly's questions are computed here, as their own code computes them
# (mypy/pyinfo.py; pyrefly's interpreter query), since they depend on the interpreter.
QUERY = f"""\
import os, sys
path = list(sys.path)
cwd = os.path.normcase(os.path.normpath(os.getcwd()))
sys.path[:] = [p for p in sys.path if p and os.path.normcase(os.path.normpath(p)) != cwd]
import json, site, sysconfig
stdlib = sysconfig.get_path("stdlib")
zipped = os.path.join(
    sys.base_exec_prefix, getattr(sys, "platlibdir", "lib"),
    "python%d%d.zip" % sys.version_info[:2])
excludes = {{zipped, stdlib, os.path.join(stdlib, "lib-dynload")}}
offset = 0 if sys.version_info >= (3, 11) and sys.flags.safe_path else 1
if hasattr(site, "getsitepackages"):
    sites = list(site.getsitepackages())
    if hasattr(site, "getusersitepackages") and site.ENABLE_USER_SITE:
        sites.insert(0, site.getusersitepackages())
else:
    sites = [sysconfig.get_paths()["purelib"]]
unzipped = [p for p in path if p != ""]
paths = sysconfig.get_paths()
print("\\n{_MARK}" + json.dumps(dict(
    version_info=list(sys.version_info),
    platform=sys.platform,
    prefix=sys.prefix,
    path=unzipped,
    purelib=paths["purelib"],
    platlib=paths["platlib"],
    mypy=[[p for p in map(os.path.abspath, path[offset:]) if p not in excludes], sites],
    pyrefly=[
        p for p in unzipped
        if ".zip" not in p and not p.endswith("/lib-dynload") and p != stdlib
    ],
)))
"""


@dataclass(frozen=True)
class Interpreter:
    """What the interpreter said about itself, in one start."""

    python: Path  # as given (a virtual environment's bin/python: never resolved)
    version_info: tuple[Any, ...]  # (3, 11, 7, "final", 0)
    platform: str  # sys.platform
    prefix: str
    path: tuple[str, ...]  # its sys.path, less the working folder's ""
    purelib: str
    platlib: str
    # mypy's `pyinfo.py getsearchdirs`: (sys.path less the standard library, site-packages).
    mypy_search_dirs: tuple[tuple[str, ...], tuple[str, ...]]
    # pyrefly's site_package_path: sys.path less the standard library and zip files.
    pyrefly_site_packages: tuple[str, ...]

    @property
    def version(self) -> str:
        """``3.11.7``."""
        return ".".join(str(part) for part in self.version_info[:3])

    def site_packages(self) -> list[Path]:
        """Where it installs packages (purelib, platlib)."""
        return list(dict.fromkeys(Path(p) for p in (self.purelib, self.platlib)))

    def answers(self) -> dict[str, str]:
        """Each question the stand-in knows, as its command line's arguments joined by NUL,
        and the interpreter's output for it."""
        mypy = find_pyinfo()
        known = {
            "\0".join(["-c", PYRIGHT_SEARCH_PATHS]): json.dumps(
                {"path": list(self.path), "prefix": self.prefix}
            ),
            "\0".join(["-I", "-c", PYRIGHT_VERSION]): json.dumps(list(self.version_info)),
        }
        if mypy is not None:
            sys_path, sites = self.mypy_search_dirs
            known["\0".join([str(mypy), "getsearchdirs"])] = repr((list(sys_path), list(sites)))
        return known


class InterpreterError(TypingLiteralStringError):
    """The chosen interpreter cannot be started or does not answer."""


# The answers of each interpreter asked in this process, by its path as given: `check` asks
# once (choose_environment) and everything later in the same check reads them.
_ASKED: dict[Path, Interpreter] = {}


def ask(python: Path, origin: str = "the interpreter") -> Interpreter:
    """Start ``python`` and ask it everything the check and its checker need; kept for the
    rest of the check (``asked``).  ``origin`` says how it was chosen, for the error."""
    env = child_environment({})
    # From a folder outside the project (our private temporary folder, under `entry`).
    outside = Path(_outside())
    try:
        done = run_process([str(python), "-c", QUERY], cwd=outside, env=env)
    except OSError as error:
        raise InterpreterError(
            f"{origin} {python} cannot be run ({error}): point --python at a working interpreter"
        ) from error
    found = _answer(done.stdout)
    if done.returncode != 0 or found is None:
        said = (done.stderr or done.stdout).strip()[-2000:]
        raise InterpreterError(
            f"{origin} {python} is not a working Python interpreter: cannot ask it where its "
            f"packages are (exit {done.returncode}{': ' + said if said else ''}); point "
            "--python at a working interpreter"
        )
    interpreter = Interpreter(
        python=python,
        version_info=tuple(found["version_info"]),
        platform=str(found["platform"]),
        prefix=str(found["prefix"]),
        path=tuple(str(p) for p in found["path"]),
        purelib=str(found["purelib"]),
        platlib=str(found["platlib"]),
        mypy_search_dirs=(
            tuple(str(p) for p in found["mypy"][0]),
            tuple(str(p) for p in found["mypy"][1]),
        ),
        pyrefly_site_packages=tuple(str(p) for p in found["pyrefly"]),
    )
    _ASKED[python] = interpreter
    return interpreter


def asked(python: Path) -> Interpreter | None:
    """The answers of ``python`` in this check, if it was asked (``ask``)."""
    return _ASKED.get(python)


def answered(python: Path, origin: str = "the interpreter") -> Interpreter:
    """The answers of ``python``: those of this check, else asked now."""
    return asked(python) or ask(python, origin)


def _outside() -> str:
    import tempfile

    return tempfile.gettempdir()


def _answer(stdout: str) -> Mapping[str, Any] | None:
    """The query's answer: the last line that carries our mark (a .pth file or a
    sitecustomize may print before it)."""
    for line in reversed(stdout.splitlines()):
        if line.startswith(_MARK):
            try:
                found: object = json.loads(line[len(_MARK) :])
            except ValueError:
                return None
            return cast("dict[str, Any]", found) if isinstance(found, dict) else None
    return None


def find_pyinfo() -> Path | None:
    """mypy's ``pyinfo.py``, which the mypy beside us runs in the interpreter it is given."""
    from importlib.util import find_spec

    spec = find_spec("mypy")
    if spec is None or not spec.submodule_search_locations:
        return None
    return Path(next(iter(spec.submodule_search_locations))) / "pyinfo.py"


def stand_in(interpreter: Interpreter, folder: Path) -> Path | None:
    """A program in ``folder`` that answers the checkers' questions as ``interpreter`` did
    (``core/stand_in.py``), run by our own interpreter, isolated; None where it cannot run:
    not on POSIX (a checker starts it without a shell), or ``folder`` is on a file system
    mounted noexec."""
    if os.name != "posix":
        return None
    folder.mkdir(parents=True, exist_ok=True)
    if os.statvfs(folder).f_flag & getattr(os, "ST_NOEXEC", 0):
        return None
    answers = folder / "answers.json"
    answers.write_text(json.dumps(interpreter.answers()), encoding="utf-8")
    script = Path(__file__).with_name("stand_in.py")
    program = folder / "python"
    words = [sys.executable, "-I", str(script), str(answers), str(interpreter.python)]
    program.write_text(
        f'#!/bin/sh\nexec {" ".join(shlex.quote(w) for w in words)} "$@"\n', encoding="utf-8"
    )
    program.chmod(0o700)
    return program


def interpreter_for(python: Path, folder: Path, ours: Sequence[Path] = ()) -> Path:
    """What to give a checker that starts ``python`` to ask it questions: its stand-in when
    this check asked it already and a stand-in can run, else ``python`` itself (``ours``:
    interpreters the checker answers for itself without starting them)."""
    found = asked(python)
    if found is None or python in ours:
        return python
    return stand_in(found, folder) or python
