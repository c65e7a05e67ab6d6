"""The hostile checkout's report: one block per step, then a summary table."""

from __future__ import annotations

import re
import shlex
import sys
from collections import Counter
from pathlib import Path
from typing import Sequence

from scripts.hostile.model import (
    ANCESTOR,
    CATEGORY_ORDER,
    CHECKER_CACHE,
    FAILING,
    MARKER,
    PROJECT,
    TMPROOT,
    TOOL_BYTECODE,
    USER_CACHE,
    Areas,
    StepResult,
)
from scripts.hostile.steps import show


def group_key(path: str, depth: int) -> str:
    parts = path.split("/")
    return "/".join(parts[: depth + 1]) if len(parts) > depth + 1 else path


def grouped(paths: Sequence[str], root_depth: int) -> list[str]:
    counts = Counter(group_key(p, root_depth) for p in paths)
    return [
        f"{key}{'/...' if n > 1 or key not in paths else ''}  ({n})"
        for key, n in sorted(counts.items())
    ]


def depth_of(path: Path) -> int:
    return len(str(path).rstrip("/").split("/")) - 1


def print_step(number: int, result: StepResult, areas: Areas, full: bool) -> None:
    step = result.step
    out = sys.stdout
    command = shlex.join(step.args)
    out.write(f"\n=== {number}. {step.name}: {command}\n    cwd: {step.cwd}\n")
    expected = " or ".join(str(c) for c in sorted(step.expect))
    summary = f"exit {result.exit_code} (expected {expected}) in {result.elapsed:.1f} s"
    if step.counts_findings:
        count = "?" if result.findings is None else str(result.findings)
        summary += f"; {count} findings"
    out.write(summary + "\n")
    stdout = show(result.stdout)
    interesting = [
        line
        for line in stdout.splitlines()
        if re.match(r"^(\d+ findings?\b|error:|warning:|Checked |refus|Wrote|wrote)", line)
        or "hostile_" in line
    ]
    if not step.counts_findings:
        interesting = stdout.splitlines()[:40]
    for line in interesting:
        out.write(f"  | {line[:300]}\n")
    err_lines = show(result.stderr).splitlines()
    for line in err_lines[-15:]:
        out.write(f"  ! {line[:300]}\n")
    for line in result.injections:
        out.write(f"  injection: {line}\n")
    out.write(f"  output control bytes: {', '.join(result.control) or 'none'}\n")

    total = sum(len(v) for v in result.listing.values())
    out.write(f"  files newer than the marker: {total}\n")
    depths = {
        PROJECT: depth_of(areas.project) + 1,
        USER_CACHE: depth_of(areas.user_cache) + 1,
        CHECKER_CACHE: depth_of(Path.home()) + 2,
        TOOL_BYTECODE: 6,
    }
    for category in CATEGORY_ORDER:
        paths = result.listing.get(category, [])
        if category in FAILING:
            paths = [p for p in paths if p in result.attributed_other or category == MARKER]
        out.write(f"    {category:<22} {len(paths)}\n")
        if not paths:
            continue
        if full or category in (*FAILING, ANCESTOR, TMPROOT):
            lines = paths
        else:
            lines = grouped(paths, depths.get(category, 4))
        for line in lines:
            out.write(f"        {show(line.encode())}\n")
    if result.concurrent_other:
        n = len(result.concurrent_other)
        out.write(
            f"    {'OTHER, concurrent':<22} {n} (changed during the command, but not by its "
            "processes (strace): other work on this machine)\n"
        )
        lines = result.concurrent_other if full else grouped(result.concurrent_other, 3)[:25]
        for line in lines:
            out.write(f"        {show(line.encode())}\n")
    if result.transient:
        out.write(
            f"  written outside the allowed areas and removed again (strace): "
            f"{len(result.transient)}\n"
        )
        for line in result.transient if full else grouped(result.transient, 3)[:25]:
            out.write(f"        {show(line.encode())}\n")
    if result.created or result.modified:
        out.write(
            f"  project: {len(result.created)} created, {len(result.modified)} pre-existing "
            "modified\n"
        )
        for rel in result.modified:
            out.write(f"        modified {rel}\n")
        created = result.created if full else grouped(result.created, 1)[:20]
        for line in created:
            out.write(f"        created {line}\n")
    out.write(f"  markers: {', '.join(result.markers) or 'none'}\n")
    if result.mode_changes or result.deleted:
        for line in result.mode_changes:
            out.write(f"  MODE CHANGED {line}\n")
        for line in result.deleted:
            out.write(f"  DELETED {line}\n")
    else:
        out.write("  modes: every pre-existing entry keeps its mode\n")
    for line in result.failures:
        out.write(f"  FAIL: {line}\n")
    for line in result.warnings:
        out.write(f"  WARN: {line}\n")
    out.flush()


def print_summary(results: Sequence[StepResult]) -> None:
    out = sys.stdout
    out.write("\n=== summary\n")
    header = (
        f"{'step':<26}{'exit':>5}{'want':>7}{'finds':>7}{'secs':>8}{'proj+':>7}{'cache':>7}"
        f"{'other':>7}{'conc.':>7}{'mark':>6}{'modes':>7}\n"
    )
    out.write(header)
    for r in results:
        findings = "-" if r.findings is None else str(r.findings)
        cache = len(r.listing.get(USER_CACHE, [])) + len(r.listing.get(CHECKER_CACHE, []))
        want = "/".join(str(c) for c in sorted(r.step.expect))
        out.write(
            f"{r.step.name:<26}{r.exit_code:>5}{want:>7}{findings:>7}{r.elapsed:>8.1f}"
            f"{len(r.created):>7}{cache:>7}{len(r.attributed_other):>7}"
            f"{len(r.concurrent_other):>7}{len(r.markers):>6}"
            f"{len(r.mode_changes) + len(r.deleted):>7}\n"
        )
