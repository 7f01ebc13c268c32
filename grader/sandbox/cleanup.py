"""Removing, as root, everything a worker's user id left on the machine: its processes,
its System V IPC objects, and its files (POSIX shared memory and message queues
included) in the folders anyone may write to.

Under `user` isolation the grader runs this after every worker, and the guardian runs it
for every user id it was given when the grader dies. Standard library only: the
guardian runs this file as a script (`python -I -S cleanup.py guard OFFSET FOLDER...`,
user ids on its standard input). It imports nothing from the grader.

Processes are killed by a short-lived helper (`shadowkill.py`, beside this file) whose
real and saved user ids are a *shadow* id (the worker's id + `OFFSET`) and whose
effective id is the worker's:
`kill(-1)` then reaches every process of the worker's user at once (the kernel walks the
process list under a lock, so a process that forks cannot outrun it), while no process
of the worker's user may signal the helper, whose real and saved ids are not its own.
The kill is repeated until /proc shows nothing of that user; an id that still has a
process after that is never handed out again (`clean_users` names it).

Files are walked through folder descriptors, never following a link, with at most
`MAX_OPEN` folders open: a deeper folder of the user's is first moved up to the top of
the tree being cleaned, so nesting thousands of folders deep leaves nothing behind. Folders the worker's
user could not pass through (no search permission for others) are not walked.
"""

from __future__ import annotations

import ctypes
import os
import re
import signal
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from typing import Any

SHADOW_OFFSET = 100_000_000  # a worker's shadow id: its id + this
KILL_ROUNDS = 50
MAX_OPEN = 64  # folders open at once while cleaning
IPC_RMID = 0
#: File systems whose folder's link count is 2 exactly when it holds no folder (others may
#: show 1, or anything: btrfs, overlayfs, network and FUSE file systems).
COUNTED_LINKS = frozenset({"ext2", "ext3", "ext4", "xfs", "tmpfs"})
_STATE = re.compile(rb"^State:\s*(\S)", re.MULTILINE)
_UIDS = re.compile(rb"^Uid:\s*(\d+)\s+(\d+)\s+(\d+)", re.MULTILINE)
#: A folder being walked: its descriptor, the names left to look at, whether all of it goes,
#: and where it sits (its parent's descriptor and its name), to remove it once empty.
Folder = tuple[int, list[str], bool, int, str]

#: The kill helper (see `shadowkill`), beside this file: the guardian runs this file as a
#: script, with nothing of the kit on its path.
KILLER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "shadowkill.py")


def _processes() -> Iterator[tuple[int, set[int]]]:
    """Each live process (zombies aside) and its real, effective and saved user ids."""
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/status", "rb") as handle:
                text = handle.read()
        except OSError:
            continue
        state, ids = _STATE.search(text), _UIDS.search(text)
        if state is not None and ids is not None and state[1] != b"Z":
            yield int(entry), {int(ids[1]), int(ids[2]), int(ids[3])}


def user_processes(uid: int) -> list[int]:
    """Live processes (zombies aside) any of whose real, effective or saved ids is `uid`."""
    return [pid for pid, ids in _processes() if uid in ids]


def live_users() -> set[int]:
    """Every user id that a live process has as its real, effective or saved id."""
    return {uid for _, ids in _processes() for uid in ids}


