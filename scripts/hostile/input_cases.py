"""The hostile checkout's input cases (issue 43, items 1, 3, 5 and 6): what `check` reads of the
checkout, and how the checkout's own configuration could misdirect or hide it.

Each case is one step on the hostile copy, with a table of ours appended to its pyproject.toml
or folders planted beside its code for that step alone (``after`` takes them away):

* item 1, ``baseline`` of the table leading out of the project: ``../``, an absolute path, a
  folder that is a symbolic link out.  ``check --write-baseline`` must refuse (exit 2) naming
  the key, and write nothing anywhere (the harness's listing of written files says so too);
* item 3, a folder with mode 000 holding an injection (a database's data folder): the check
  runs as a user who cannot list it (root without the capabilities that override file modes,
  through ``setpriv``), must name the folder, exit 2, and still find every hostile injection;
* item 5, a package named ``build`` holding an injection, and build output (``build/lib``,
  ``dist``) holding a copy of it: the package's injection is found, the copy is not
  reported, and the skipped folders are named;
* item 6, ``ignore = ["LS"]``, ``per-file-ignores`` of ``"*"``, ``exclude = ["*"]``: the run
  exits 0 as the table asks, but warns that it cannot report a finding and counts what was
  hidden (at least the hostile injections) or left out.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Callable, Sequence

from scripts.hostile.model import Layout, Step

TABLE = "[tool.typing-literalstring]"
# Root lists any folder; without these capabilities it is held to the folder's mode, as any
# other user is.
DROP_FILE_OVERRIDES = ("--bounding-set", "-dac_override,-dac_read_search")

UNREADABLE = "hostile_data/pg"  # the folder of item 3
BUILD_PACKAGE = "hostile_buildpkg"  # the package of item 5, with its subpackage build/
BUILD_OUTPUT = "hostile_out"  # holds build/ and dist/, build output of item 5
INJECTION = """\
import subprocess


def run(name: str) -> None:
    subprocess.run("ls " + name, shell=True)
"""
INJECTION_LINE = 5


def _said(text: str) -> Callable[[bytes, bytes], list[str]]:
    """A step's check that its output says ``text``."""

    def verify(out: bytes, err: bytes) -> list[str]:
        return [] if text.encode() in out + err else [f"the output does not say {text!r}"]

    return verify


def _all(*checks: Callable[[bytes, bytes], list[str]]) -> Callable[[bytes, bytes], list[str]]:
    def verify(out: bytes, err: bytes) -> list[str]:
        return [failure for check in checks for failure in check(out, err)]

    return verify


class Table:
    """Our table appended to the copy's pyproject.toml for one step, and taken away after."""

    def __init__(self, project: Path) -> None:
        self.path = project / "pyproject.toml"
        self.saved: bytes | None = None

    def add(self, lines: str) -> Callable[[], None]:
        def before() -> None:
            self.saved = self.path.read_bytes() if self.path.exists() else None
            text = self.saved.decode("utf-8") if self.saved is not None else ""
            if TABLE in text:
                raise SystemExit(f"error: {self.path} has a {TABLE} table of its own")
            self.path.write_text(f"{text.rstrip()}\n\n{TABLE}\n{lines}", encoding="utf-8")

        return before

    def restore(self) -> None:
        if self.saved is None:
            self.path.unlink()
        else:
            self.path.write_bytes(self.saved)


def file_permission_prefix(folder: Path) -> list[str] | None:
    """The command prefix under which ``folder`` (mode 000) cannot be listed: none for a user,
    ``setpriv`` dropping the overriding capabilities for root; None where neither works."""
    prefix: list[str] = []
    if os.geteuid() == 0:
        setpriv = shutil.which("setpriv")
        if setpriv is None:
            return None
        prefix = [setpriv, *DROP_FILE_OVERRIDES]
    probe = [*prefix, sys.executable, "-c", "import os, sys; os.listdir(sys.argv[1])", str(folder)]
    listed = subprocess.run(probe, capture_output=True, check=False)
    return None if listed.returncode == 0 else prefix


def baseline_steps(check: Sequence[str], layout: Layout) -> list[Step]:
    """Item 1: the table's baseline out of the project, three ways; each refused, none written."""
    project = layout.project
    table = Table(project)
    link = project / "hostile_ci"
    outside = layout.run / "outside-baseline" / "baseline.json"
    cases = {
        "dotdot": (f"../{outside.parent.name}/{outside.name}", outside),
        "absolute": (str(layout.outside / "baseline.json"), layout.outside / "baseline.json"),
        "linked-folder": ("hostile_ci/baseline.json", layout.outside / "baseline.json"),
    }
    steps: list[Step] = []
    for name, (value, target) in cases.items():
        add = table.add(f"baseline = {json.dumps(value)}\n")

        def before(add: Callable[[], None] = add, linked: bool = name == "linked-folder") -> None:
            add()
            if linked:
                link.symlink_to(layout.outside, target_is_directory=True)

        def after(target: Path = target) -> None:
            table.restore()
            if link.is_symlink():
                link.unlink()
            # A baseline written out there (a failure, already judged) must not be read by
            # the next steps: .typing-literalstring may still be a link to the same folder.
            if target.exists():
                target.unlink()

        def nothing_at(target: Path = target) -> Callable[[bytes, bytes], list[str]]:
            def verify(out: bytes, err: bytes) -> list[str]:
                return [f"the baseline was written outside: {target}"] if target.exists() else []

            return verify

        steps.append(
            Step(
                f"input-baseline-{name}",
                [*check, "--write-baseline", "."],
                project,
                {2},
                must_not_write_project=True,
                before=before,
                after=after,
                verify=_all(_said(f"baseline = {value!r} leads outside the project"), nothing_at()),
            )
        )
    return steps


