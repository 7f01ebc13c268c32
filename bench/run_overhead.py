"""Four fixed costs of every sandboxed grading run, each beside the way it was done before:

- a reading of a worker's processes (`usage.usage`, several per item): what left the
  worker's tree found through its control group's list, against the peer that looks for
  every process of the worker's user id (a stat and, for root's processes, a status file
  each);
- under `user`, the walk for the folders anyone may write to (`cleanup.world_writable`,
  once per run): folders whose link count says they hold no folder are not listed, against
  the peer that lists every folder (the same walk told that no file system keeps the count);
- under `bwrap`, the probe for what a worker must see (`visible._probe`, once per run):
  each extension module of the standard library loaded without being initialised, against
  the peer that imports each one (the probe's module told `import`);
- under `bwrap`, a worker's start (several per run): bubblewrap with the sandbox's
  arguments, then the interpreter loading the worker's library from the view. The view
  holds the kit's compiled library and the private standard library its extension modules
  (one mount), against the peers with one of the two undone (a view of sources only; the
  machine's extension modules bound one by one, as a copy in a folder that may not run
  code has them) and with both, as it was done before.

Run as root from the repository root::

    python bench/run_overhead.py [--readings 200] [--walks 5] [--probes 5] [--starts 20] [--json FILE]

CPU seconds are this process's and its children's (`getrusage`), but for the worker
starts, whose sandboxed processes getrusage does not see: those are counted by a control
group of this process's own (cpuacct, or cgroup v2's cpu.stat). A reading is of this
process as the worker's root with a made-up user id, so both count the same processes, on
this machine's process table as it is. Medians of the walks, probes and starts (the
starts take turns among their four ways); the ratio is the peer's over the new way's.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from grader.sandbox import cleanup, isolation, visible  # noqa: E402
from grader.sandbox.child import STUDENT_LIBRARY  # noqa: E402
from grader.sandbox.isolation import python_for  # noqa: E402
from grader.sandbox.usage import usage  # noqa: E402

NOBODY = 4_100_000_001  # a user id no account has: the peer searches for it among every process
#: The peer probe: the same module (`grader/sandbox/mapsprobe.py`), each extension module imported.
IMPORTING = "import"


def cpu_seconds(action: Callable[[], object], times: int) -> list[float]:
    """CPU seconds of each of `times` runs of `action`."""
    found = []
    for _ in range(times):
        started = _cpu()
        action()
        found.append(_cpu() - started)
    return found


def _cpu() -> float:
    """CPU seconds of this process and of its children waited for."""
    return sum(sum(resource.getrusage(who)[:2]) for who in (resource.RUSAGE_SELF, resource.RUSAGE_CHILDREN))


def readings(count: int) -> dict[str, float]:
    """Seconds per reading, the control group's way and the user id's."""
    me = os.getpid()
    grouped = cpu_seconds(lambda: [usage(me, NOBODY, [me]) for _ in range(count)], 1)[0] / count
    searched = cpu_seconds(lambda: [usage(me, NOBODY) for _ in range(count)], 1)[0] / count
    return {"processes": len(os.listdir("/proc")), "grouped": grouped, "by_user": searched, "ratio": searched / grouped}


def walks(count: int) -> dict[str, float]:
    """Median seconds of the walk for folders anyone may write to, with and without the skip."""
    skipping = statistics.median(cpu_seconds(cleanup.world_writable, count))
    counted, cleanup.COUNTED_LINKS = cleanup.COUNTED_LINKS, frozenset()
    try:
        listing = statistics.median(cpu_seconds(cleanup.world_writable, count))
    finally:
        cleanup.COUNTED_LINKS = counted
    return {"skipping": skipping, "listing_all": listing, "ratio": listing / skipping}


def probes(count: int) -> dict[str, float]:
    """Median seconds of a probe of the workers' interpreter, loading and importing."""
    python = python_for(None)
    assert python is not None, "no interpreter"
    loading = statistics.median(cpu_seconds(lambda: visible._probe(python), count))
    importing = statistics.median(cpu_seconds(lambda: visible._probe(python, IMPORTING), count))
    return {"loading": loading, "importing": importing, "ratio": importing / loading}


