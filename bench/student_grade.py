"""A student's whole grade: `python -m grader problems/` with a correct file, against the
same file's searches of every board in this process, as ratios in one run.

    python bench/student_grade.py                        # 3 timed runs per row, bwrap and none
    python bench/student_grade.py --repeats 5 --modes bwrap none user --jobs 1 2
    python bench/student_grade.py --profile none         # also: where a grade's time goes, per hook call
    python bench/student_grade.py --before /tmp/before   # also the grader of an older checkout, taking turns

Rows (they take turns, after one warm-up each; medians of `--repeats`):

- **searches in-process**: the engine searching every solution of every board of
  `--problems` with the file's own hooks (`select_variable`, `order_values`,
  `forward_check`) called directly: no worker, no checks, no report. CPU of this process.
- **MODE, jobs N**: the real command as a student types it, in a subprocess:
  `python -m grader problems/ --solver FILE --isolation MODE --jobs N`; it must give full
  marks. FILE is graded as a student has it: in a folder of its own, with only the files
  of its folder it imports (every worker gets a copy of a file's folder, and the default
  file's, the tests' students, holds over a hundred files). CPU is read from a control group of the bench's own (`cpuacct.usage`, or cgroup
  v2's `cpu.stat`), which counts the grader and every process it started, sandboxed ones
  included (getrusage misses those under bubblewrap); as root only.

Printed: wall and CPU seconds, CPU as a ratio to the in-process searches (the issue's
goal: at most 3x), and the machine's load average before and after (the wall time is the
idle machine's only when that is near 0).

`--profile MODE` then grades once more in this process under that mode, counting what
crosses between the grader and the worker: round trips per hook (a call asked alone) and
batches (calls asked as one message, answered a reply each), messages and bytes each way,
and per round trip the wall time and the grader's own CPU time.
"""

from __future__ import annotations

import argparse
import ast
import importlib.util
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections import Counter, defaultdict
from collections.abc import Callable
from contextlib import redirect_stdout
from io import StringIO
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from grader.inputs.problemset import load_problems  # noqa: E402
from solvers.csp import build_csp  # noqa: E402
from solvers.engine import Strategy, search  # noqa: E402

sys.path.insert(0, str(Path(__file__).resolve().parent))  # the benches beside this one, run as a script or not
from run_overhead import own_group  # noqa: E402  (one control group reader for every bench)

STUDENT = ROOT / "tests" / "student_files" / "correct.py"