def kill_user(uid: int, shadow: int, python: str = sys.executable) -> bool:
    """Kill every process of `uid`; True when none is left."""
    for _ in range(KILL_ROUNDS):
        if not user_processes(uid):
            return True
        subprocess.run(
            [python, "-I", "-S", KILLER, str(uid), str(shadow)],
            cwd="/",
            env={},
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        time.sleep(0.01)  # let the killed exit and their parents reap them
    return not user_processes(uid)


def remove_ipc(uids: frozenset[int]) -> None:
    """Remove the System V shared memory segments, message queues and semaphore sets that
    one of `uids` created or owns."""
    libc = ctypes.CDLL(None, use_errno=True)
    named = {str(uid) for uid in uids}  # as /proc/sysvipc writes them
    removers: tuple[tuple[str, str, Callable[[int], object]], ...] = (
        ("shm", "shmid", lambda ident: libc.shmctl(ident, IPC_RMID, None)),
        ("msg", "msqid", lambda ident: libc.msgctl(ident, IPC_RMID, None)),
        ("sem", "semid", lambda ident: libc.semctl(ident, 0, IPC_RMID)),
    )
    for kind, key, remove in removers:
        try:
            with open(f"/proc/sysvipc/{kind}", encoding="ascii") as handle:
                header, *rows = [line.split() for line in handle if line.strip()]
            ident, owner, creator = header.index(key), header.index("uid"), header.index("cuid")
        except (OSError, ValueError):  # no System V IPC here, or a layout we do not know
            continue
        for row in rows:
            if row[owner] in named or row[creator] in named:
                remove(int(row[ident]))


def remove_files(top: str, uids: frozenset[int]) -> None:
    """Remove every entry under `top` that one of `uids` owns (a folder of theirs with all
    it holds), never following a link and never leaving `top`'s file system: one walk
    for all of them. Only the folders of `open_to` can hold a file of theirs; in root's
    closed folders only the subfolders are looked at, so the walk costs what the open
    folders hold, not what root keeps under `top` (a clone, a virtual environment)."""
    try:
        top_fd = os.open(top, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW)
    except OSError:
        return
    seen = os.fstat(top_fd)
    device = seen.st_dev
    stack: list[Folder] = [(top_fd, _names(top_fd, open_to(seen, uids)), False, -1, "")]
    moved = 0
    while stack:
        fd, names, doomed, _, _ = stack[-1]
        if not names:
            _leave(stack.pop())
            continue
        entry = names.pop()
        try:
            info = os.stat(entry, dir_fd=fd, follow_symlinks=False)
        except OSError:
            continue
        goes = doomed or info.st_uid in uids
        if not stat.S_ISDIR(info.st_mode):
            if goes:
                _quietly(os.unlink, entry, dir_fd=fd)
            continue
        if info.st_dev != device or not (goes or info.st_mode & stat.S_IXOTH):
            continue  # another file system, or a folder the user could not even pass through
        if len(stack) < MAX_OPEN:
            child = _open_folder(fd, entry, info)
            if child is not None:
                stack.append((child, _names(child, goes or open_to(info, uids)), goes, fd, entry))
        elif goes:  # too deep to keep open: moved to the top, where it is met again
            moved += 1  # (another's is left: cleaning its owner removes it)
            flat = f".grader-cleanup-{os.getpid()}-{moved}"
            if _quietly(os.rename, entry, flat, src_dir_fd=fd, dst_dir_fd=top_fd):
                stack[0][1].append(flat)


def _leave(folder: Folder) -> None:
    """Close a folder walked to its end, and remove it if it goes."""
    fd, _, doomed, parent, name = folder
    os.close(fd)
    if doomed and parent >= 0:
        _quietly(os.rmdir, name, dir_fd=parent)


def _open_folder(parent: int, name: str, seen: os.stat_result) -> int | None:
    """A descriptor of the folder `name` in `parent`, if it is still the one `seen`."""
    try:
        child = os.open(name, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW, dir_fd=parent)
    except OSError:
        return None
    opened = os.fstat(child)
    if (opened.st_dev, opened.st_ino) != (seen.st_dev, seen.st_ino):  # swapped meanwhile
        os.close(child)
        return None
    return child


def open_to(folder: os.stat_result, uids: frozenset[int]) -> bool:
    """Whether a file of one of `uids` may be in `folder`: a folder anyone or their group
    (a worker runs with the group of its user's number) may write to, or one that is not
    root's. A user can make, move or link a file only into a folder it may write to, and
    only a folder's owner can close it afterwards: a worker that owns one, or another
    worker it works with, may have closed it over a file of theirs; root does not."""
    return folder.st_uid != 0 or bool(folder.st_mode & stat.S_IWOTH) or (bool(folder.st_mode & stat.S_IWGRP) and folder.st_gid in uids)


def _names(fd: int, everything: bool) -> list[str]:
    """The entries of folder `fd`: all of them, or (not `everything`) those that may be
    folders (the file system's entry type says so, or does not say)."""
    try:
        with os.scandir(fd) as entries:
            return [e.name for e in entries if everything or _maybe_folder(e)]
    except OSError:
        return []


def _maybe_folder(entry: os.DirEntry[str]) -> bool:
    try:
        return entry.is_dir(follow_symlinks=False)
    except OSError:
        return False


def _quietly(action: Callable[..., Any], *args: Any, **kwargs: Any) -> bool:
    try:
        action(*args, **kwargs)
    except OSError:
        return False
    return True


def world_writable(top: str = "/", depth: int = 8, budget: int = 500_000) -> list[str]:
    """The folders anyone may write to, found under `top` without following a link (none
    inside another found, whose walk covers them; kernel file systems skipped but for
    /dev/shm and /dev/mqueue): where a worker's user could leave files. Folders a
    stranger may not pass through (no search permission for others) are not walked: a
    worker's user could not reach what they hold; nor are folders that hold no folder
    by their link count, on file systems that keep it exact (`COUNTED_LINKS`). At most
    `depth` levels and `budget` entries are looked at."""
    found: list[str] = []
    counted = _devices(COUNTED_LINKS)
    stack = [(top, 0)]
    while stack and budget > 0:
        path, level = stack.pop()
        try:
            entries = list(os.scandir(path))
        except OSError:
            continue
        budget -= len(entries)
        for entry in entries:
            if entry.path in ("/proc", "/sys") or (path == "/dev" and entry.name not in ("shm", "mqueue")):
                continue
            try:
                if not entry.is_dir(follow_symlinks=False):
                    continue
                info = entry.stat(follow_symlinks=False)
            except OSError:
                continue
            if info.st_mode & stat.S_IWOTH:
                found.append(entry.path)
            elif level < depth and info.st_mode & stat.S_IXOTH and not (info.st_nlink == 2 and info.st_dev in counted):
                stack.append((entry.path, level + 1))
    return sorted(found)


def _devices(kinds: frozenset[str], table: str = "/proc/self/mountinfo") -> set[int]:
    """The devices of the mounted file systems of `kinds` (none where the table cannot be read)."""
    devices = set()
    try:
        with open(table, encoding="utf-8", errors="replace") as handle:
            for line in handle:
                fields, _, tail = line.partition(" - ")
                major, _, minor = fields.split()[2].partition(":")
                if tail.split()[:1] and tail.split()[0] in kinds:
                    devices.add(os.makedev(int(major), int(minor)))
    except (OSError, IndexError, ValueError):
        return set()
    return devices


def clean_users(uids: list[int], offset: int, folders: list[str] | None, python: str = sys.executable) -> list[int]:
    """Everything of each of `uids` gone: its processes first (so nothing writes
    meanwhile; each id's shadow is the id + `offset`), then, unless `folders` is None (a
    worker in namespaces of its own leaves nothing outside them), their IPC objects and
    their files in `folders`, in one walk of each folder for all of them. The ids a
    process survived."""
    running = live_users()
    survivors = [uid for uid in uids if uid in running and not kill_user(uid, uid + offset, python)]
    if folders is not None and uids:
        remove_ipc(frozenset(uids))
        for folder in folders:
            remove_files(folder, frozenset(uids))
    return survivors


def guard(offset: int, folders: list[str]) -> None:
    """The guardian: remember the ids read on standard input ("N": handed to a worker,
    "-N": cleaned by the grader since); when it closes (the grader ended, however it
    ended), clean each id not cleaned since it was last handed out."""
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)
    uids: set[int] = set()
    for line in sys.stdin:
        word = line.strip()
        if word.isdigit():
            uids.add(int(word))
        elif word.startswith("-") and word[1:].isdigit():
            uids.discard(int(word[1:]))
    clean_users(sorted(uids), offset, folders)


if __name__ == "__main__":
    if sys.argv[1:2] == ["guard"]:
        guard(int(sys.argv[2]), sys.argv[3:])
