"""Writing into a project we do not trust: no write through a link that leaves it, and the
file modes the user's umask asks for.

A cloned repository may hold symbolic links (git records them), so ``.typing-literalstring``,
``pyproject.toml`` or the baseline can point anywhere on the machine: writing, replacing or
deleting through such a link would change files outside the project.  ``checked_target`` walks
the path the way the operating system does and refuses a link in the project that resolves
outside it; every path is checked before the first write, so a refusal changes nothing.

``tempfile`` creates private files and folders (0600, 0700), which is right for scratch space
but wrong for what stays in the project: a pyproject.toml replaced through a temporary file
would lose its 0644, an overlay folder renamed into place would be unreadable to the rest of a
team sharing the checkout.  What we create gets the modes the umask gives (0666 and 0777
masked), and a file we replace keeps its own.
"""

from __future__ import annotations

import os
import shutil
import stat
import tempfile
from pathlib import Path

from typing_literalstring.core.errors import TypingLiteralStringError


class OutsideLinkError(TypingLiteralStringError):
    """Writing a path would go through a symbolic link that leaves the project."""


def current_umask() -> int:
    """The process's umask, read without changing it where the system says it (Linux 4.7+)."""
    try:
        with open("/proc/self/status", encoding="ascii", errors="replace") as status:
            for line in status:
                if line.startswith("Umask:"):
                    return int(line.split()[1], 8)
    except (OSError, ValueError, IndexError):
        pass
    # Elsewhere the only way is to set it and set it back.  The value held meanwhile is the
    # strictest one, so a file another thread creates in that instant is private, never open.
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def new_file_mode() -> int:
    """The mode ``open()`` would give a new file: 0666 less the umask."""
    return 0o666 & ~current_umask()


def new_folder_mode() -> int:
    """The mode ``mkdir`` would give a new folder: 0777 less the umask."""
    return 0o777 & ~current_umask()


def _inside(path: Path, root: Path) -> bool:
    return path == root or root in path.parents


def _refuse(link: Path, target: Path, root: Path, points_to: str) -> OutsideLinkError:
    return OutsideLinkError(
        f"refusing to write {target}: {link} is a symbolic link to {points_to}, outside the "
        f"project {root}, so writing through it would change files there. Remove the link "
        f"{link} and run again: a real folder or file in its place is fine, and so is a link "
        "that stays inside the project (it is followed)"
    )


def checked_target(root: Path, target: Path, *, follow_target: bool = True) -> Path:
    """The real path to write ``target`` at, or OutsideLinkError when a symbolic link in the
    project ``root`` on the way to it (``target`` itself included) resolves outside ``root``.

    Links that stay inside the project are followed, the last one too unless
    ``follow_target`` is false (a folder that is replaced whole: the link is what gets
    replaced, never what it points to).  Links outside the project (a path the user chose
    outside it) are the user's own and followed as the system would.
    """
    real_root = root.resolve()
    absolute = target if target.is_absolute() else Path.cwd() / target
    current = Path(absolute.anchor)
    parts = absolute.parts[1:]
    for index, part in enumerate(parts):
        if part in ("", "."):
            continue
        if part == "..":  # after a link, ".." is the parent of where it led, as for the system
            current = current.parent
            continue
        candidate = current / part
        if not candidate.is_symlink():
            current = candidate
            continue
        try:
            destination = candidate.resolve()
        except (OSError, RuntimeError) as error:  # a loop: RuntimeError before Python 3.13
            raise OutsideLinkError(
                f"refusing to write {target}: {candidate} is a symbolic link that cannot be "
                f"resolved ({error}). Remove the link {candidate} and run again"
            ) from error
        if _inside(current, real_root) and not _inside(destination, real_root):
            raise _refuse(candidate, target, real_root, f"{os.readlink(candidate)} ({destination})")
        last = index == len(parts) - 1
        current = candidate if last and not follow_target else destination
    return current


def write_text_atomically(
    path: Path, text: str, *, prefix: str, newline: str | None = None
) -> None:
    """Replace ``path`` with ``text`` in one step: a temporary file in its folder, renamed over
    it.  The file keeps its mode (a new one gets the umask's); a reader never sees half of it.
    ``path`` must be the real file (``checked_target``): a link there would be replaced."""
    try:
        mode = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        mode = new_file_mode()
    fd, temporary = tempfile.mkstemp(prefix=prefix, dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline=newline) as handle:
            handle.write(text)
        # mkstemp's file is 0600; os.chmod rather than fchmod, which Windows lacks before 3.13.
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        if os.path.lexists(temporary):
            os.unlink(temporary)
        raise


def set_new_folder_mode(path: Path) -> None:
    """Give a folder ``tempfile.mkdtemp`` made (0700) the mode of a new folder, before it is
    renamed into place."""
    os.chmod(path, new_folder_mode())


def copy_tree(source: Path, target: Path) -> None:
    """``shutil.copytree``, but the files and folders it creates get the modes of new ones
    rather than the source's: an installed package may be read-only (a system or Nix store),
    and a read-only copy could neither be tightened nor removed by the next build."""
    shutil.copytree(source, target, copy_function=shutil.copyfile)
    mode = new_folder_mode()
    os.chmod(target, mode)  # copytree copies each folder's mode from the source
    for folder, folders, _ in os.walk(target):
        for name in folders:
            os.chmod(os.path.join(folder, name), mode)
