"""What the grader's sandbox and batch mode cost, in one run: wall times and ratios.

Run from the repository root::

    python bench/grading_overhead.py [--repeats 5] [--submissions 100] [--jobs 2] [--json FILE]

(a) Sandbox cost: the reference hooks graded on problems/ by `grader.grading.grade`
    (worker subprocess, jobs=1) against the very same grade() with its `run_items`
    swapped for an in-process loop over `grader.worker.run_hook_item` /
    `run_problem_item` (same items, same scoring; only the sandbox is gone). Target:
    sandboxed at most 2x in-process. A breakdown shows where the sandbox's time goes:
    starting Python, importing the worker, one worker with one tiny item.
(b) Batch: N submission files (mostly correct, a few buggy) graded by
    `python -m grader problems/ --submissions DIR --csv FILE --jobs 2` in a subprocess.
    Target: minutes for a class of 100 (we use 300 s).
"""

from __future__ import annotations

import argparse
import contextlib
import csv
import gc
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable, Iterator

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.table import Table  # noqa: E402

import grader.grading as grading  # noqa: E402
import grader.worker as worker  # noqa: E402
from grader.config import find_config, load_config  # noqa: E402
from grader.hookcases import load_cases, reference_hooks  # noqa: E402
from grader.problemset import load_problems  # noqa: E402
from grader.sandbox import Limits, run_items  # noqa: E402
from grader.worker import run_hook_item, run_problem_item  # noqa: E402

PROBLEMS = ROOT / "problems"
SANDBOX_TARGET = 2.0  # sandboxed time / in-process time
BATCH_TARGET_S = 300.0  # a class of 100 in "minutes"

#: Student files for the batch, from the test suite: (kind, share of the class, file).
STUDENT_FILES = ROOT / "tests" / "student_files"
STUDENTS: list[tuple[str, float, Path]] = [
    ("correct", 0.80, STUDENT_FILES / "correct.py"),
    ("lazy", 0.05, STUDENT_FILES / "lazy_fc.py"),        # forward checking without the upper bound
    ("crash", 0.05, STUDENT_FILES / "crash.py"),         # select_variable divides by zero
    ("exits", 0.05, STUDENT_FILES / "exits.py"),         # select_variable calls os._exit(3)
    ("wrong_type", 0.05, STUDENT_FILES / "wrong_types.py"),  # hooks return the wrong kinds of values
]


def timed(call: Callable[[], Any], repeats: int) -> tuple[Any, list[float]]:
    """One warm-up call's result, and the wall times (s) of `repeats` more calls."""
    result = call()
    times = []
    for _ in range(repeats):
        gc.collect()
        started = time.perf_counter()
        call()
        times.append(time.perf_counter() - started)
    return result, times


def in_process_run_items(solver: str, items: list[dict[str, Any]], timeouts: list[float], jobs: int = 1,
                         limits: Limits = Limits()) -> list[dict[str, Any]]:
    """run_items without the sandbox: the worker's item functions called right here."""
    hooks = reference_hooks() if solver == "reference" else None
    assert hooks is not None, "the in-process runner only runs the reference"
    runners = {"hook": run_hook_item, "problem": run_problem_item}
    outcomes = []
    for item in items:
        started = time.perf_counter()
        # other kinds of item (if grade() has any) run through the worker's run_<kind>_item
        runner = runners.get(item["kind"]) or getattr(worker, f"run_{item['kind'].replace('-', '_')}_item")
        outcome = runner(hooks, item, solver)
        outcome["seconds"] = time.perf_counter() - started
        outcome["output"] = ""
        outcomes.append(outcome)
    return outcomes


@contextlib.contextmanager
def without_sandbox() -> Iterator[None]:
    """grade() with its run_items replaced by the in-process loop."""
    original = grading.run_items
    grading.run_items = in_process_run_items
    try:
        yield
    finally:
        grading.run_items = original


def grade_summary(report: grading.Report) -> list[tuple[str, str, float, int | None]]:
    return [(i.name, i.status, i.score, i.nodes) for i in report.items]


