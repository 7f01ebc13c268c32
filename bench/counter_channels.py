"""The machine's counters as a channel between two students graded at the same time.

    python bench/counter_channels.py [--bits N] [--periods 0.1,0.03,0.01] [--modes bwrap,user] [--seed S]   (as root)

A sender worker sees a secret of N bits (half of them ones); a receiver worker, graded at
the same time in a sandbox of its own (another student's grading, `--jobs 2`), reads it
from what the machine shows. Both are started as the grader starts a worker: the same
bubblewrap command line (`isolation._bwrap_argv`, with the sandbox's private standard
library) or the same unprivileged user of the pool under `user`, each in a control group
of its own where one can be made (equal CPU weight), and both confined by the seccomp
filter before they run anything else, as a graded item is.

Time is cut into slots of one period (both read the wall clock, which every namespace
shares); in slot i the sender holds bit i: 100 sleeping threads or none (`threads`),
128 MB of memory written or none (`memory`), two threads hashing or none (`cpu`), a 16 MB
file and a named marker in /tmp and /dev/shm or none (`files`). The receiver reads one
counter near the end of each slot (at 90 %):

- `/proc/loadavg threads`, `sysinfo procs` (threads): the machine's thread count;
- `/proc/stat processes` (threads): threads and processes started since boot (its change
  since the slot before: each 1 bit starts 100 threads);
- `/proc/meminfo MemAvailable`, `sysinfo freeram` (memory);
- `/proc/stat busy` (cpu): the machine's busy CPU time over the slot;
- `free space (statfs)` (files): free blocks of /tmp and /dev/shm and of the folder the
  standard library is read from;
- `/tmp names` (files): whether /tmp lists the sender's marker;
- `CPU contention` (cpu): how much its own two hashing threads got done over the slot
  (timing: nothing is read but its own work).

A channel whose counter the receiver cannot read is `closed`, with the error. Otherwise
the receiver's reading per slot (its change since the slot before for the cumulative ones) is
decoded without the secret: the half of the slots with the higher readings are ones. For
each mode, channel and period it prints the bit error rate, the capacity of that binary
channel (1 - H(BER), bits learnt per bit sent) and bits per second (capacity / period).
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from grader.sandbox import isolation  # noqa: E402
from grader.sandbox.cgroup import Group, held  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benches beside this one
from pagecache_channel import entropy, open_sandbox  # noqa: E402  (one way to open a bench's sandbox)

#: Shared by the sender and the receiver: confine as a graded item is, then `slots`.
PRELUDE = r"""
import ctypes, hashlib, json, os, sys, threading, time
sys.path.insert(0, sys.argv[1])
from grader.sandbox.confine import confine
why = confine()
if why:
    sys.exit(why)
start, period, tag = float(sys.argv[4]), float(sys.argv[5]), sys.argv[6]

def until(moment):
    delay = moment - time.time()
    if delay > 0:
        time.sleep(delay)
"""

#: Every counter the receiver may read, by channel: each a function of no argument.
READERS = r"""
class SysInfo(ctypes.Structure):
    _fields_ = [("uptime", ctypes.c_long), ("loads", ctypes.c_ulong * 3), ("totalram", ctypes.c_ulong),
                ("freeram", ctypes.c_ulong), ("sharedram", ctypes.c_ulong), ("bufferram", ctypes.c_ulong),
                ("totalswap", ctypes.c_ulong), ("freeswap", ctypes.c_ulong), ("procs", ctypes.c_ushort),
                ("pad", ctypes.c_ushort), ("totalhigh", ctypes.c_ulong), ("freehigh", ctypes.c_ulong),
                ("mem_unit", ctypes.c_uint), ("rest", ctypes.c_char * 8)]

LIBC = ctypes.CDLL(None, use_errno=True)
DONE = [0]

def sysinfo():
    info = SysInfo()
    if LIBC.sysinfo(ctypes.byref(info)) != 0:
        raise OSError(ctypes.get_errno(), os.strerror(ctypes.get_errno()))
    return info

def stat_line(word):
    with open("/proc/stat") as handle:
        return next(line.split()[1:] for line in handle if line.split()[0] == word)

def meminfo(word):
    with open("/proc/meminfo") as handle:
        return next(int(line.split()[1]) for line in handle if line.startswith(word + ":"))

def free_blocks():
    return sum(os.statvfs(p).f_bfree for p in ("/tmp", "/dev/shm", os.path.dirname(os.__file__)))

def hashing():
    block = bytes(1 << 20)
    while True:
        hashlib.sha256(block).digest()
        DONE[0] += 1

