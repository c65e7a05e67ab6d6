"""Which files a command's processes wrote, from an ``strace -f`` log.

The hostile-checkout run (hostile_checkout.py) lists every file newer than a marker; other
processes write on this machine too, so a file outside the allowed areas counts against the
command only if its own processes wrote it.  strace records each call that creates, writes,
renames or removes a path; this module runs strace and reads its log.
"""

from __future__ import annotations

import os
import re
import subprocess
from dataclasses import dataclass, field
from pathlib import Path


@dataclass
class StraceWrites:
    paths: set[str] = field(default_factory=lambda: set())  # resolved paths written or removed
    syscalls: int = 0


TRACED = [
    "open",
    "creat",
    "openat",
    "openat2",
    "mkdir",
    "mkdirat",
    "rmdir",
    "unlink",
    "unlinkat",
    "rename",
    "renameat",
    "renameat2",
    "link",
    "linkat",
    "symlink",
    "symlinkat",
    "chmod",
    "fchmod",
    "fchmodat",
    "chown",
    "fchown",
    "fchownat",
    "lchown",
    "truncate",
    "ftruncate",
    "utime",
    "utimes",
    "utimensat",
    "futimesat",
    "mknod",
    "mknodat",
]

# syscall -> (dirfd argument or None, path argument) for each path it changes
PATH_ARGS: dict[str, list[tuple[int | None, int]]] = {
    "creat": [(None, 0)],
    "mkdir": [(None, 0)],
    "mkdirat": [(0, 1)],
    "rmdir": [(None, 0)],
    "unlink": [(None, 0)],
    "unlinkat": [(0, 1)],
    "rename": [(None, 0), (None, 1)],
    "renameat": [(0, 1), (2, 3)],
    "renameat2": [(0, 1), (2, 3)],
    "link": [(None, 1)],
    "linkat": [(2, 3)],
    "symlink": [(None, 1)],
    "symlinkat": [(1, 2)],
    "chmod": [(None, 0)],
    "fchmodat": [(0, 1)],
    "chown": [(None, 0)],
    "lchown": [(None, 0)],
    "fchownat": [(0, 1)],
    "truncate": [(None, 0)],
    "utime": [(None, 0)],
    "utimes": [(None, 0)],
    "utimensat": [(0, 1)],
    "futimesat": [(0, 1)],
    "mknod": [(None, 0)],
    "mknodat": [(0, 1)],
}
FD_ARGS = {"fchmod": 0, "fchown": 0, "ftruncate": 0}
OPENS = {"open": (None, 0, 1), "openat": (0, 1, 2), "openat2": (0, 1, 2)}
O_WRITING = 0o1 | 0o2 | 0o100 | 0o1000  # O_WRONLY | O_RDWR | O_CREAT | O_TRUNC
NOT_FILES = ("/dev/", "/proc/", "/sys/")

_ESCAPES = {"n": 10, "t": 9, "r": 13, "v": 11, "f": 12, "a": 7, "b": 8, "e": 27}


def unescape(text: str) -> str:
    """A string as strace prints it (C escapes, octal bytes) back to a file name."""
    out = bytearray()
    i = 0
    while i < len(text):
        c = text[i]
        if c != "\\" or i + 1 == len(text):
            out += c.encode("utf-8", "surrogateescape")
            i += 1
            continue
        n = text[i + 1]
        if n in "01234567":
            j = i + 1
            while j < len(text) and j < i + 4 and text[j] in "01234567":
                j += 1
            out.append(int(text[i + 1 : j], 8) & 0xFF)
            i = j
        elif n == "x" and re.match(r"[0-9a-fA-F]{2}", text[i + 2 : i + 4]):
            out.append(int(text[i + 2 : i + 4], 16))
            i += 4
        else:
            out.append(_ESCAPES.get(n, ord(n) if ord(n) < 256 else 63))
            i += 2
    return os.fsdecode(bytes(out))


def split_call(text: str) -> tuple[str, list[str], str] | None:
    """``name(arg, arg) = ret`` -> (name, [arg, arg], " = ret"), quotes and <paths> kept whole."""
    m = re.match(r"(\w+)\(", text)
    if m is None:
        return None
    args: list[str] = []
    current: list[str] = []
    depth = 0
    i = m.end()
    while i < len(text):
        c = text[i]
        if c in '"<':
            close = '"' if c == '"' else ">"
            j = i + 1
            while j < len(text) and text[j] != close:
                j += 2 if text[j] == "\\" else 1
            current.append(text[i : j + 1])
            i = j + 1
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            if depth == 0:
                args.append("".join(current).strip())
                return m.group(1), args, text[i + 1 :]
            depth -= 1
        elif c == "," and depth == 0:
            args.append("".join(current).strip())
            current = []
            i += 1
            continue
        current.append(c)
        i += 1
    return None


