"""Taking in a class folder: which entries are plain submissions, before any of them is read.

A submission is a plain `.py` file, or a folder of plain files and folders at most
`MAX_DEPTH` levels deep, with at most `SUBMISSION_FILES` entries and `SUBMISSION_BYTES`
bytes (the sandbox's own limits). A symbolic link, a hard link, a FIFO, a socket or a
device anywhere in it is refused, for that student alone, with one line saying why.

Nothing is followed or opened here: every entry is looked at with lstat, folders are
scanned with a stack (never by recursion), and a scan stops at the first limit crossed,
so that a huge or deep folder costs a few directory reads.
"""

from __future__ import annotations

import os
import stat
from dataclasses import dataclass
from pathlib import Path

from grader.sandbox.isolation import SUBMISSION_BYTES, SUBMISSION_FILES
from grader.sandbox.wire import clean_text

MAX_DEPTH = 8  # folders inside a submission folder, nested at most this deep
NAME_LIMIT = 100  # characters of a name shown in a note
PLAIN_ONLY = "submit plain files only"


@dataclass(frozen=True)
class Scan:
    """A submission folder's plain files (sorted), or why it was refused."""

    files: tuple[Path, ...] = ()
    refusal: str = ""


def shown(path: Path, root: Path) -> str:
    """`path` relative to `root`, safe to show on one line."""
    return clean_text(str(path.relative_to(root)), NAME_LIMIT).replace("\n", " ")


def not_plain(info: os.stat_result) -> str:
    """Why an entry is not a plain file or folder ("" when it is one)."""
    mode = info.st_mode
    if stat.S_ISDIR(mode):
        return ""
    if stat.S_ISREG(mode):
        return f"is a hard link ({info.st_nlink} names for one file)" if info.st_nlink > 1 else ""
    kinds = (
        (stat.S_ISLNK, "a symbolic link"),
        (stat.S_ISFIFO, "a FIFO"),
        (stat.S_ISSOCK, "a socket"),
        (stat.S_ISCHR, "a device"),
        (stat.S_ISBLK, "a device"),
    )
    return "is " + next((kind for test, kind in kinds if test(mode)), "not a file")


def file_refusal(path: Path, root: Path) -> str:
    """Why the `.py` file `path` (directly in the class folder `root`) is not graded ("" when it is)."""
    try:
        info = path.lstat()
    except OSError as error:
        return f"not graded: {shown(path, root)} cannot be read ({error.strerror})"
    why = not_plain(info)
    if why:
        return f"not graded: {shown(path, root)} {why} ({PLAIN_ONLY})"
    if info.st_size > SUBMISSION_BYTES:
        return f"not graded: {shown(path, root)} is larger than {SUBMISSION_BYTES >> 20} MB"
    return ""


def scan_folder(folder: Path, root: Path) -> Scan:
    """The plain files of the submission folder `folder` (inside the class folder `root`),
    or the first reason to refuse it."""
    files: list[Path] = []
    entries = size = 0
    stack = [(folder, 0)]
    while stack:
        current, depth = stack.pop()
        try:
            with os.scandir(current) as listing:
                for entry in listing:
                    path, info = Path(entry.path), entry.stat(follow_symlinks=False)
                    entries, size = entries + 1, size + (info.st_size if stat.S_ISREG(info.st_mode) else 0)
                    why = _entry_refusal(path, info, depth + 1, root) or _total_refusal(entries, size)
                    if why:
                        return Scan(refusal=f"not graded: {why}")
                    if stat.S_ISDIR(info.st_mode):
                        stack.append((path, depth + 1))
                    else:
                        files.append(path)
        except OSError as error:
            return Scan(refusal=f"not graded: {shown(current, root)} cannot be read ({error.strerror})")
    return Scan(tuple(sorted(files)))


def _entry_refusal(path: Path, info: os.stat_result, depth: int, root: Path) -> str:
    """Why one entry, `depth` levels inside its submission folder, is refused ("" when it is not)."""
    why = not_plain(info)
    if why:
        return f"{shown(path, root)} {why} ({PLAIN_ONLY})"
    if stat.S_ISDIR(info.st_mode) and depth > MAX_DEPTH:
        return f"{shown(path, root)} is nested more than {MAX_DEPTH} folders deep"
    return ""


def _total_refusal(entries: int, size: int) -> str:
    """Why a submission folder of `entries` entries and `size` bytes so far is refused ("" when it is not)."""
    if entries > SUBMISSION_FILES:
        return f"the folder holds more than {SUBMISSION_FILES} files and folders: submit only your own files"
    if size > SUBMISSION_BYTES:
        return f"the folder holds more than {SUBMISSION_BYTES >> 20} MB: submit only your own files"
    return ""


def inside(path: Path, root: Path) -> bool:
    """Whether `path`, every link resolved, lies in the folder `root` (itself resolved)."""
    return Path(os.path.realpath(path)).is_relative_to(root)
