"""The ``typing-literalstring`` command."""

from __future__ import annotations

import argparse
import sys
import traceback
from typing import Sequence

from typing_literalstring import __version__
from typing_literalstring.checkers import COMMAND_CHECKERS, PLATFORMS
from typing_literalstring.commands import EXIT_ERROR
from typing_literalstring.commands import check as check_command
from typing_literalstring.commands import doctor as doctor_command
from typing_literalstring.commands import init as init_command_module
from typing_literalstring.commands import rule as rule_command
from typing_literalstring.commands import server as server_command
from typing_literalstring.commands import stubs as stubs_command
from typing_literalstring.commands.init import DEFAULT_FOLDER
from typing_literalstring.core import signals
from typing_literalstring.core.errors import TypingLiteralStringError
from typing_literalstring.report import baseline, output
from typing_literalstring.specs.overlay import LAYOUTS
from typing_literalstring.specs.tighten import PROFILES


def _python_version(value: str) -> str:
    parts = value.split(".")
    if len(parts) != 2 or not all(p.isdigit() for p in parts) or parts[0] != "3":
        raise argparse.ArgumentTypeError(f"{value!r} is not a Python version like 3.12")
    return value


def parser() -> argparse.ArgumentParser:
    main = argparse.ArgumentParser(
        prog="typing-literalstring",
        description="Make type checkers reject non-literal SQL, shell and logging strings.",
    )
    main.add_argument("--version", action="version", version=f"%(prog)s {__version__}")
    commands = main.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser(
        "check",
        help="report every non-literal string that reaches an SQL, shell or logging sink",
        description="Run a type checker on PATHs (default: the project root, found from here "
        "upwards by pyproject.toml, setup.cfg, setup.py or .git) with the tightened stubs wired "
        "in, and report each place where a non-literal string reaches a LiteralString: our SQL, "
        "shell and logging-format sinks, your own functions and libraries typed with "
        "LiteralString, with how to fix it. The checker runs with settings of our own: your "
        "checker configuration is neither read nor changed. Findings in the baseline "
        "(--write-baseline) or silenced by `# typing-literalstring: ignore[LS101] reason` do not "
        "fail the run. Exit status: 0 no findings, 1 findings (or unused suppressions with "
        "--warn-unused-suppressions), 2 usage error, tool failure or a file that does not "
        "parse, 130 interrupted. The [tool.typing-literalstring] table of the root's "
        "pyproject.toml sets checker, profile, select, ignore, per-file-ignores, exclude and "
        "baseline; options given here win (docs/configuration.md).",
    )
    check.add_argument(
        "paths", nargs="*", metavar="PATH", help="files or folders (default: the project root)"
    )
    # No defaults here: an option not given leaves the choice to the configuration table.
    check.add_argument(
        "--checker", choices=sorted(COMMAND_CHECKERS), help="default: pyright, or the table's"
    )
    check.add_argument("--profile", choices=PROFILES, help="default: default, or the table's")
    check.add_argument(
        "--select",
        action="append",
        metavar="CODES",
        help="report only these rules: codes or prefixes (LS101, LS1 for SQL, LS9 for Any), "
        "comma-separated or repeated; replaces the table's select (default: every rule)",
    )
    check.add_argument(
        "--ignore",
        action="append",
        metavar="CODES",
        help="do not report these rules (codes or prefixes, as --select); replaces the "
        "table's ignore; a more specific --select wins (--select LS101 --ignore LS1)",
    )
    check.add_argument("--python-version", metavar="X.Y", type=_python_version)
    check.add_argument("--format", choices=output.FORMATS, default="text")
    check.add_argument(
        "--show-other", action="store_true", help="also list the checker's other errors"
    )
    check.add_argument(
        "--show-unverified",
        action="store_true",
        help="also list the sink calls the checker let through without judging their text "
        "(text and JSON; SARIF notes)",
    )
    check.add_argument(
        "--python",
        metavar="PATH",
        help="the project's Python (or its virtual environment), whose packages resolve "
        "imports; default: $VIRTUAL_ENV, else .venv or venv in the project root, else the "
        "Python running this command",
    )
    check.add_argument(
        "--cache-dir", help="where built overlays and mypy's incremental cache are kept"
    )
    said = check.add_mutually_exclusive_group()
    said.add_argument(
        "--verbose",
        action="store_true",
        help="say each step on stderr, even when it is not a terminal, and the checker runs "
        "started; show what the checker said of each finding",
    )
    said.add_argument(
        "--quiet",
        action="store_true",
        help="print only the summary line of the text report, and no progress",
    )
    check.add_argument(
        "--baseline",
        metavar="PATH",
        help="the baseline file: findings it records do not fail the run (default: "
        f"{baseline.DEFAULT.as_posix()} in the project root, used when it exists)",
    )
    check.add_argument(
        "--no-baseline",
        action="store_true",
        help="ignore the baseline, even one that exists or that the table names: every "
        "finding counts",
    )
    check.add_argument(
        "--write-baseline",
        action="store_true",
        help="record the current findings in the baseline (entries of files not checked "
        "this run are kept) and exit 0",
    )
    check.add_argument(
        "--warn-unused-suppressions",
        action="store_true",
        help="report `# typing-literalstring: ignore[...]` comments that silence nothing, and "
        "fail the run on them",
    )
    # Two flags rather than argparse.BooleanOptionalAction, which Python 3.8 lacks.
    check.add_argument(
        "--fail-on-unverified",
        action="store_const",
        const=True,
        default=None,
        help="fail the run (exit 1) when any sink call is unverified, not only on findings: "
        "every SQL, shell, template, markup and logging call must be proven literal or "
        "reported (also `fail-on-unverified = true` in the table)",
    )
    check.add_argument(
        "--no-fail-on-unverified",
        dest="fail_on_unverified",
        action="store_const",
        const=False,
        help="unverified sink calls do not fail the run, whatever the table says",
    )
    check.add_argument(
        "--report-any",
        action="store_true",
        help="also report values of type Any (json.loads(...), an untyped library) that reach a "
        "LiteralString, which checkers let through (rule LS901; two more checker runs)",
    )
    check.add_argument(
        "--platform",
        choices=PLATFORMS,
        help="the sys.platform to check for (default: this machine's); code under "
        '`if sys.platform == "win32":` is checked only when the platform is win32',
    )
    check.set_defaults(run=check_command.command)

    doctor = commands.add_parser(
        "doctor",
        help="say what each installed checker enforces, measured by probes",
        description="For each checker: its version, whether it enforces LiteralString, whether "
        "its typeshed has the Appendix C str overloads, and whether this project's configuration "
        "makes it load our stubs. Each answer comes from running a tiny probe.",
    )
    doctor.add_argument("--checker", action="append", choices=sorted(COMMAND_CHECKERS))
    doctor.add_argument(
        "--project",
        default=".",
        help="a folder of the project; its root is found from there upwards (default: here)",
    )
    doctor.add_argument(
        "--python",
        metavar="PATH",
        help="the project's Python, whose installed packages decide which third-party sinks "
        "`check` tightens (default: as for check)",
    )
    doctor.set_defaults(run=doctor_command.command)

    init_command = commands.add_parser(
        "init",
        help="write the stubs into the project and configure the checkers in pyproject.toml",
        description="Build each checker's overlay into DIR/<checker> in the project root (the "
        "nearest folder from --project upwards holding pyproject.toml, setup.cfg, setup.py or "
        ".git) and add the settings that load it to the root's pyproject.toml, keeping comments "
        "and other settings. Each overlay also holds the tightened copies of the third-party "
        "packages installed in the project's environment (--python): run init again after "
        "upgrading them. Idempotent; refuses to replace a different existing value unless "
        "--force (a search path then keeps your entries after ours).",
    )
    init_command.add_argument(
        "--checker", action="append", choices=sorted(COMMAND_CHECKERS), help="default: pyright"
    )
    init_command.add_argument(
        "--project",
        default=".",
        help="a folder of the project; its root is found from there upwards (default: here)",
    )
    init_command.add_argument(
        "--dir",
        default=DEFAULT_FOLDER,
        help="a hidden folder, relative to the project root (default: %(default)s)",
    )
    init_command.add_argument("--profile", choices=PROFILES, default="default")
    init_command.add_argument("--force", action="store_true")
    init_command.add_argument(
        "--python",
        metavar="PATH",
        help="the project's Python, whose installed third-party packages are tightened into "
        "each overlay (default: as for check)",
    )
    init_command.add_argument("--cache-dir", help="where built third-party overlays are kept")
    init_command.set_defaults(run=init_command_module.command)

    stubs = commands.add_parser(
        "stubs",
        help="build the tightened stubs (an overlay) for a checker",
        description="Build the tightened stdlib stubs from a checker's own typeshed into --out.",
    )
    stubs.add_argument("--checker", choices=sorted(COMMAND_CHECKERS), default="pyright")
    stubs.add_argument("--out", required=True, help="the folder to write (replaced if present)")
    stubs.add_argument("--profile", choices=PROFILES, default="default")
    stubs.add_argument(
        "--layout",
        choices=LAYOUTS,
        default="overlay",
        help="overlay: only the replaced modules; full: a complete replacement typeshed "
        "(always full for pyrefly, which honours nothing else)",
    )
    stubs.add_argument(
        "--typeshed", help="build from this typeshed folder instead of the checker's own"
    )
    stubs.set_defaults(run=stubs_command.command)

    rule = commands.add_parser(
        "rule",
        help="show a rule's documentation page (docs/rules/LSnnn.md), or list the rules",
        description="Print the documentation page of RULE (what it reports, why it is bad, an "
        "example and its fix, which checkers see it), as `ruff rule` does; with --all, each "
        "rule's id, name and summary.",
    )
    rule.add_argument("rule_id", nargs="?", metavar="RULE", help="a rule id, such as LS101")
    rule.add_argument("--all", action="store_true", help="list every rule")
    rule.set_defaults(run=rule_command.command)

    server = commands.add_parser(
        "server",
        help="a language server: check's findings in your editor (docs/server.md)",
        description="Serve an editor over standard input and output (the Language Server "
        "Protocol): each open Python file shows the findings `check` reports for it, checked "
        "again on each save, with the rule page on hover and quick fixes. The project, its "
        "table and its environment are found as `check` finds them. The options here are "
        "defaults: the editor's initializationOptions and workspace settings "
        "(section typing-literalstring) win. Needs the server extra (pygls).",
    )
    server.add_argument("--checker", choices=sorted(COMMAND_CHECKERS), help="as for check")
    server.add_argument("--profile", choices=PROFILES, help="as for check")
    server.add_argument("--python", metavar="PATH", help="as for check")
    server.add_argument("--python-version", metavar="X.Y", type=_python_version)
    server.add_argument("--platform", choices=PLATFORMS, help="as for check")
    server.add_argument(
        "--report-any", action="store_true", default=None, help="as for check (rule LS901)"
    )
    server.add_argument(
        "--unverified-severity",
        choices=("warning", "information"),
        help="how LS901 to LS904 show (default: warning)",
    )
    server.add_argument("--cache-dir", help="as for check")
    # Editors' clients add it (vscode-languageclient's stdio transport): the only transport.
    server.add_argument("--stdio", action="store_true", help="talk over stdin/stdout (always)")
    server.set_defaults(run=server_command.command)
    return main