READ = {
    "/proc/loadavg threads": lambda: int(open("/proc/loadavg").read().split()[3].split("/")[1]),
    "sysinfo procs": lambda: sysinfo().procs,
    "/proc/stat processes": lambda: int(stat_line("processes")[0]),
    "/proc/meminfo MemAvailable": lambda: -meminfo("MemAvailable"),
    "sysinfo freeram": lambda: -sysinfo().freeram,
    "/proc/stat busy": lambda: sum(map(int, stat_line("cpu"))) - sum(map(int, stat_line("cpu")[3:5])),
    "free space (statfs)": lambda: -free_blocks(),
    "/tmp names": lambda: int(any(name.startswith(tag) for name in os.listdir("/tmp"))),
    "CPU contention": lambda: -DONE[0],
}
"""

RECEIVER = (
    PRELUDE
    + READERS
    + r"""
channel, bits = sys.argv[3], int(sys.argv[7])
if channel == "probe":
    found = {}
    for name, read in READ.items():
        try:
            read()
            found[name] = "read"
        except Exception as error:
            found[name] = f"{type(error).__name__}: {error}"[:80]
    print(json.dumps(found))
    sys.exit(0)
read = READ[channel]
if channel == "CPU contention":
    for _ in range(2):
        threading.Thread(target=hashing, daemon=True).start()
rows = []
for slot in range(-1, bits):  # near the end of each slot, and once before the first
    until(start + (slot + 0.9) * period)
    rows.append(read())
print(json.dumps(rows))
"""
)

SENDER = (
    PRELUDE
    + r"""
action, secret = sys.argv[3], sys.argv[7]
release, busy, threads, memory = threading.Event(), threading.Event(), [], []
files = [f"/tmp/{tag}-mark", f"/tmp/{tag}-big", f"/dev/shm/{tag}-big"]

def burn():
    block = bytes(1 << 20)
    while busy.wait():
        hashlib.sha256(block).digest()

def hold(bit):
    if action == "threads":  # each 1 bit starts 100 new threads
        release.set()
        for thread in threads:
            thread.join()
        threads.clear()
        release.clear()
        threads.extend(threading.Thread(target=release.wait) for _ in range(100 if bit else 0))
        for thread in threads:
            thread.start()
    elif action == "memory":
        memory[:] = [b"\x01" * (128 << 20)] if bit else []
    elif action == "cpu":
        if not threads:
            threads.extend(threading.Thread(target=burn, daemon=True) for _ in range(2))
            for thread in threads:
                thread.start()
        busy.set() if bit else busy.clear()
    elif action == "files":
        for path in files:
            try:
                if bit:
                    with open(path, "wb") as handle:
                        handle.write(bytes(16 << 20) if path.endswith("big") else b"")
                elif os.path.exists(path):
                    os.unlink(path)
            except OSError:
                pass

for slot, bit in enumerate(secret):
    until(start + slot * period)
    hold(bit == "1")
until(start + len(secret) * period)
hold(False)
"""
)

#: Each channel: the sender's action, and whether the receiver reads a change over the slot.
CHANNELS = {
    "/proc/loadavg threads": ("threads", False),
    "sysinfo procs": ("threads", False),
    "/proc/stat processes": ("threads", True),
    "/proc/meminfo MemAvailable": ("memory", False),
    "sysinfo freeram": ("memory", False),
    "/proc/stat busy": ("cpu", True),
    "free space (statfs)": ("files", False),
    "/tmp names": ("files", False),
    "CPU contention": ("cpu", True),
}


@dataclass(frozen=True)
class Result:
    mode: str
    channel: str
    period: float
    errors: int
    bits: int

    @property
    def capacity(self) -> float:
        return 1 - entropy(self.errors / self.bits)

    @property
    def rate(self) -> float:
        return self.capacity / self.period


@dataclass
class Started:
    """A worker of a sandbox running `code`, and what to give back when it ends."""

    sandbox: isolation.Sandbox
    process: subprocess.Popen[str]
    uid: int | None
    group: Group | None

    def output(self) -> str:
        out, err = self.process.communicate(timeout=600)
        self.sandbox.release_uid(self.uid)
        if self.group is not None:
            self.group.remove()
        if self.process.returncode != 0:
            raise SystemExit(f"worker failed: {err.strip()[-400:]}")
        return out


def start(sandbox: isolation.Sandbox, code: str, args: list[str], files: Sequence[Path] = ()) -> Started:
    """Start `code` as a worker of `sandbox` starts: its bubblewrap command line or a user
    id of its pool, in a control group of its own (as `host.Worker` does). Its arguments:
    the student-facing library's folder, the folder of its own copy of `files`, `args`."""
    uid = sandbox.take_uid()
    scratch = Path(tempfile.mkdtemp(dir=sandbox.root / "scratch"))
    os.chmod(scratch, 0o755)
    for file in files:
        shutil.copyfile(file, scratch / file.name)
        os.chmod(scratch / file.name, 0o644)
    inside = sandbox.mode is isolation.Isolation.BWRAP
    view, own = ("/kit", "/submission") if inside else (str(sandbox.view), str(scratch))
    argv = [sandbox.python, "-I", "-S", "-c", code, view, own, *args]
    if sandbox.mode is isolation.Isolation.BWRAP:
        argv = isolation._bwrap_argv(sandbox.python, sandbox.view, scratch, sandbox.root) + argv
    group = sandbox.group(1 << 30, 128)
    extra = {"user": uid, "group": uid, "extra_groups": []} if uid is not None else {}
    process = subprocess.Popen(  # type: ignore[call-overload]
        held(argv) if group else argv,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=scratch,
        env=isolation._clean_env(str(scratch)),
        **extra,
    )
    if group is not None:
        group.place(process.pid)
        assert process.stdin is not None
        process.stdin.write("\n")
        process.stdin.flush()
    return Started(sandbox, process, uid, group)


