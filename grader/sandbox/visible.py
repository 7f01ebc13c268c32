"""What a worker sees of the machine under bubblewrap, so that none of it carries a bit
from one student's grading to another's.

Kernel caches are shared: whether a file's pages are cached, whether a name was looked
up in a folder. A worker that reads a file (or looks a name up) or not sets a bit that
a later worker reads by timing its own reads. So a worker sees only

- its interpreter and the files it maps once it has loaded every extension module of
  the standard library (shared libraries, the loader, locale data), with the symbolic
  links the loader follows to them, each bound alone (their folders are the sandbox's
  own) and read whole by the grader before the first worker starts: a worker's reads
  change nothing, and the system-call filter refuses the calls that evict pages;
- a copy of the standard library made for its grading run (new files and folders, in
  memory where the machine has a folder for it), without installed packages, the
  interpreter's build files and the parts no hook can use (its own tests, IDE, demos and
  bundled pip). Its extension modules are copied too where that folder may run code;
  where it may not, the machine's are bound onto empty files of the copy.

Nothing else of `/usr` exists for it.
"""

from __future__ import annotations

import glob
import os
import shutil
import stat
import subprocess
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from grader.sandbox import mapsprobe
from grader.sandbox.usage import pid_namespace

#: Libraries glibc opens by name while a program runs (thread cancellation), not at start.
_LOADED_LATER = ("libgcc_s.so.1",)
#: Inside the standard library: installed packages (the kit may be among them), the
#: static library and Makefile of the interpreter's build, and what no hook can use
#: (CPython's own regression tests, its IDE and turtle demos, pip's bundled wheels, the
#: retired 2to3): half the library's bytes, copied for every grading run otherwise.
_MASKS = ("site-packages", "dist-packages", "config-*", "test", "idlelib", "turtledemo", "ensurepip", "lib2to3")
_CHUNK = 1 << 20
_SHARED_MEMORY = "/dev/shm"
_COPIES: dict[str, str] = {}  # the sandbox's root -> its private copy
_COPYING = threading.Lock()  # workers start from several threads


class ProbeFailed(RuntimeError):
    """The worker's interpreter could not say what it loads."""


@dataclass(frozen=True)
class Bound:
    """What a worker sees under bubblewrap: the `stdlib` folder but for `masks`, single
    `files` (those inside `stdlib`: its extension modules), and `links` (target, path) on
    the way to them."""

    stdlib: str
    masks: tuple[str, ...]
    files: tuple[str, ...]
    links: tuple[tuple[str, str], ...]

    def argv(self, copy: str | None = None) -> list[str]:
        """bubblewrap's arguments that bind all of it read-only; with `copy` (see
        `private_copy`), the standard library's files are that copy's. Each file bound
        is a mount, and bubblewrap reads the whole mount table for each: the fewer, the
        cheaper a worker's start."""
        argv = ["--ro-bind", copy or self.stdlib, self.stdlib]
        if copy is None:
            for mask in self.masks:
                argv += ["--size", "4096", "--tmpfs", mask, "--remount-ro", mask]
        for path in self.bound_from_machine(copy):
            argv += ["--ro-bind", path, path]
        for target, path in self.links:
            argv += ["--symlink", target, path]
        return argv

    def bound_from_machine(self, copy: str | None) -> list[str]:
        """The files bound alone: those outside the standard library, and its extension
        modules when they are bound onto a `copy` whose folder may not run code (see
        `runs_code`; without a copy the machine's standard library is bound whole)."""
        inside, onto_copy = self.stdlib + "/", copy is not None and not runs_code(copy)
        return [path for path in self.files if onto_copy or not path.startswith(inside)]


def runs_code(folder: str) -> bool:
    """Whether programs may run, and libraries load, from `folder`'s file system (a
    folder in memory is often mounted without)."""
    return not os.statvfs(folder).f_flag & os.ST_NOEXEC


_BOUND: dict[str, Bound] = {}  # interpreter -> its bound set, probed once per grader process


def bound(python: str) -> Bound:
    """The bound set for the interpreter `python` (probed once per grader process, or
    handed over by `remember`)."""
    if python not in _BOUND:
        _BOUND[python] = _probe(python)
    return _BOUND[python]


def remember(python: str, seen: Bound) -> None:
    """Take `seen` as the bound set of `python`: what the grader that started this process
    probed (a class run's grading processes do not probe again)."""
    _BOUND[python] = seen


def _probe(python: str, way: str = "load") -> Bound:
    """Ask the interpreter `python` what it loads (see `mapsprobe`; its file run by path:
    under -I -S the kit is not on that interpreter's path). `way`: how the probe opens each
    extension module, `import` for the peer bench/run_overhead.py times."""
    try:
        ran = subprocess.run(
            [python, "-I", "-S", mapsprobe.__file__, way],
            capture_output=True,
            text=True,
            timeout=60,
            stdin=subprocess.DEVNULL,
            cwd="/",
            env={"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"},
        )
    except (OSError, subprocess.SubprocessError) as error:
        raise ProbeFailed(f"{python} could not be probed: {error}") from error
    lines = ran.stdout.splitlines()
    if ran.returncode != 0 or not lines:
        raise ProbeFailed(f"{python} could not say what it loads: {ran.stderr.strip()[-200:]}")
    stdlib, mapped = os.path.realpath(lines[0]), {os.path.realpath(p) for p in lines[1:] if os.path.isfile(p)}
    mapped.add(os.path.realpath(python))
    mapped |= _loaded_later(mapped)
    masks = sorted(m for pattern in _MASKS for m in glob.glob(os.path.join(stdlib, pattern)) if os.path.isdir(m))
    return Bound(stdlib, tuple(masks), tuple(sorted(mapped)), tuple(_links_to(mapped, python)))


