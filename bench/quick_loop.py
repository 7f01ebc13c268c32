"""How long the quick test loop takes: `python -m pytest -m "not slow"`, on one core and
with pytest-xdist on every core, wall-clock and CPU seconds (the test processes' own);
with --whole, the whole suite too, as CI runs it (`python -m pytest -n auto`).

    python bench/quick_loop.py [--repeats 2] [--whole] [--json FILE]

Wall-clock figures mean something only on an otherwise idle machine: the script prints
the load average before each run so that a reader can tell.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
QUICK = ["-m", "not slow"]
VARIANTS = {"one core": QUICK, "-n auto": [*QUICK, "-n", "auto"]}
WHOLE = {"whole suite, -n auto": ["-n", "auto"]}


def run_once(extra: list[str]) -> tuple[float, float, bool]:
    """(wall seconds, CPU seconds of the pytest processes and every process they waited for, passed)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *extra], cwd=ROOT, capture_output=True, text=True)
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    return wall, cpu, done.returncode == 0


def count_tests() -> str:
    """ "N/M tests": the quick loop's tests of the whole suite's."""
    listed = subprocess.run(
        [sys.executable, "-m", "pytest", "-m", "not slow", "--collect-only", "-p", "no:cacheprovider"], cwd=ROOT, capture_output=True, text=True
    ).stdout
    found = re.search(r"(\d+)/(\d+) tests collected", listed)
    return f"{found[1]}/{found[2]} tests" if found else "? tests"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=2)
    parser.add_argument("--whole", action="store_true", help="time the whole suite too, once")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    tests = count_tests()
    print(f"the quick loop: {tests} of the suite; {os.cpu_count()} cores")
    rows = []
    variants = [(name, extra, args.repeats) for name, extra in VARIANTS.items()]
    variants += [(name, extra, 1) for name, extra in WHOLE.items()] if args.whole else []
    for name, extra, repeats in variants:
        walls, cpus = [], []
        for _ in range(repeats):
            load = os.getloadavg()[0]
            wall, cpu, passed = run_once(extra)
            print(f"  {name}: {wall:.1f} s wall, {cpu:.1f} s CPU, {'passed' if passed else 'FAILED'} (load before {load:.2f})")
            walls.append(wall)
            cpus.append(cpu)
        rows.append({"variant": name, "wall": statistics.median(walls), "cpu": statistics.median(cpus)})
    print("| variant | median wall s | median CPU s |\n|---|---|---|")
    for row in rows:
        print(f"| {row['variant']} | {row['wall']:.1f} | {row['cpu']:.1f} |")
    if args.json:
        args.json.write_text(json.dumps({"tests": tests, "rows": rows}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
