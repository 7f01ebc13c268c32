"""Two fixed costs of every sandboxed grading run, each beside the way it was done before:

- a reading of a worker's processes (`usage.usage`, several per item): what left the
  worker's tree found through its control group's list, against the peer that looks for
  every process of the worker's user id (a stat and, for root's processes, a status file
  each);
- under `user`, the walk for the folders anyone may write to (`cleanup.world_writable`,
  once per run): folders whose link count says they hold no folder are not listed, against
  the peer that lists every folder (the same walk told that no file system keeps the count).

Run as root from the repository root::

    python bench/run_overhead.py [--readings 200] [--walks 5] [--json FILE]

CPU seconds are this process's (`time.process_time`); a reading is of this process as the
worker's root with a made-up user id, so both count the same processes, on this machine's
process table as it is. Medians of the walks; the ratio is the peer's over the new way's.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from grader.sandbox import cleanup  # noqa: E402
from grader.sandbox.usage import usage  # noqa: E402

NOBODY = 4_100_000_001  # a user id no account has: the peer searches for it among every process


def cpu_seconds(action: Callable[[], object], times: int) -> list[float]:
    """CPU seconds of each of `times` runs of `action`."""
    found = []
    for _ in range(times):
        started = time.process_time()
        action()
        found.append(time.process_time() - started)
    return found


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--readings", type=int, default=200)
    parser.add_argument("--walks", type=int, default=5)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    found = {"reading": readings(args.readings), "walk": walks(args.walks)}
    reading, walk = found["reading"], found["walk"]
    print(
        f"a reading ({reading['processes']:.0f} entries in /proc): {reading['grouped'] * 1000:.2f} ms through the group, "
        f"{reading['by_user'] * 1000:.2f} ms by user id (ratio {reading['ratio']:.1f})"
    )
    print(f"the walk for open folders: {walk['skipping']:.3f} s skipping, {walk['listing_all']:.3f} s listing all (ratio {walk['ratio']:.1f})")
    if args.json:
        args.json.write_text(json.dumps(found, indent=2) + "\n", encoding="utf-8")


if __name__ == "__main__":
    main()
