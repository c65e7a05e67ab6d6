"""Where a file written during a step belongs: the project, the caches, the harness, or
somewhere it must not be; and the listing of every file newer than a marker."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Sequence

from scripts.hostile.model import (
    ANCESTOR,
    CHECKER_CACHE,
    ELSEWHERE,
    HARNESS,
    MARKER,
    OTHER,
    OUTSIDE_TARGET,
    PROJECT,
    TMPROOT,
    TOOL,
    TOOL_BYTECODE,
    USER_CACHE,
    Areas,
    Layout,
)

REPO = Path(__file__).resolve().parents[2]

CHECKER_CACHE_NAMES = (
    "pyright-python",
    "pyright",
    "basedpyright",
    "ty",
    "pyrefly",
    "zuban",
    "mypy",
    "node-gyp",
)
CHECKER_HOME_NAMES = (".npm", ".node-gyp", ".cache/node")


def is_within(path: str, root: Path) -> bool:
    r = str(root)
    return path == r or path.startswith(r.rstrip("/") + "/")


def cache_base(env: dict[str, str]) -> Path:
    return Path(env.get("XDG_CACHE_HOME") or str(Path.home() / ".cache"))


def user_cache(env: dict[str, str]) -> Path:
    """Where `check` keeps its overlays (typing_literalstring/specs/cache.py, cache_root)."""
    if env.get("TYPING_LITERALSTRING_CACHE"):
        return Path(env["TYPING_LITERALSTRING_CACHE"])
    return cache_base(env) / TOOL


def resolved(path: Path) -> Path:
    return Path(os.path.realpath(str(path)))


def make_areas(layout: Layout, env: dict[str, str], command: Sequence[str]) -> Areas:
    base = cache_base(env)
    home = Path.home()
    checker = [base / name for name in CHECKER_CACHE_NAMES]
    checker += [home / name for name in CHECKER_HOME_NAMES]
    tool_dirs: list[Path] = []
    executable = Path(command[0])
    if executable.is_absolute() and executable.parent.name in ("bin", "Scripts"):
        tool_dirs.append(executable.parent.parent)
    tool_dirs.append(Path(sys.prefix))
    if (REPO / "typing_literalstring").is_dir():
        tool_dirs.append(REPO / "typing_literalstring")
    tmp_roots = [Path("/tmp"), Path("/var/tmp"), Path("/dev/shm"), Path(tempfile.gettempdir())]
    tmp_roots.append(layout.run.parent)
    return Areas(
        project=resolved(layout.project),
        user_cache=resolved(user_cache(env)),
        checker_caches=[resolved(p) for p in checker],
        tool_dirs=[resolved(p) for p in tool_dirs],
        tmp_roots=[resolved(p) for p in tmp_roots],
        layout=layout,
    )


def classify(path: str, areas: Areas) -> str:
    layout = areas.layout
    if is_within(path, layout.markers):
        return MARKER
    if is_within(path, areas.project):
        return PROJECT
    if is_within(path, areas.user_cache):
        return USER_CACHE
    if any(is_within(path, c) for c in areas.checker_caches):
        return CHECKER_CACHE
    if "/__pycache__" in path and any(is_within(path, d) for d in areas.tool_dirs):
        return TOOL_BYTECODE
    if is_within(path, layout.outside):
        return OUTSIDE_TARGET
    if is_within(path, layout.elsewhere):
        return ELSEWHERE
    if is_within(path, layout.harness) or path == str(layout.run):
        return HARNESS
    allowed = [areas.project, areas.user_cache, layout.run, *areas.checker_caches]
    if any(is_within(str(a), Path(path)) for a in allowed):
        return ANCESTOR
    if any(path == str(t) for t in areas.tmp_roots):
        return TMPROOT
    return OTHER


# --- listing files newer than a marker -----------------------------------------------------


def newer_than(marker: Path, prune: Sequence[Path]) -> list[str]:
    roots = ["/"] + [r for r in ("/dev/shm",) if os.path.isdir(r)]
    pruned = ["/proc", "/sys", "/dev", "/run", *[str(p) for p in prune]]
    expression: list[str] = ["("]
    for i, p in enumerate(pruned):
        expression += (["-o"] if i else []) + ["-path", p]
    expression += [")", "-prune", "-o", "(", "-newer", str(marker), "-o", "-cnewer", str(marker)]
    expression += [")", "-print0"]
    done = subprocess.run(
        ["find", *roots, "-xdev", *expression],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return sorted({os.fsdecode(p) for p in done.stdout.split(b"\0") if p})
