"""What a hostile or broken submission can cost, measured on the shipped problems.

    python bench/bounded_costs.py [--isolation bwrap|user] [--jobs N] [--timeout S]

1. A forward_check that always hangs (asleep) and one that always loops (busy), graded
   on every problem under problems/ as Gradescope would (one submission, --jobs cores,
   --timeout 10): the wall and CPU time of the whole grading, and how many items were
   not run because the hook had already run out of time twice in their chain.
2. Stopping: a class of three (two honest students around one whose constraint_bounds
   loops), stopped with SIGTERM once its worker runs: seconds from the signal to the
   grader's exit, the exit status, the CSV's rows, and the grading's processes left.

Times are wall-clock seconds on this machine (CPU seconds where said); rerun beside
other work to see that the grades do not move, only the seconds.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from conftest import copy_kit, running_with, self_contained  # noqa: E402  (the tests' own helpers)

HANGS = {
    "asleep": "import time\ndef forward_check(csp, domains, assigned):\n    time.sleep(1000)\n",
    "busy": "def forward_check(csp, domains, assigned):\n    while True:\n        pass\n",
}


def hanging_student(folder: Path, how: str) -> Path:
    """The correct student with a forward_check that never answers."""
    path = folder / f"hangs_{how}.py"
    path.write_text(self_contained("correct") + "\n" + HANGS[how], encoding="utf-8")
    return path


def grade_hanging(kit: Path, student: Path, isolation: str, jobs: int, timeout: float) -> str:
    out = student.with_suffix(".json")
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    subprocess.run(
        [
            sys.executable,
            "-m",
            "grader",
            str(kit / "problems"),
            "--solver",
            str(student),
            "--json",
            str(out),
            "--jobs",
            str(jobs),
            "--timeout",
            str(timeout),
            "--isolation",
            isolation,
        ],
        cwd=kit,
        env={**os.environ, "PYTHONPATH": str(kit)},
        capture_output=True,
        check=False,
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    report = json.loads(out.read_text(encoding="utf-8"))
    items = report["hooks"] + report["problems"] + report.get("other", [])
    not_run = sum(item["status"] == "not_run" for item in items)
    timed_out = sum(item["status"] == "timeout" for item in items)
    cpu = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return (
        f"| forward_check {student.stem.split('_')[1]} | {wall:.1f} | {cpu:.1f} | {len(items)} | {timed_out} | {not_run} | "
        f"{report['score']}/{report['max_score']} |"
    )


def stop_batch(kit: Path, work: Path, isolation: str) -> str:
    looper = f"mmm_loops_{uuid.uuid4().hex[:12]}"
    folder = work / "class"
    folder.mkdir()
    for name in ("aaa_honest", "zzz_honest"):
        (folder / f"{name}.py").write_text(self_contained("correct"), encoding="utf-8")
    (folder / f"{looper}.py").write_text(self_contained("loop_bounds"), encoding="utf-8")
    csv = work / "grades.csv"
    grader = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "grader",
            str(kit / "problems" / "course.yaml"),
            "--submissions",
            str(folder),
            "--csv",
            str(csv),
            "--timeout",
            "60",
            "--jobs",
            "2",
            "--isolation",
            isolation,
        ],
        cwd=kit,
        env={**os.environ, "PYTHONPATH": str(kit)},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 60
    while not running_with(looper) and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(1.0)  # into its loop
    sent = time.perf_counter()
    grader.send_signal(signal.SIGTERM)
    code = grader.wait()
    seconds = time.perf_counter() - sent
    time.sleep(0.5)
    left = running_with(looper)
    for pid in left:
        os.kill(pid, signal.SIGKILL)
    rows = len(csv.read_text(encoding="utf-8").splitlines()) - 1 if csv.exists() else 0
    return f"| SIGTERM to a class of 3 | {seconds:.2f} | {code} | {rows} rows | {len(left)} |"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--isolation", default="user" if os.geteuid() == 0 else "bwrap", choices=("bwrap", "user"))
    parser.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    parser.add_argument("--timeout", type=float, default=10.0)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bounded-") as scratch:
        work = Path(scratch)
        os.chmod(work, 0o700)  # closed to other users, as `user` isolation needs
        kit = copy_kit(work / "kit")
        print(f"isolation {args.isolation}, --jobs {args.jobs}, --timeout {args.timeout:g}, every problem under problems/\n")
        print("| submission | wall s | CPU s | items | timed out | not run | score |")
        print("|---|---|---|---|---|---|---|")
        for how in HANGS:
            print(grade_hanging(kit, hanging_student(work, how), args.isolation, args.jobs, args.timeout))
        print("\n| run | seconds to exit | exit status | CSV | processes left |")
        print("|---|---|---|---|---|")
        print(stop_batch(kit, work, args.isolation))
    return 0


if __name__ == "__main__":
    sys.exit(main())
