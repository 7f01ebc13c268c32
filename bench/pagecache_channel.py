"""Shared kernel caches as a channel from one sandboxed worker to a later one.

    python bench/pagecache_channel.py [--bits N] [--modes bwrap,user] [--seed S]   (as root)

A sender worker sees a secret of N bits; a receiver worker, started after the sender's
grading ended, in a grading of its own, learns them by timing. Both are started by the
grader's own sandbox code (`isolation.open_sandbox` and `isolation._bwrap_argv` under
`bwrap`, a user id of the pool under `user`). Three channels, each bit a file or a name:

- `stdlib files`: the standard library's larger `.py` files that a bare interpreter does
  not load. The sender reads the files of its 1 bits; the receiver reads the first page
  of every file once and times it, then again (now surely cached): a first read much
  slower than the second means "not cached before", a 0 bit.
- `extension modules`: the same with the standard library's extension modules (`.so`).
- `names`: names that exist nowhere in the standard library's folder. The sender looks
  up the names of its 1 bits (the kernel keeps a "no such file" entry for each); the
  receiver times a lookup of every name, then again: a first lookup as fast as the second
  means the entry was there, a 1 bit.
- `access times` (under `user` only): files of /usr/share/doc that no one read for a
  day. The sender reads those of its 1 bits; the receiver reads nothing, it only looks
  at each file's access time (`relatime` moves it on the first read of a day).

Before the sender runs, the bench (as root: the measurement's set-up, not the attack)
evicts the files from the page cache with posix_fadvise(DONTNEED), checked with mincore.
For each mode and channel it prints the bit error rate, the capacity of that binary
channel (bits learnt per bit sent), and the bits per second of the receiver's probing.
"""

from __future__ import annotations

import argparse
import ctypes
import ctypes.util
import math
import os
import random
import resource
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from grader.sandbox import isolation  # noqa: E402

SENDER = """
import os, sys
for arg in sys.argv[1:]:
    kind, path = arg.split(":", 1)
    if kind == "n":
        os.path.exists(path)
    else:
        with open(path, "rb") as handle:
            while handle.read(1 << 20):
                pass
"""

RECEIVER = """
import os, sys, time
def probe(arg):
    kind, path = arg.split(":", 1)
    start = time.perf_counter_ns()
    if kind in "na":
        os.path.exists(path)
    else:
        fd = os.open(path, os.O_RDONLY)
        os.read(fd, 4096)
        os.close(fd)
    return time.perf_counter_ns() - start
args = sys.argv[1:]
atimes = [os.stat(a.split(":", 1)[1]).st_atime_ns if a[0] in "fa" else 0 for a in args]
start = time.perf_counter_ns()
first = [probe(a) for a in args]
spent = time.perf_counter_ns() - start
again = [probe(a) for a in args]
print(spent)
for row in zip(first, again, atimes):
    print(*row)
"""

_LIBC = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
_LIBC.mmap.restype = ctypes.c_void_p
_LIBC.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int, ctypes.c_long]
_LIBC.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
_LIBC.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_char_p]
PAGE = os.sysconf("SC_PAGE_SIZE")


def resident(path: str) -> float:
    """The share of `path`'s pages in the page cache (mincore on a mapping of it)."""
    size = os.path.getsize(path)
    if size == 0:
        return 1.0
    fd = os.open(path, os.O_RDONLY)
    try:
        address = _LIBC.mmap(None, size, 1, 1, fd, 0)  # PROT_READ, MAP_SHARED
        if address in (None, ctypes.c_void_p(-1).value):
            raise OSError(ctypes.get_errno(), f"mmap {path}")
        pages = (size + PAGE - 1) // PAGE
        vector = ctypes.create_string_buffer(pages)
        try:
            if _LIBC.mincore(address, size, vector) != 0:
                raise OSError(ctypes.get_errno(), f"mincore {path}")
        finally:
            _LIBC.munmap(address, size)
        return sum(byte & 1 for byte in vector.raw) / pages
    finally:
        os.close(fd)


def evict(path: str) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)


def loaded_at_start(python: str) -> set[str]:
    ran = subprocess.run(
        [python, "-I", "-S", "-c", "import sys; print(*(getattr(m, '__file__', '') or '' for m in list(sys.modules.values())), sep='\\n')"],
        capture_output=True,
        text=True,
        check=True,
    )
    return set(ran.stdout.split())


