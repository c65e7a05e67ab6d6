"""Running one step of the hostile checkout and judging what it did."""

from __future__ import annotations

import os
import re
import stat
import subprocess
import time
from pathlib import Path
from typing import Sequence

from scripts.hostile.model import (
    ANCESTOR,
    CONTROL_BYTES,
    ELSEWHERE,
    FAILING,
    MARKER,
    OTHER,
    OUTSIDE_TARGET,
    PROJECT,
    TMPROOT,
    Areas,
    FileState,
    Injection,
    Layout,
    Step,
    StepResult,
)
from scripts.hostile.places import classify, newer_than
from scripts.hostile.planting import snapshot
from scripts.strace_writes import parse_strace, strace_prefix


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
    if step.verify is not None:
        failures += step.verify(out, err)
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
    if step.after is not None:
        step.after()
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