def python_env() -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE", "TTY_INTERACTIVE")}
    env["PYTHONPATH"] = os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])])
    return env


def run_python(code: str) -> None:
    subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=python_env(), check=True)


def bench_sandbox(problems_dir: Path, repeats: int) -> dict[str, Any]:
    """(a): grade() sandboxed with jobs=1 against grade() in-process, plus a breakdown."""
    problems, errors = load_problems(problems_dir)
    if errors:
        raise SystemExit(f"fix the problem files first: {errors[0]}")
    config, config_errors = load_config(find_config(problems_dir, None))
    if config_errors:
        raise SystemExit(f"fix the grading config first: {config_errors[0]}")
    sandboxed_report, sandboxed = timed(lambda: grading.grade("reference", problems, config, jobs=1), repeats)
    with without_sandbox():
        in_process_report, in_process = timed(lambda: grading.grade("reference", problems, config, jobs=1), repeats)
    assert grade_summary(sandboxed_report) == grade_summary(in_process_report), "the two runs graded differently"
    assert sandboxed_report.score == sandboxed_report.max_score, "the reference lost points"

    cases = load_cases()["constraint_bounds"]
    first_hook = [{"kind": "hook", "hook": "constraint_bounds", "cases": [{k: v for k, v in c.items() if k != "expected"} for c in cases]}]
    _, one_worker = timed(lambda: run_items("reference", first_hook, [10.0], 1, Limits(memory_mb=config.memory_mb)), repeats)
    _, bare_python = timed(lambda: run_python("pass"), repeats)
    _, worker_import = timed(lambda: run_python("import grader.worker"), repeats)
    work = sum(item.seconds or 0 for item in sandboxed_report.items)  # time inside the worker, per item
    sandboxed_s, in_process_s = statistics.median(sandboxed), statistics.median(in_process)
    return {
        "problems": len(problems),
        "items": len(sandboxed_report.items),
        "repeats": repeats,
        "sandboxed_s": sandboxed_s,
        "in_process_s": in_process_s,
        "ratio": sandboxed_s / in_process_s,
        "target_ratio": SANDBOX_TARGET,
        "met": sandboxed_s / in_process_s <= SANDBOX_TARGET,
        "breakdown_s": {
            "python -c pass": statistics.median(bare_python),
            "python -c 'import grader.worker'": statistics.median(worker_import),
            "one worker, one hook item (run_items)": statistics.median(one_worker),
            "items' own time inside the worker (sum)": work,
        },
    }


def write_submissions(folder: Path, count: int) -> dict[str, int]:
    """`count` student files in `folder`, mostly correct; how many of each kind."""
    kinds = {name: min(count, max(1, round(count * share))) for name, share, _ in STUDENTS[1:]}
    kinds = {"correct": max(0, count - sum(kinds.values())), **kinds}
    number = 0
    for name, _, source in STUDENTS:
        for _ in range(kinds[name]):
            if number < count:
                number += 1
                shutil.copyfile(source, folder / f"student{number:03d}_{name}.py")
    return kinds


def bench_batch(problems_dir: Path, count: int, jobs: int) -> dict[str, Any]:
    """(b): a class of `count` submissions through the CLI, as a subprocess."""
    with tempfile.TemporaryDirectory(prefix="grading-bench-") as temp:
        folder = Path(temp) / "submissions"
        folder.mkdir()
        kinds = write_submissions(folder, count)
        grades = Path(temp) / "grades.csv"
        command = [sys.executable, "-m", "grader", str(problems_dir), "--submissions", str(folder),
                   "--csv", str(grades), "--jobs", str(jobs)]
        started = time.perf_counter()
        run = subprocess.run(command, cwd=ROOT, env=python_env(), capture_output=True, text=True)
        total = time.perf_counter() - started
        if run.returncode != 0:
            raise SystemExit(f"the batch failed ({run.returncode}):\n{run.stdout[-2000:]}\n{run.stderr[-2000:]}")
        with grades.open(newline="", encoding="utf-8") as handle:
            rows = list(csv.DictReader(handle))
    assert len(rows) == count, f"{len(rows)} CSV rows for {count} submissions"
    full = sum(1 for r in rows if float(r["score"]) == float(r["max_score"]))
    assert full == kinds["correct"], f"{full} full marks for {kinds['correct']} correct submissions"
    return {
        "submissions": count,
        "kinds": kinds,
        "jobs": jobs,
        "total_s": total,
        "per_submission_s": total / count,
        "target_total_s": BATCH_TARGET_S,
        "met": total <= BATCH_TARGET_S,
    }


