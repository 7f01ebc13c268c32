"""Kernel caches shared between students: what a `bwrap` worker sees of the machine.

A file's page cache, the kernel's record of a name looked up in a folder, a file's
access time: each is a bit that one worker can set (read the file, look the name up) and
a later worker can read (by timing). Under `bwrap` a worker sees only its interpreter,
the shared libraries it loads (every page read by the grader before a worker starts),
and a private copy of the standard library (new files and folders per grading run);
these tests check that, and that honest files lose nothing by it. Timing itself is
measured by bench/pagecache_channel.py, never asserted here.
"""

from __future__ import annotations

import os
from pathlib import Path
from types import ModuleType

import pytest
from conftest import ROOT, Kit, attacker, bench_module, grade, isolation_unavailable, needed

from grader.sandbox import isolation, visible


def load_bench() -> ModuleType:
    """bench/pagecache_channel.py as a module: its mincore and eviction helpers."""
    return bench_module("pagecache_channel")


def worker_python() -> str:
    """The interpreter the grader gives workers here (as `_choose` picks it)."""
    found = isolation.python_for(65534 if os.geteuid() == 0 else None)
    assert found is not None, "no interpreter an unprivileged user can run"
    return found


@pytest.fixture(scope="module")
def bwrap_kit() -> Kit:
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    return Kit("bwrap", ROOT)


def unneeded(python: str) -> list[str]:
    """Paths of this machine that a worker never needs: other folders of /usr and /etc,
    installed packages, and shared libraries beside libc that the interpreter does not load."""
    seen = visible.bound(python)
    libc = next(p for p in seen.files if os.path.basename(p).startswith("libc.so"))
    libraries = sorted(
        p for p in Path(os.path.dirname(libc)).glob("lib*.so*") if p.is_file() and not p.is_symlink() and str(p.resolve()) not in seen.files
    )[:5]
    paths = [
        "/usr/share",
        "/usr/include",
        "/usr/sbin",
        "/etc/passwd",
        "/usr/bin/env",
        "/usr/lib/python3/dist-packages",
        os.path.join(seen.stdlib, "site-packages"),
        os.path.join(seen.stdlib, "dist-packages"),
        *seen.masks,
        *map(str, libraries),
    ]
    return [p for p in paths if os.path.exists(p)]


def test_a_bwrap_worker_sees_its_interpreter_and_a_private_standard_library_only(bwrap_kit: Kit, tmp_path: Path) -> None:
    """A correct file that refuses to load when its worker finds a file of the machine it
    does not need (/usr/share, libraries Python does not load, installed packages), or
    the machine's own standard library (the same inode as the grader sees: its pages
    and lookups would be shared with every other worker), gets full marks."""
    python = worker_python()
    seen = visible.bound(python)
    absent = unneeded(python)
    assert len(absent) >= 6, absent  # the check is not empty on this machine
    inodes = {
        path: os.stat(path).st_ino for path in (seen.stdlib, os.path.join(seen.stdlib, "os.py"), os.path.join(seen.stdlib, "json", "__init__.py"))
    }
    student = attacker(tmp_path / "s", "pagecache_looks", ABSENT=repr(absent), INODES=repr(inodes))
    report = grade(bwrap_kit, student, tmp_path / "report.json")
    assert report["score"] == report["max_score"], report["errors"] or report["hooks"][0]["message"]


@pytest.mark.slow  # starts the interpreter to probe it
def test_the_files_a_worker_shares_with_the_machine_are_cached_before_it_starts(tmp_path: Path) -> None:
    """The files bound from the machine (interpreter, shared libraries, extension
    modules), evicted from the page cache, are all cached again (mincore) once the
    sandbox's private copy exists, which is before its first worker starts; the copy's
    files are new inodes; `release` removes it."""
    bench = load_bench()
    seen = visible.bound(worker_python())
    for path in seen.files:
        bench.evict(path)
    root = tmp_path / "sandbox"
    root.mkdir()
    copy = Path(visible.private_copy(seen, root))
    try:
        assert {path: bench.resident(path) for path in seen.files if bench.resident(path) < 1.0} == {}
        machine = Path(seen.stdlib)
        for path in (copy, copy / "os.py", copy / "json" / "__init__.py"):
            original = machine / path.relative_to(copy)
            assert (path.stat().st_dev, path.stat().st_ino) != (original.stat().st_dev, original.stat().st_ino)
        assert not (copy / "site-packages").exists() and not (copy / "dist-packages").exists()
        assert visible.private_copy(seen, root) == str(copy)  # one copy per sandbox
    finally:
        visible.release(root)
    assert not copy.exists()


def test_an_honest_file_using_much_of_the_standard_library_gets_full_marks(kit: Kit, tmp_path: Path) -> None:
    """Compression, hashing, SQLite, decimal, XML, ctypes and more, loaded and used at
    import (their C code and shared libraries included): full marks, SAT item included."""
    report = grade(kit, attacker(tmp_path / "s", "pagecache_stdlib"), tmp_path / "report.json")
    assert report["score"] == report["max_score"], report["errors"] or [e["message"] for e in report["hooks"]]


def test_a_copy_left_by_a_killed_grader_is_removed_by_the_next(tmp_path: Path) -> None:
    """A grader killed before it could remove its standard library's copy leaves a folder
    behind; the next grader's sweep removes it, and leaves a living grader's alone."""
    gone = int(Path("/proc/sys/kernel/pid_max").read_text()) + 1  # no process ever has it
    dead = tmp_path / f"{visible._holder_prefix(gone)}abc"
    alive = tmp_path / f"{visible._holder_prefix(os.getpid())}abc"
    for holder in (dead, alive):
        (holder / "copy").mkdir(parents=True)
    visible._sweep(tmp_path)
    assert not dead.exists() and alive.is_dir()
