"""The same class graded three ways must get the same CSV, timings aside.

    python bench/same_grades.py [--problems PATH] [--timeout S] [--busy N]

Builds a class from tests/student_files (a correct student, every common mistake, a slow
but correct one, one that sleeps in a hook, crashing, looping and unloadable files, a
hook that keeps state between calls), then grades it

1. with --jobs 1 on an idle machine,
2. with --jobs 2 beside N busy processes per core (default 2),
3. with --jobs 2 beside them again, under `--isolation user` when run as root (else bwrap),

and prints each run's wall and CPU time, then the differences between the CSVs once the
measured times in reasons are replaced by N (none, when grades are a promise).
"""

from __future__ import annotations

import argparse
import csv
import difflib
import os
import re
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from conftest import copy_kit  # noqa: E402  (the tests' own helpers build the class and the load)
from test_grades_promise import CLASS, busy_machine, class_folder  # noqa: E402


def grade(kit: Path, problems: Path, folder: Path, out: Path, jobs: int, isolation: str, timeout: float) -> list[str]:
    """Grade the class; the CSV's lines with times replaced by N."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    env = {**os.environ, "PYTHONPATH": str(kit)}
    subprocess.run(
        [
            sys.executable,
            "-m",
            "grader",
            str(problems),
            "--submissions",
            str(folder),
            "--csv",
            str(out),
            "--jobs",
            str(jobs),
            "--timeout",
            str(timeout),
            "--isolation",
            isolation,
        ],
        cwd=kit,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    print(f"  {out.stem}: jobs {jobs}, {isolation}: {time.perf_counter() - started:.1f} s wall, {cpu:.1f} s CPU")
    with out.open(newline="", encoding="utf-8") as handle:
        return [",".join(re.sub(r"\b\d+\.\d+ s\b", "N s", cell) for cell in row) for row in csv.reader(handle)]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", type=Path, default=ROOT / "problems" / "course.yaml")
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--busy", type=int, default=2, help="busy processes per core during runs 2 and 3")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="same-grades-") as scratch:
        work = Path(scratch)
        os.chmod(work, 0o700)  # closed to other users, as `user` isolation needs
        kit = copy_kit(work / "kit")
        problems = kit / args.problems.relative_to(ROOT) if args.problems.is_relative_to(ROOT) else args.problems
        class_folder(work / "class")
        third = "user" if os.geteuid() == 0 else "bwrap"
        print(f"{len(CLASS)} submissions on {args.problems.name}, --timeout {args.timeout:g}:")
        quiet = grade(kit, problems, work / "class", work / "quiet.csv", 1, "bwrap", args.timeout)
        with busy_machine(args.busy):
            loaded = grade(kit, problems, work / "class", work / "loaded.csv", 2, "bwrap", args.timeout)
            other = grade(kit, problems, work / "class", work / f"loaded-{third}.csv", 2, third, args.timeout)
        for name, lines in ((f"loaded (jobs 2, {args.busy} busy per core)", loaded), (f"loaded, {third}", other)):
            diff = list(difflib.unified_diff(quiet, lines, "quiet", name, lineterm=""))
            print(f"quiet vs {name}: {'identical' if not diff else f'{len(diff)} diff lines'}")
            print("\n".join(diff[:40]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