def stdlib_of(python: str) -> str:
    return subprocess.run(
        [python, "-I", "-S", "-c", "import os; print(os.path.dirname(os.__file__))"], capture_output=True, text=True, check=True
    ).stdout.strip()


@dataclass
class Channel:
    name: str
    probes: list[str]  # "f:PATH" (a file's first page) or "n:PATH" (a lookup of a name)
    secret: list[int]


def channels(python: str, mode: str, bits: int, rng: random.Random) -> list[Channel]:
    stdlib, loaded = stdlib_of(python), loaded_at_start(python)

    def files(pattern: str) -> list[str]:
        found = sorted(
            str(p)
            for p in Path(stdlib).rglob(pattern)
            if p.stat().st_size >= 16384 and str(p) not in loaded and not {"site-packages", "dist-packages"} & set(p.parts) and not p.is_symlink()
        )
        return rng.sample(found, min(bits, len(found)))

    nonce = random.SystemRandom().getrandbits(64)  # names no earlier run looked up
    chosen = [
        ("stdlib files", ["f:" + p for p in files("*.py")]),
        ("extension modules", ["f:" + p for p in files("lib-dynload/*.so")]),
        ("names", [f"n:{stdlib}/.absent-{nonce:x}-{i}" for i in range(bits)]),
    ]
    if mode == "user":  # files no one read for a day, whose access time a read moves
        unread = sorted(str(p) for p in Path("/usr/share/doc").rglob("copyright") if p.is_file() and atime_would_move(str(p)))
        chosen.append(("access times", ["a:" + p for p in rng.sample(unread, min(bits, len(unread)))]))
    return [Channel(name, probes, [rng.randrange(2) for _ in probes]) for name, probes in chosen]


def worker(sandbox: isolation.Sandbox, code: str, args: list[str]) -> str:
    """Run `code` with `args` as a worker of `sandbox` runs: the same bwrap command line
    (with the sandbox's private files where the grader has them) or the same
    unprivileged user of the pool; its standard output."""
    uid = sandbox.take_uid()
    scratch = Path(tempfile.mkdtemp(dir=sandbox.root / "scratch"))
    os.chmod(scratch, 0o755)
    argv = [sandbox.python, "-I", "-S", "-c", code, *args]
    if sandbox.mode is isolation.Isolation.BWRAP:
        try:
            argv = isolation._bwrap_argv(sandbox.python, sandbox.view, scratch, sandbox.root) + argv  # type: ignore[call-arg]
        except TypeError:  # the code before private copies
            argv = isolation._bwrap_argv(sandbox.python, sandbox.view, scratch) + argv
    extra = {"user": uid, "group": uid, "extra_groups": []} if uid is not None else {}
    try:
        done = subprocess.run(argv, capture_output=True, text=True, cwd=scratch, env=isolation._clean_env(str(scratch)), check=False, **extra)  # type: ignore[call-overload]
    finally:
        sandbox.release_uid(uid)
    if done.returncode != 0:
        raise SystemExit(f"worker failed: {done.stderr.strip()[-400:]}")
    return str(done.stdout)


def atime_would_move(path: str) -> bool:
    """Whether a read would update `path`'s access time under `relatime` (never read
    since written, or not in the last 24 hours)."""
    status = os.stat(path)
    return status.st_atime_ns <= max(status.st_mtime_ns, status.st_ctime_ns) or time.time() - status.st_atime > 86400


def entropy(p: float) -> float:
    return 0.0 if p in (0.0, 1.0) else -p * math.log2(p) - (1 - p) * math.log2(1 - p)


def open_sandbox(mode: str) -> isolation.Sandbox:
    """The grader's sandbox for `mode`; under `user` without the check that the kit is
    closed to other users (a work tree seldom is, and the channel does not need it)."""
    if mode != "user":
        return isolation.open_sandbox(mode, [], 2)
    root = Path(tempfile.mkdtemp(prefix="grader-"))
    for name in ("view", "submissions", "scratch"):
        (root / name).mkdir(parents=True)
    os.chmod(root, 0o711)
    os.chmod(root / "scratch", 0o711)
    isolation._write_view(root / "view")  # the kit's modules a worker loads, as open_sandbox writes them
    locks: list[int] = []
    pool = isolation._uid_pool(3, locks)
    python = isolation.python_for(pool.queue[0])
    if python is None:
        raise SystemExit("no interpreter an unprivileged user can run")
    return isolation.Sandbox(isolation.Isolation.USER, python, root, pool, locks=locks)