def _loaded_later(mapped: set[str]) -> set[str]:
    folders = {os.path.dirname(p) for p in mapped if os.path.basename(p).startswith("libc.so")}
    return {os.path.realpath(os.path.join(f, name)) for f in folders for name in _LOADED_LATER if os.path.isfile(os.path.join(f, name))}


def _links_to(files: set[str], python: str) -> list[tuple[str, str]]:
    """The symbolic links a worker follows to `files`: each link, in their folders and in
    the loader's, that resolves to one of them (sonames, the loader's path), and the
    links on the way to the interpreter; links whose parent is itself a link are left to it."""
    folders = {os.path.dirname(p) for p in files} | {"/lib64", "/usr/lib64", "/lib", "/usr/lib"}
    candidates = [os.path.join(f, e.name) for f in folders if os.path.isdir(f) for e in os.scandir(f) if e.is_symlink()]
    candidates += [python]
    targets = {_identity(path) for path in files} - {None}
    links = []
    for path in candidates:
        if _identity(path) not in targets:  # one stat; the full resolution below only for links that may qualify
            continue
        if os.path.islink(path) and os.path.realpath(path) in files and os.path.realpath(os.path.dirname(path)) == os.path.dirname(path):
            links.append((os.readlink(path), path))
    return sorted(set(links))


def _identity(path: str) -> tuple[int, int] | None:
    """The device and inode `path` leads to (links followed), None when it leads nowhere."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


def _skipped(where: Bound, extensions: bool) -> Callable[[str, list[str]], set[str]]:
    """What a private copy leaves out: the masks, and unless `extensions` the extension
    modules, of which it holds empty files for the machine's own to be bound onto."""

    def skip(folder: str, names: list[str]) -> set[str]:
        paths = {os.path.join(folder, n): n for n in names}
        return {n for p, n in paths.items() if p in where.masks or (not extensions and p in where.files)}

    return skip


def private_copy(where: Bound, root: Path) -> str:
    """A copy of the standard library (new files and folders: no page, name or lookup of
    it is shared with another grading run) for the sandbox in `root`, made once and kept
    until `release(root)`; and the files bound from the machine read whole first (see
    `warm`). In a folder held in memory when the machine has one, else in `root`."""
    key = str(root)
    with _COPYING:
        if key not in _COPIES:
            try:
                _COPIES[key] = _copy(where, Path(_SHARED_MEMORY if _writable(_SHARED_MEMORY) else key))
            except OSError:  # the folder in memory is full (a container's is small): on disk, then
                _COPIES[key] = _copy(where, root)
    return _COPIES[key]


def _writable(folder: str) -> bool:
    return os.path.isdir(folder) and os.access(folder, os.W_OK | os.X_OK)


def _holder_prefix(pid: int | str) -> str:
    """The start of the name of a copy's folder made by grader `pid` of our PID namespace
    (so that a grader never takes another namespace's live copy for a dead one)."""
    return f"grader-stdlib-{pid_namespace()}-{pid}-"


def _sweep(base: Path) -> None:
    """Remove the copies in `base` that graders of our PID namespace, now gone (killed),
    left behind: folders of our own user's only (a name another account made in a folder
    anyone may write to is left alone)."""
    own = _holder_prefix(os.getpid())
    start = own[: own.rindex("-", 0, len(own) - 1) + 1]  # grader-stdlib-<namespace>-
    for holder in base.glob(f"{start}*"):
        pid = holder.name[len(start) :].split("-")[0]
        if pid.isdigit() and not Path(f"/proc/{pid}").exists() and _ours(holder):
            shutil.rmtree(holder, ignore_errors=True)


def _ours(path: Path) -> bool:
    """`path` is a folder (not a link) of this process's user."""
    try:
        info = os.lstat(path)
    except OSError:
        return False
    return stat.S_ISDIR(info.st_mode) and info.st_uid == os.geteuid()


def _copy(where: Bound, base: Path) -> str:
    """The copy (see `private_copy`) in a new folder of `base`."""
    _sweep(base)
    holder = tempfile.mkdtemp(prefix=_holder_prefix(os.getpid()), dir=base)
    try:
        os.chmod(holder, 0o711)  # others may pass through to the copy, not list it
        copy = os.path.join(holder, os.urandom(16).hex())
        extensions = runs_code(holder)
        shutil.copytree(where.stdlib, copy, ignore=_skipped(where, extensions), symlinks=True)  # times kept: the .pyc stay valid
        for path in where.bound_from_machine(copy):
            if path.startswith(where.stdlib + "/"):
                placeholder = os.path.join(copy, os.path.relpath(path, where.stdlib))
                os.makedirs(os.path.dirname(placeholder), exist_ok=True)
                open(placeholder, "wb").close()
    except BaseException:
        shutil.rmtree(holder, ignore_errors=True)
        raise
    warm(where.bound_from_machine(copy))
    return copy


def release(root: Path) -> None:
    """Remove the private copy made for the sandbox in `root`, if any."""
    copy = _COPIES.pop(str(root), None)
    if copy is not None:
        shutil.rmtree(os.path.dirname(copy), ignore_errors=True)


def warm(paths: list[str]) -> None:
    """Read every file of `paths` whole, as the grader: each page is then cached (and
    charged to the grader) before a worker could be the first to read it."""
    buffer = bytearray(_CHUNK)
    for path in paths:
        try:
            with open(path, "rb", buffering=0) as handle:
                while handle.readinto(buffer):
                    pass
        except OSError:
            continue