def unreadable_step(check: Sequence[str], layout: Layout) -> Step:
    """Item 3: a folder that cannot be listed, beside every hostile injection."""
    project = layout.project
    folder = project / UNREADABLE
    prefix: list[str] = []

    def before() -> None:
        folder.mkdir(parents=True)
        (folder / "job.py").write_text(INJECTION, encoding="utf-8")
        folder.chmod(0)
        found = file_permission_prefix(folder)
        if found is None:
            folder.chmod(0o755)
            raise SystemExit("error: cannot make a folder unreadable here (root without setpriv)")
        prefix[:] = found
        step.args[:] = [*prefix, *check, "."]

    def after() -> None:
        folder.chmod(0o755)
        shutil.rmtree(project / UNREADABLE.split("/")[0])

    step = Step(
        "input-unreadable-folder",
        [*check, "."],
        project,
        {2},  # code was not checked
        counts_findings=True,  # and every hostile injection is still found
        before=before,
        after=after,
        verify=_said(f"error: {UNREADABLE}/: not checked: the folder cannot be listed"),
    )
    return step


def build_package_step(check: Sequence[str], layout: Layout) -> Step:
    """Item 5: a package named build is checked (its injection found: not one of the copy's
    injections, which the other steps look for, since it is there for this step alone);
    build output holding a copy of it is not reported, and is named."""
    project = layout.project
    package = f"{BUILD_PACKAGE}/build/__init__.py"
    copy = f"{BUILD_OUTPUT}/build/lib/{package}"
    planted = (BUILD_PACKAGE, BUILD_OUTPUT)

    files = {f"{BUILD_PACKAGE}/__init__.py": "", package: INJECTION, copy: INJECTION}

    def before() -> None:
        for name, text in files.items():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            (project / name).write_text(text, encoding="utf-8")
        (project / BUILD_OUTPUT / "dist").mkdir()
        (project / BUILD_OUTPUT / "dist" / f"{BUILD_PACKAGE}-0.tar.gz").write_bytes(b"")

    def after() -> None:
        for name in planted:
            shutil.rmtree(project / name)

    def copy_not_reported(out: bytes, err: bytes) -> list[str]:
        return [f"build output reported: {copy}"] if copy.encode() in out else []

    note = f"{BUILD_OUTPUT}/build/, {BUILD_OUTPUT}/dist/ (build output"
    return Step(
        "input-build-package",
        [*check, "."],
        project,
        {1},
        counts_findings=True,
        before=before,
        after=after,
        verify=_all(_said(f"{package}:{INJECTION_LINE}:"), _said(note), copy_not_reported),
    )


def hiding_steps(check: Sequence[str], layout: Layout, injections: int) -> list[Step]:
    """Item 6: tables that hide everything exit 0, warn, and count what they hid."""
    project = layout.project
    table = Table(project)
    cases = {
        "ignore": ('ignore = ["LS"]\n', r"; (\d+) hidden by select/ignore"),
        "per-file-ignores": (
            '[tool.typing-literalstring.per-file-ignores]\n"*" = ["LS"]\n',
            r"; (\d+) hidden by per-file-ignores",
        ),
        "exclude": ('exclude = ["*"]\n', r"; (\d+) files?(?: and \d+ folders?)? left out by"),
    }
    steps: list[Step] = []
    for name, (lines, counted) in cases.items():

        def enough(out: bytes, err: bytes, counted: str = counted) -> list[str]:
            summary = re.search(r"^\d+ findings? with .*$", out.decode("utf-8", "replace"), re.M)
            if summary is None:
                return ["no summary line in the output"]
            found = re.search(counted, summary.group())
            if found is None:
                return [f"the summary does not count what the table hid: {summary.group()!r}"]
            if int(found.group(1)) < injections:
                return [f"the summary counts {found.group(1)}, fewer than {injections} injections"]
            return []

        steps.append(
            Step(
                f"input-hides-{name}",
                [*check, "."],
                project,
                {0},  # the table's choice; no longer a silent one
                before=table.add(lines),
                after=table.restore,
                verify=_all(_said("this check cannot report a finding"), enough),
            )
        )
    return steps


def input_steps(
    command: Sequence[str], checker: str, version: Sequence[str], layout: Layout, injections: int
) -> list[Step]:
    """Every input case, run with ``checker``; ``injections``: how many hostile injections the
    copy holds (what a table that hides everything must at least count)."""
    check = [*command, "check", "--checker", checker, *version]
    return [
        *baseline_steps(check, layout),
        unreadable_step(check, layout),
        build_package_step(check, layout),
        *hiding_steps(check, layout, injections),
    ]