def render(console: Console, sandbox: dict[str, Any], batch: dict[str, Any] | None) -> None:
    """Print both tables and the verdicts."""
    table = Table(title=f"(a) sandbox cost: reference hooks on problems/ ({sandbox['items']} items), "
                        f"median of {sandbox['repeats']}", title_justify="left")
    for name in ("run", "wall s", "ratio"):
        table.add_column(name, justify="left" if name == "run" else "right", no_wrap=True)
    table.add_row("grade(), in-process (no sandbox)", f"{sandbox['in_process_s']:.3f}", "1.00")
    table.add_row("grade(), sandboxed, jobs=1", f"{sandbox['sandboxed_s']:.3f}", f"{sandbox['ratio']:.2f}")
    table.add_section()
    for name, seconds in sandbox["breakdown_s"].items():
        table.add_row(f"  {name}", f"{seconds:.3f}", f"{seconds / sandbox['in_process_s']:.2f}")
    console.print(table)
    verdict = "met" if sandbox["met"] else f"MISSED by {(sandbox['ratio'] / SANDBOX_TARGET - 1) * 100:.1f} %"
    console.print(f"sandboxed / in-process = {sandbox['ratio']:.2f} (target <= {SANDBOX_TARGET:g}: {verdict}); "
                  f"fixed cost of the sandbox ~ {sandbox['sandboxed_s'] - sandbox['in_process_s']:.3f} s per grading run")
    if batch is None:
        return
    table = Table(title=f"(b) batch: {batch['submissions']} submissions, --jobs {batch['jobs']}", title_justify="left")
    for name in ("submissions", "kinds", "total s", "per submission s", "ideal s", "total / ideal", "target"):
        table.add_column(name, justify="right" if name != "kinds" else "left")
    kinds = ", ".join(f"{k} {v}" for k, v in batch["kinds"].items())
    table.add_row(str(batch["submissions"]), kinds, f"{batch['total_s']:.2f}", f"{batch['per_submission_s']:.3f}",
                  f"{batch['ideal_s']:.2f}", f"{batch['total_s'] / batch['ideal_s']:.2f}",
                  f"<= {BATCH_TARGET_S:g} s: {'met' if batch['met'] else 'MISSED'}")
    console.print(table)
    console.print(f"ideal = submissions x one sandboxed grade() from (a) / jobs = {batch['submissions']} x "
                  f"{sandbox['sandboxed_s']:.3f} s / {batch['jobs']}; os.cpu_count() = {os.cpu_count()}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5, help="timed runs per measurement of (a) (default 5)")
    parser.add_argument("--submissions", type=int, default=100, help="class size for (b) (default 100; 0 skips it)")
    parser.add_argument("--jobs", type=int, default=2, help="--jobs of the batch run (default 2)")
    parser.add_argument("--problems", type=Path, default=PROBLEMS, help="problem folder (default problems/)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.submissions < 0 or args.jobs < 1:
        parser.error("--repeats and --jobs must be at least 1, --submissions at least 0")
    console = Console()
    console = console if console.is_terminal else Console(width=120)
    sandbox = bench_sandbox(args.problems, args.repeats)
    batch = bench_batch(args.problems, args.submissions, args.jobs) if args.submissions else None
    if batch is not None:
        batch["ideal_s"] = batch["submissions"] * sandbox["sandboxed_s"] / batch["jobs"]
    render(console, sandbox, batch)
    if args.json:
        args.json.write_text(json.dumps({"sandbox": sandbox, "batch": batch}, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