def probe(receiver: isolation.Sandbox) -> dict[str, str]:
    """Which counters a confined worker of `receiver` can read ("read", else the error)."""
    import json

    return dict(json.loads(start(receiver, RECEIVER, ["probe", "0", "1", "x", "0"]).output()))


def transmit(sender: isolation.Sandbox, receiver: isolation.Sandbox, channel: str, period: float, secret: list[int]) -> int:
    """Send `secret` over `channel`, one bit per `period`; the receiver's bit errors."""
    import json

    action, cumulative = CHANNELS[channel]
    tag = f"counter-bench-{os.urandom(4).hex()}"
    begin = f"{time.time() + 2.0:.3f}"  # both have started by then
    bits = "".join(map(str, secret))
    receiving = start(receiver, RECEIVER, [channel, begin, str(period), tag, str(len(secret))])
    sending = start(sender, SENDER, [action, begin, str(period), tag, bits])
    sending.output()
    rows = json.loads(receiving.output())
    readings = [after - before if cumulative else after for before, after in zip(rows, rows[1:])]
    ranked = sorted(range(len(readings)), key=lambda slot: readings[slot])
    ones = set(ranked[len(ranked) - sum(secret) :])  # the higher half: the sender moved them
    return sum((slot in ones) != bool(bit) for slot, bit in enumerate(secret))


def measure(mode: str, bits: int, periods: list[float], rng: random.Random) -> list[Result]:
    sender, receiver = open_sandbox(mode), open_sandbox(mode)  # two students' gradings
    results = []
    try:
        readable = probe(receiver)
        for channel in CHANNELS:
            if readable[channel] != "read":
                print(f"{mode:6} {channel:28} closed: {readable[channel]}", flush=True)
                continue
            for period in periods:
                secret = [1] * (bits // 2) + [0] * (bits - bits // 2)
                rng.shuffle(secret)
                result = Result(mode, channel, period, transmit(sender, receiver, channel, period, secret), bits)
                results.append(result)
                print(
                    f"{mode:6} {channel:28} period {period * 1000:5.0f} ms: {result.errors:3}/{bits} bit errors, "
                    f"capacity {result.capacity:.2f} bit per bit, {result.rate:7.1f} bit/s",
                    flush=True,
                )
    finally:
        sender.close()
        receiver.close()
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--bits", type=int, default=64)
    parser.add_argument("--periods", default="0.1,0.03,0.01", help="seconds per bit, comma-separated")
    parser.add_argument("--modes", default="bwrap,user")
    parser.add_argument("--seed", type=int, default=48)
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("run as root: workers run as users of the pool")
    rng = random.Random(args.seed)
    periods = [float(p) for p in args.periods.split(",")]
    best: dict[tuple[str, str], Result] = {}
    for mode in args.modes.split(","):
        for result in measure(mode, args.bits, periods, rng):
            key = (mode, result.channel)
            if key not in best or result.rate > best[key].rate:
                best[key] = result
    print("\nbest rate per channel (a capacity under 0.1 bit per bit is within a coin's noise at 64 bits):")
    for (mode, channel), result in best.items():
        print(f"{mode:6} {channel:28} {result.rate:7.1f} bit/s (period {result.period * 1000:.0f} ms, {result.errors}/{result.bits} errors)")


if __name__ == "__main__":
    main()