def student_strategy(path: Path) -> Strategy:
    """The file's search hooks, imported here (its folder first on the path, for its helpers)."""
    sys.path.insert(0, str(path.parent))
    spec = importlib.util.spec_from_file_location("bench_student", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return Strategy("student", module.select_variable, module.order_values, forward_check=module.forward_check)


def as_a_student_has_it(path: Path) -> Path:
    """A copy of `path` in a new folder of its own, with the files of its folder it imports."""
    folder = Path(tempfile.mkdtemp(prefix="bench-student-"))
    tree = ast.parse(path.read_text(encoding="utf-8"))
    imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    for name in sorted(imported):
        if (path.parent / f"{name}.py").is_file():
            shutil.copyfile(path.parent / f"{name}.py", folder / f"{name}.py")
    shutil.copyfile(path, folder / path.name)
    return folder / path.name


def in_process(problems: list[Any], strategy: Strategy) -> tuple[float, float]:
    """(wall, CPU) seconds of searching every solution of every board with `strategy`."""
    wall, cpu = time.perf_counter(), time.process_time()
    for problem in problems:
        search(build_csp(problem.board), strategy, "all")
    return time.perf_counter() - wall, time.process_time() - cpu


def graded(kit: Path, folder: str, student: Path, mode: str, jobs: int, used: Callable[[], float]) -> tuple[float, float]:
    """(wall, CPU) seconds of the whole grade as a student runs it, with the grader of the
    checkout `kit`; it must give full marks."""
    command = [sys.executable, "-m", "grader", folder, "--solver", str(student), "--isolation", mode, "--jobs", str(jobs)]
    cpu, wall = used(), time.perf_counter()
    run = subprocess.run(command, cwd=kit, env={**os.environ, "PYTHONPATH": str(kit)}, capture_output=True, text=True)
    wall, cpu = time.perf_counter() - wall, used() - cpu
    if run.returncode != 0 or "Full marks" not in run.stdout:
        raise SystemExit(f"{' '.join(command)} did not give full marks:\n{run.stdout[-1500:]}{run.stderr[-1500:]}")
    return wall, cpu


def profile(folder: str, student: Path, mode: str) -> None:
    """Grade once in this process (`--jobs 1`), counting every round trip to the worker."""
    from grader.commands.cli import main as grader_main
    from grader.sandbox import host
    from grader.sandbox.wire import encode

    counts: Counter[str] = Counter()
    seconds: defaultdict[str, float] = defaultdict(float)
    lock = threading.Lock()
    call, send, following, load, begin = host.Worker.call, host.Worker.send, host.Worker._next, host.Worker.load, host.Worker.begin
    batch = host.Worker.call_all

    def counted_load(self: Any, limit: float) -> None:
        wall = time.perf_counter()
        try:
            load(self, limit)
        finally:
            with lock:
                counts["workers started"] += 1
                seconds["starts"] += time.perf_counter() - wall

    def counted_begin(self: Any, limit: float) -> None:
        wall = time.perf_counter()
        try:
            begin(self, limit)
        finally:
            with lock:
                counts["items (a fork each)"] += 1
                seconds["items"] += time.perf_counter() - wall

    def counted_call(self: Any, hook: str, args: dict[str, Any], limit: float | None = None) -> Any:
        kind = "round trips" if self.recording is None else "calls read from the worker's searches"
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return call(self, hook, args, limit)
        finally:
            with lock:
                counts[f"{kind}: {hook}"] += 1
                counts[kind] += 1
                seconds[f"{kind} wall"] += time.perf_counter() - wall
                seconds[f"{kind} grader CPU"] += time.thread_time() - cpu

    def counted_batch(self: Any, asks: list[dict[str, Any]], upto: Any) -> Any:
        wall, cpu = time.perf_counter(), time.thread_time()
        try:
            return batch(self, asks, upto)
        finally:
            with lock:
                counts["round trips"] += 1
                counts["round trips: batches"] += 1
                counts["calls answered in batches"] += sum(ask["op"] == "call" for ask in asks)
                seconds["round trips wall"] += time.perf_counter() - wall
                seconds["round trips grader CPU"] += time.thread_time() - cpu

    def counted_send(self: Any, request: dict[str, Any]) -> None:
        with lock:
            counts["messages to the worker"] += 1
            counts["bytes to the worker"] += len(encode(request))
        send(self, request)

    def counted_next(self: Any, read: Callable[[bytes], Any]) -> Any:
        def reading(line: bytes) -> Any:
            with lock:
                counts["messages from the worker"] += 1
                counts["bytes from the worker"] += len(line) + 1
            return read(line)

        return following(self, reading)

    patched = (counted_call, counted_send, counted_next, counted_load, counted_begin)
    host.Worker.call, host.Worker.send, host.Worker._next, host.Worker.load, host.Worker.begin = patched  # type: ignore[method-assign]
    host.Worker.call_all = counted_batch  # type: ignore[method-assign]
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        with redirect_stdout(StringIO()):
            grader_main([folder, "--solver", str(student), "--isolation", mode, "--jobs", "1"])
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    finally:
        host.Worker.call, host.Worker.send, host.Worker._next, host.Worker.load, host.Worker.begin = call, send, following, load, begin  # type: ignore[method-assign]
        host.Worker.call_all = batch  # type: ignore[method-assign]
    print(f"\nwhere a grade's time goes ({mode}, --jobs 1, in this process): {wall:.2f} s wall, {cpu:.2f} s of the grader's CPU")
    for name, value in sorted(counts.items()):
        print(f"  {name:<44} {value:>10,}")
    for kind, one in (("round trips", "round trip"), ("calls read from the worker's searches", "call read")):
        done, kind_wall, kind_cpu = max(1, counts[kind]), seconds[f"{kind} wall"], seconds[f"{kind} grader CPU"]
        print(f"  per {one}: {kind_wall / done * 1e6:.0f} µs wall, {kind_cpu / done * 1e6:.0f} µs of the grader's CPU")
        print(f"  share of the grade, {kind}: {kind_wall:.2f} s wall ({kind_wall / wall:.0%}), {kind_cpu:.2f} s of the grader's CPU")
    starts, items = max(1, counts["workers started"]), max(1, counts["items (a fork each)"])
    print(f"  per worker start (its interpreter, the library, the file checked): {seconds['starts'] / starts * 1e3:.0f} ms wall")
    print(f"  per item's fork (loading the file again, confined): {seconds['items'] / items * 1e3:.1f} ms wall")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--modes", nargs="+", default=["bwrap", "none"])
    parser.add_argument("--jobs", nargs="+", type=int, default=[2])
    parser.add_argument("--problems", default="problems/", help="the problem folder graded (relative to the repository)")
    parser.add_argument("--student", type=Path, default=STUDENT, help="a correct file (full marks expected)")
    parser.add_argument("--profile", metavar="MODE", help="then count one grade's round trips under MODE")
    parser.add_argument("--before", type=Path, help="a checkout of an older commit: its grader's rows too, taking turns")
    args = parser.parse_args()
    if os.geteuid() != 0:
        raise SystemExit("run as root: the CPU of sandboxed processes is read from a control group of the bench's own")
    problems, errors = load_problems(ROOT / args.problems)
    if errors:
        raise SystemExit(f"{args.problems}: {errors[0]}")
    student = as_a_student_has_it(args.student.resolve())
    strategy = student_strategy(student)
    rows: dict[str, list[tuple[float, float]]] = {"searches in-process": []}
    kits = {"": ROOT, **({" (before)": args.before.resolve()} if args.before else {})}
    names = [(mode, jobs, label, kit) for mode in args.modes for jobs in args.jobs for label, kit in kits.items()]
    load_before = os.getloadavg()
    with own_group() as used:
        in_process(problems, strategy)  # warm-up
        for mode, jobs, _, kit in names:
            graded(kit, args.problems, student, mode, jobs, used)
        for _ in range(args.repeats):  # the rows take turns
            rows["searches in-process"].append(in_process(problems, strategy))
            for mode, jobs, label, kit in names:
                rows.setdefault(f"{mode}, jobs {jobs}{label}", []).append(graded(kit, args.problems, student, mode, jobs, used))
    load_after = os.getloadavg()
    medians = {name: (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs)) for name, runs in rows.items()}
    base = medians["searches in-process"][1]
    print(f"{args.student.name} on {args.problems} ({len(problems)} boards), median of {args.repeats}", end="; ")
    print(f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    print(f"  {'row':<31} {'wall s':>8} {'CPU s':>8} {'CPU / in-process':>17}")
    for name, (wall, cpu) in medians.items():
        print(f"  {name:<31} {wall:8.2f} {cpu:8.2f} {cpu / base:16.1f}x")
    graded_rows = [figures for name, figures in medians.items() if name != "searches in-process"]
    worst, slowest = max(cpu / base for _, cpu in graded_rows), max(wall for wall, _ in graded_rows)
    print(f"worst CPU ratio {worst:.1f}x (goal: at most 3x); slowest wall {slowest:.2f} s (goal: 2 s idle)")
    if args.profile:
        profile(args.problems, student, args.profile)
    shutil.rmtree(student.parent)


if __name__ == "__main__":
    main()