def _fd_path(arg: str) -> str | None:
    m = re.match(r"^-?\d+<(.*)>$", arg, re.S)
    return unescape(m.group(1)) if m else None


def _str_arg(arg: str) -> str | None:
    if len(arg) >= 2 and arg[0] == '"' and arg[-1] == '"':
        return unescape(arg[1:-1])
    return None


def _flags(text: str) -> int:
    """Open flags as strace -X raw prints them (hex), or symbolic as a fallback."""
    m = re.search(r"0x[0-9a-fA-F]+|\d+", text)
    if m is None:
        return 0
    number = m.group(0)
    if number.startswith("0x"):
        return int(number, 16)
    if number.startswith("0") and len(number) > 1:
        return int(number, 8)
    symbolic = 0
    for name, bit in (("O_WRONLY", 0o1), ("O_RDWR", 0o2), ("O_CREAT", 0o100), ("O_TRUNC", 0o1000)):
        if name in text:
            symbolic |= bit
    return int(number) | symbolic


def _resolve(path: str) -> str:
    """The real folder of ``path`` (symlinks followed) and its own name (not followed)."""
    path = os.path.normpath(path)
    if path == "/":
        return path
    return os.path.join(os.path.realpath(os.path.dirname(path)), os.path.basename(path))


def parse_strace(log: Path, cwd: Path) -> StraceWrites:
    writes = StraceWrites()
    pending: dict[str, str] = {}
    cwds: dict[str, str] = {}
    try:
        text = log.read_text(encoding="utf-8", errors="surrogateescape")
    except OSError:
        return writes
    for raw in text.splitlines():
        m = re.match(r"^(\d+)\s+(.*)$", raw)
        if m is None:
            continue
        pid, body = m.group(1), m.group(2)
        if body.endswith("<unfinished ...>"):
            pending[pid] = body[: -len("<unfinished ...>")].rstrip()
            continue
        resumed = re.match(r"^<\.\.\. \w+ resumed>(.*)$", body, re.S)
        if resumed is not None:
            body = pending.pop(pid, "") + resumed.group(1)
        call = split_call(body)
        if call is None:
            continue
        name, args, rest = call
        ret = re.match(r"\s*=\s*(-?\d+)(?:<(.*)>)?", rest, re.S)
        for arg in args:
            if arg.startswith("-100<"):
                here = _fd_path(arg)
                if here is not None:
                    cwds[pid] = here
        if ret is None or ret.group(1).startswith("-"):
            continue  # failed: nothing changed
        base = cwds.get(pid, str(cwd))

        def at(dirfd: int | None, index: int, args: list[str] = args, base: str = base) -> None:
            if index >= len(args):
                return
            path = _str_arg(args[index])
            if path is None or path == "":
                path = _fd_path(args[dirfd if dirfd is not None else index])
                if path is None:
                    return
            elif not path.startswith("/"):
                folder = _fd_path(args[dirfd]) if dirfd is not None else None
                path = os.path.join(folder or base, path)
            writes.paths.add(path)

        if name in OPENS:
            dirfd, index, flags_at = OPENS[name]
            if flags_at >= len(args):
                continue
            flags_text = args[flags_at]
            writing = _flags(flags_text) & O_WRITING != 0
            if not writing:
                continue
            writes.syscalls += 1
            if ret.group(2) is not None:
                writes.paths.add(unescape(ret.group(2)))
            else:
                at(dirfd, index)
        elif name in PATH_ARGS:
            writes.syscalls += 1
            for dirfd, index in PATH_ARGS[name]:
                at(dirfd, index)
        elif name in FD_ARGS:
            writes.syscalls += 1
            path = _fd_path(args[FD_ARGS[name]]) if args else None
            if path is not None:
                writes.paths.add(path)
    writes.paths = {
        _resolve(p)
        for p in writes.paths
        if not (p.startswith(NOT_FILES) and not p.startswith("/dev/shm/"))
    }
    return writes


def strace_usable(strace: str | None) -> bool:
    if strace is None:
        return False
    done = subprocess.run(
        [strace, "-f", "-qq", "-o", os.devnull, "true"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
        check=False,
    )
    return done.returncode == 0


def strace_prefix(strace: str, log: Path) -> list[str]:
    traced = ",".join("?" + name for name in TRACED)
    return [
        strace,
        "-f",
        "-qq",
        "-y",
        "-X",
        "raw",
        "-s",
        "4096",
        "--seccomp-bpf",
        "-e",
        "signal=none",
        "-e",
        f"trace={traced}",
        "-o",
        str(log),
    ]
