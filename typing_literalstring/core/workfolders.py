"""The private temporary folder of a command, and those of runs that died without removing
theirs.

A command keeps every temporary file of its run, and of the checkers it starts (their TMPDIR),
in one folder that it removes on the way out (``commands.entry``).  A run killed by SIGKILL,
or by the out-of-memory killer, cannot: the folder stays, with what pyright had written in it.
So each run holds a lock on a file in its folder for as long as it lives (the kernel releases
it when the process dies, however it dies), and each run removes the folders of our name whose
lock it can take: those of dead runs.  A folder without the lock file (made by an older
version, or by a run that has not taken its lock yet) is left alone, and so is any folder that
is not a real folder owned by this user.
"""

from __future__ import annotations

# Light on purpose: imported before the signal handling is complete (commands.entry).
import os
import shutil
import tempfile

LOCK = ".typing-literalstring-run"
_PENDING = LOCK + ".new"
# The descriptor holding this run's lock: open, and locked, until the process ends.
_held: list[int] = []


def make(prefix: str) -> str:
    """A new private folder for this run, in the temporary folder, locked."""
    folder = tempfile.mkdtemp(prefix=prefix)
    _lock(folder)
    return folder


def _lock(folder: str) -> None:
    """Lock the folder's file before giving it its name: another run that finds the name
    finds it locked (a file it could lock first would be a dead run's to it)."""
    try:
        import fcntl
    except ImportError:  # Windows: no flock; its folders are not cleaned up
        return
    pending = os.path.join(folder, _PENDING)
    descriptor = os.open(pending, os.O_CREAT | os.O_RDWR, 0o600)
    try:
        fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        os.rename(pending, os.path.join(folder, LOCK))
    except OSError:
        os.close(descriptor)
        return
    _held.append(descriptor)


def remove_dead(parent: str, prefix: str) -> list[str]:
    """Remove the folders ``prefix``* in ``parent`` whose run has ended; the ones removed."""
    try:
        import fcntl
    except ImportError:
        return []
    removed: list[str] = []
    try:
        entries = list(os.scandir(parent))
    except OSError:
        return []
    for entry in entries:
        if not entry.name.startswith(prefix):
            continue
        try:
            if not entry.is_dir(follow_symlinks=False) or (
                entry.stat(follow_symlinks=False).st_uid != os.getuid()
            ):
                continue
            descriptor = os.open(
                os.path.join(entry.path, LOCK), os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0)
            )
        except OSError:  # no lock file: not ours to judge
            continue
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError:  # a live run holds it
            os.close(descriptor)
            continue
        try:
            shutil.rmtree(entry.path, ignore_errors=True)
            removed.append(entry.path)
        finally:
            os.close(descriptor)
    return removed