def main(argv: Sequence[str] | None = None) -> int:
    # The console entry point (entry.main) installed the signal handling before importing us;
    # here it covers the callers that import us directly (`python -c`, tests) for this call.
    with signals.handling_signals():
        try:
            args = parser().parse_args(argv)
            result: int = args.run(args)
            signals.raise_if_interrupted()
        except TypingLiteralStringError as error:
            print(f"typing-literalstring: error: {_escaped(str(error))}", file=sys.stderr)
            return EXIT_ERROR
        except KeyboardInterrupt as error:
            # SIGINT, SIGTERM or SIGHUP: work folders are removed on the way out, checker
            # processes are killed with their process group (core.processes.run_process), and
            # overlays are renamed into place whole, so an interrupted run leaves nothing
            # behind.  130 for SIGINT, 143 for SIGTERM.
            return signals.report(error)
        except Exception as error:
            # Python exits 1 on an uncaught exception, which is our "findings" status: a CI
            # step that allows findings would take a crash for a result.  Say it is ours, keep
            # the traceback for the report, and exit 2 like every run that checked nothing.
            traceback.print_exc(file=sys.stderr)
            print(
                f"typing-literalstring: error: internal error ({type(error).__name__}: "
                f"{_escaped(str(error))}); nothing was checked. Please report it with the "
                "traceback above",
                file=sys.stderr,
            )
            return EXIT_ERROR
    return result


def _escaped(message: str) -> str:
    """An error message with what came from the checked project (a file name, a setting)
    made harmless for the terminal; its own line breaks kept."""
    return "\n".join(output.printable(line) for line in message.split("\n"))