@contextmanager
def own_group() -> Iterator[Callable[[], float]]:
    """This process in a control group of its own while the block runs: a reader of the
    CPU seconds the group's processes (sandboxed ones included) have used."""
    v1 = Path("/sys/fs/cgroup/cpuacct")
    parent = v1 if (v1 / "cpuacct.usage").exists() else Path("/sys/fs/cgroup")
    group = parent / f"bench-run-overhead-{os.getpid()}"
    group.mkdir()
    (group / "cgroup.procs").write_text(str(os.getpid()))

    def used() -> float:
        if parent == v1:
            return int((group / "cpuacct.usage").read_text()) / 1e9
        fields = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
        return int(fields["usage_usec"]) / 1e6

    try:
        yield used
    finally:
        (parent / "cgroup.procs").write_text(str(os.getpid()))
        group.rmdir()


#: A worker's start, each way: (the view holds the compiled library, the copy holds the extension modules).
START_WAYS = {"new": (True, True), "sources only": (False, True), "extensions bound": (True, False), "before": (False, False)}


def starts(count: int) -> dict[str, dict[str, float]]:
    """Median seconds of a worker's start under bwrap each way of START_WAYS (in turns),
    with the interpreter workers get (as root: one an unprivileged user can run), and the
    files each binds."""
    python = python_for(65534 if os.geteuid() == 0 else None)
    assert python is not None and isolation.BWRAP is not None, "no interpreter, or no bubblewrap"
    imports = ", ".join(["grader.sandbox.child", *STUDENT_LIBRARY])
    work = Path(tempfile.mkdtemp(prefix="bench-starts-"))
    roots = {way: work / str(number) for number, way in enumerate(START_WAYS)}
    commands = {}
    try:
        for way, (compiled, copied) in START_WAYS.items():
            root = roots[way]
            (root / "submission").mkdir(parents=True)
            runs_code, fresh_bytecode = visible.runs_code, isolation._fresh_bytecode
            visible.runs_code = runs_code if copied else (lambda folder: False)
            isolation._fresh_bytecode = fresh_bytecode if compiled else (lambda source: None)
            try:
                isolation._write_view(root / "view")
                argv = isolation._bwrap_argv(python, root / "view", root / "submission", root)
            finally:
                visible.runs_code, isolation._fresh_bytecode = runs_code, fresh_bytecode
            commands[way] = [*argv, python, "-I", "-S", "-c", f"import sys; sys.path[:0] = ['/kit']; import {imports}"]
        seconds: dict[str, list[float]] = {way: [] for way in START_WAYS}
        with own_group() as used:
            for _ in range(count):
                for way, command in commands.items():
                    started = used()
                    subprocess.run(command, check=True, capture_output=True)
                    seconds[way].append(used() - started)
        new = statistics.median(seconds["new"])
        return {
            way: {"seconds": statistics.median(taken), "ratio": statistics.median(taken) / new, "bound": commands[way].count("--ro-bind")}
            for way, taken in seconds.items()
        }
    finally:
        for root in roots.values():
            visible.release(root)
        shutil.rmtree(work, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readings", type=int, default=200)
    parser.add_argument("--walks", type=int, default=5)
    parser.add_argument("--probes", type=int, default=5)
    parser.add_argument("--starts", type=int, default=20)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    found = {"reading": readings(args.readings), "walk": walks(args.walks), "probe": probes(args.probes), "start": starts(args.starts)}
    reading, walk, probe, start = found["reading"], found["walk"], found["probe"], found["start"]
    print(
        f"a reading ({reading['processes']:.0f} entries in /proc): {reading['grouped'] * 1000:.2f} ms through the group, "
        f"{reading['by_user'] * 1000:.2f} ms by user id (ratio {reading['ratio']:.1f})"
    )
    print(f"the walk for open folders: {walk['skipping']:.3f} s skipping, {walk['listing_all']:.3f} s listing all (ratio {walk['ratio']:.1f})")
    print(f"the probe: {probe['loading']:.3f} s loading, {probe['importing']:.3f} s importing (ratio {probe['ratio']:.1f})")
    for way, taken in start.items():
        print(f"a worker's start, {way}: {taken['seconds'] * 1000:.1f} ms, {taken['bound']:.0f} files bound (ratio {taken['ratio']:.2f})")
    if args.json:
        args.json.write_text(json.dumps(found, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