def decode(channel: Channel, first: int, again: int, atime: int, started: int) -> int:
    if channel.name == "access times":
        return 1 if atime >= started else 0
    if channel.name == "names":
        return 1 if first < 1.5 * again else 0
    return 0 if first > 4 * again + 20_000 else 1


def measure(mode: str, bits: int, rng: random.Random) -> None:
    sender = open_sandbox(mode)
    python = sender.python
    chosen = channels(python, mode, bits, rng)
    files = [a[2:] for c in chosen for a in c.probes if a[0] == "f"]
    for path in files:
        evict(path)
    cold = sum(resident(p) == 0.0 for p in files)
    started = time.time_ns()
    try:
        worker(sender, SENDER, [a for c in chosen for a, bit in zip(c.probes, c.secret) if bit])
    finally:
        sender.close()
    receiver = open_sandbox(mode)  # the next student's grading
    try:
        lines = worker(receiver, RECEIVER, [a for c in chosen for a in c.probes]).split("\n")
    finally:
        receiver.close()
    rows = [tuple(map(int, line.split())) for line in lines[1:] if line.strip()]
    print(f"{mode}: {cold}/{len(files)} files cold after eviction")
    for channel in chosen:
        mine, rows = rows[: len(channel.probes)], rows[len(channel.probes) :]
        errors = sum(decode(channel, first, again, atime, started) != bit for (first, again, atime), bit in zip(mine, channel.secret))
        ber = errors / len(channel.secret)
        spent = sum(first for first, _, _ in mine) / 1e9
        ones = [first for (first, _, _), bit in zip(mine, channel.secret) if bit]
        zeros = [first for (first, _, _), bit in zip(mine, channel.secret) if not bit]
        print(
            f"  {channel.name}: {len(channel.secret)} bits, bit errors {errors} (BER {ber:.3f}), capacity "
            f"{1 - entropy(ber):.3f} bit per bit, {len(channel.secret) * (1 - entropy(ber)) / spent:.0f} bit/s; "
            f"median first probe {median_us(zeros)} us for 0 bits, {median_us(ones)} us for 1 bits"
        )


PRESSURE = """
import sys
held = []
while True:  # anonymous memory, every page written, until the cgroup's limit stops it
    held.append(b"\\x01" * (1 << 20))
    for path in sys.argv[1 + len(held) % 8::8]:
        with open(path, "rb") as handle:
            handle.read()
"""


def memory_cgroup() -> Path:
    """This process's memory cgroup (v1)."""
    for line in Path("/proc/self/cgroup").read_text().splitlines():
        number, controllers, path = line.split(":", 2)
        if "memory" in controllers.split(","):
            return Path("/sys/fs/cgroup/memory") / path.lstrip("/")
    raise SystemExit("no memory cgroup (v1) here")


def pressure(limit_mb: int) -> None:
    """A bwrap worker in a memory cgroup of its own, limited to `limit_mb`, allocates until
    stopped while reading every file it shares with the machine: are those files, read
    first by the grader (and charged to it), still cached afterwards?"""
    from grader.sandbox import visible

    sandbox = isolation.open_sandbox("bwrap", [], 2)
    group = memory_cgroup() / f"pagecache-bench-{os.getpid()}"
    group.mkdir()
    try:
        seen = visible.bound(sandbox.python)
        uid = sandbox.take_uid()
        scratch = Path(tempfile.mkdtemp(dir=sandbox.root / "scratch"))
        os.chmod(scratch, 0o755)
        argv = isolation._bwrap_argv(sandbox.python, sandbox.view, scratch, sandbox.root)  # type: ignore[call-arg]
        (group / "memory.limit_in_bytes").write_text(str(limit_mb << 20))
        if uid is not None:
            os.chown(group / "cgroup.procs", uid, uid)
        before = [resident(p) for p in seen.files]

        def join() -> None:
            (group / "cgroup.procs").write_text(str(os.getpid()))

        extra = {"user": uid, "group": uid, "extra_groups": []} if uid is not None else {}
        done = subprocess.run(
            argv + [sandbox.python, "-I", "-S", "-c", PRESSURE, *seen.files],
            capture_output=True,
            cwd=scratch,
            env=isolation._clean_env(str(scratch)),
            preexec_fn=join,
            check=False,
            **extra,
        )  # type: ignore[call-overload]
        after = [resident(p) for p in seen.files]
        peak = int((group / "memory.max_usage_in_bytes").read_text()) >> 20
        failures = (group / "memory.failcnt").read_text().strip()
        sandbox.release_uid(uid)
        print(
            f"pressure: worker in a {limit_mb} MB cgroup ended with {done.returncode} (peak {peak} MB, {failures} "
            f"times at the limit); {len(seen.files)} files shared with the machine, fully cached before "
            f"{sum(r == 1.0 for r in before)}, after {sum(r == 1.0 for r in after)}; pages cached before "
            f"{sum(before) / len(before):.3f}, after {sum(after) / len(after):.3f} (mean share)"
        )
    finally:
        sandbox.close()
        group.rmdir()


