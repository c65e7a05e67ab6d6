"""What a check cost, for ``--verbose``: the checker processes it started, their time, and the
peak memory of ours and of theirs.  The benchmark (scripts/benchmark.py) tells the tool's own
time and memory from the checker's with this line."""

from __future__ import annotations

import sys
from pathlib import Path

from typing_literalstring.analysis.findings import CheckResult


def checker_runs(result: CheckResult) -> str:
    """How many checker processes the check started, for what, and what they cost."""
    runs = result.checker_runs
    listed = ", ".join(f"{name} ({files} file{'s' if files != 1 else ''})" for name, files in runs)
    said = f"{len(runs)} checker run{'s' if len(runs) != 1 else ''}" + (
        f": {listed}" if runs else ""
    )
    own, checkers = peak_memory()
    return (
        f"{said}; {sum(result.checker_seconds):.2f} s in the checker; peak memory "
        f"{own} MB ours, {checkers} MB the checker's"
    )


def peak_memory() -> tuple[int, int]:
    """Peak resident memory in MB of this process and of its largest child (the checker).

    Ours is the kernel's high-water mark of this program's own memory (VmHWM, Linux), not
    ru_maxrss: that one keeps, across exec, the memory of the process that started us (242 MB
    for every check the benchmark started).  The child's is ru_maxrss for want of better, so it
    is at least our size when we started it."""
    try:
        import resource
    except ImportError:  # Windows
        return 0, 0
    # ru_maxrss is in kilobytes on Linux, in bytes on macOS.
    unit = 1 if sys.platform == "darwin" else 1024
    own = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * unit
    try:
        status = Path("/proc/self/status").read_text(encoding="ascii", errors="replace")
    except OSError:
        status = ""
    for line in status.splitlines():
        if line.startswith("VmHWM:"):
            own = int(line.split()[1]) * 1024
    child = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss * unit
    return own // 2**20, child // 2**20
