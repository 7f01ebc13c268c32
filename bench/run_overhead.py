"""Three fixed costs of every sandboxed grading run, each beside the way it was done before:

- a reading of a worker's processes (`usage.usage`, several per item): what left the
  worker's tree found through its control group's list, against the peer that looks for
  every process of the worker's user id (a stat and, for root's processes, a status file
  each);
- under `user`, the walk for the folders anyone may write to (`cleanup.world_writable`,
  once per run): folders whose link count says they hold no folder are not listed, against
  the peer that lists every folder (the same walk told that no file system keeps the count);
- under `bwrap`, the probe for what a worker must see (`visible._probe`, once per run):
  each extension module of the standard library loaded without being initialised, against
  the peer that imports each one (the probe's script with `importlib.import_module`).

Run as root from the repository root::

    python bench/run_overhead.py [--readings 200] [--walks 5] [--probes 5] [--json FILE]

CPU seconds are this process's and its children's (`getrusage`); a reading is of this
process as the worker's root with a made-up user id, so both count the same processes, on
this machine's process table as it is. Medians of the walks and probes; the ratio is the
peer's over the new way's.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import sys
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from grader.sandbox import cleanup, visible  # noqa: E402
from grader.sandbox.isolation import python_for  # noqa: E402
from grader.sandbox.usage import usage  # noqa: E402

NOBODY = 4_100_000_001  # a user id no account has: the peer searches for it among every process
#: The peer probe: the same script, each extension module imported.
IMPORTING = (
    visible._PROBE.replace("import ctypes, os, sysconfig", "import importlib, os, sysconfig")
    .replace("ctypes.CDLL(os.path.join(dynload, name), mode=os.RTLD_NOW)", 'importlib.import_module(name.split(".")[0])')
    .replace("except OSError:", "except Exception:")
)


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
    assert python is not None and IMPORTING != visible._PROBE, "no interpreter, or the peer is the probe itself"
    loading = statistics.median(cpu_seconds(lambda: visible._probe(python), count))
    kept, visible._PROBE = visible._PROBE, IMPORTING
    try:
        importing = statistics.median(cpu_seconds(lambda: visible._probe(python), count))
    finally:
        visible._PROBE = kept
    return {"loading": loading, "importing": importing, "ratio": importing / loading}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readings", type=int, default=200)
    parser.add_argument("--walks", type=int, default=5)
    parser.add_argument("--probes", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    found = {"reading": readings(args.readings), "walk": walks(args.walks), "probe": probes(args.probes)}
    reading, walk, probe = found["reading"], found["walk"], found["probe"]
    print(
        f"a reading ({reading['processes']:.0f} entries in /proc): {reading['grouped'] * 1000:.2f} ms through the group, "
        f"{reading['by_user'] * 1000:.2f} ms by user id (ratio {reading['ratio']:.1f})"
    )
    print(f"the walk for open folders: {walk['skipping']:.3f} s skipping, {walk['listing_all']:.3f} s listing all (ratio {walk['ratio']:.1f})")
    print(f"the probe: {probe['loading']:.3f} s loading, {probe['importing']:.3f} s importing (ratio {probe['ratio']:.1f})")
    if args.json:
        args.json.write_text(json.dumps(found, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