def cost(repeats: int) -> None:
    """What the private copy costs a grading run: the probe of what the interpreter loads
    (once per grader process), the copy made in memory and on disk, its size; and what
    binding each file of the standard library alone (the copy's alternative) costs a
    worker's start."""
    from grader.sandbox import visible

    python = isolation.python_for(65534 if os.geteuid() == 0 else None) or sys.executable
    started, children = time.perf_counter(), resource.getrusage(resource.RUSAGE_CHILDREN)
    seen = visible.bound(python)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    probe_cpu = after.ru_utime + after.ru_stime - children.ru_utime - children.ru_stime
    print(f"probe of {python}: {time.perf_counter() - started:.3f} s wall, {probe_cpu:.3f} s CPU; {len(seen.files)} files bound alone")
    for where in ("memory", "disk"):
        times, cpu = [], []
        for _ in range(repeats):
            root = Path(tempfile.mkdtemp(prefix="grader-"))
            saved, visible._SHARED_MEMORY = visible._SHARED_MEMORY, visible._SHARED_MEMORY if where == "memory" else "/nonexistent"
            try:
                started, started_cpu = time.perf_counter(), time.process_time()
                copy = visible.private_copy(seen, root)
                times.append(time.perf_counter() - started)
                cpu.append(time.process_time() - started_cpu)
                files = [p for p in Path(copy).rglob("*") if p.is_file()]
                size = sum(p.stat().st_size for p in files) >> 20
            finally:
                visible._SHARED_MEMORY = saved
                visible.release(root)
                os.rmdir(root)
        print(
            f"private copy in {where} ({Path(visible._SHARED_MEMORY) if where == 'memory' else 'the sandbox folder'}): "
            f"median {sorted(times)[len(times) // 2]:.3f} s wall, {sorted(cpu)[len(cpu) // 2]:.3f} s CPU of {repeats}; "
            f"{len(files)} files, {size} MB"
        )

    links = [arg for name in ("/bin", "/lib", "/lib64", "/sbin") if os.path.islink(name) for arg in ("--symlink", os.readlink(name), name)]
    base = [isolation.BWRAP or "bwrap", "--unshare-all", "--die-with-parent", *links, "--proc", "/proc", "--dev", "/dev"]
    singles = [
        str(p) for p in Path(seen.stdlib).rglob("*") if p.is_file() and not p.is_symlink() and not any(str(p).startswith(m + "/") for m in seen.masks)
    ]
    alone = base + [arg for path in sorted({*singles, *seen.files}) for arg in ("--ro-bind", path, path)]
    alone += [arg for target, path in seen.links for arg in ("--symlink", target, path)]
    for name, argv in (("the folder bound whole", base + seen.argv()), ("each file bound alone", alone)):
        started = time.perf_counter()
        for _ in range(repeats):
            subprocess.run([*argv, "--", python, "-I", "-S", "-c", "import json"], check=True, capture_output=True)
        print(f"a worker's start with the standard library's {name}: {(time.perf_counter() - started) / repeats:.3f} s wall ({len(argv)} arguments)")


def median_us(values: list[int]) -> str:
    return f"{sorted(values)[len(values) // 2] / 1000:.1f}" if values else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bits", type=int, default=128)
    parser.add_argument("--modes", default="bwrap,user")
    parser.add_argument("--seed", type=int, default=35)
    parser.add_argument("--pressure", type=int, metavar="MB", help="only the memory-pressure check, in a cgroup of MB")
    parser.add_argument("--cost", type=int, metavar="N", help="only the private copy's cost, N times each")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("run as root: the set-up evicts files from the page cache")
    if args.pressure:
        pressure(args.pressure)
        return
    if args.cost:
        cost(args.cost)
        return
    rng = random.Random(args.seed)
    for mode in args.modes.split(","):
        measure(mode, args.bits, rng)


if __name__ == "__main__":
    main()
