"""What isolating student code costs: `python -m grader problems/` with correct hooks under
each isolation mode, against the same hooks graded in the grader's own process.

    python bench/grading_overhead.py                 # 3 timed runs per mode
    python bench/grading_overhead.py --repeats 5 --json overhead.json

Every row is the real command as a user types it, in a subprocess. "in-process" grades
the reference hooks (`--solver reference`, no worker); the other rows grade
tests/student_files/model_answer.py (a correct student) with `--isolation MODE`. `user`
needs root and a kit closed to other users: the script copies the kit into a private
folder for it, as the Gradescope setup does. Wall time is what a user waits; CPU time
(the grader and its workers) is what the machine spends; ratios are against in-process.
Targets: every mode at most 3x in-process, and the sandboxed grade under 3 s of wall time.
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
import time
from pathlib import Path

from rich.console import Console
from rich.table import Table

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from answerkey.instructor.kit import kit_packages  # noqa: E402

STUDENT = ROOT / "tests" / "student_files" / "model_answer.py"
KIT_PARTS = (*kit_packages(ROOT), "problems", "pyproject.toml")


def closed_kit(folder: Path, root: Path = ROOT) -> Path:
    """A copy of the kit at `root` in `folder`, which no other user can read (what `user`
    isolation requires)."""
    os.chmod(folder, 0o700)
    for part in KIT_PARTS:
        source = root / part
        if source.is_dir():
            shutil.copytree(source, folder / "kit" / part, ignore=shutil.ignore_patterns("__pycache__"))
        else:
            shutil.copyfile(source, folder / "kit" / part)
    return folder / "kit"


def timed(kit: Path, args: list[str]) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the grader and everything it started) for one run."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    started = time.perf_counter()
    run = subprocess.run(
        [sys.executable, "-m", "grader", "problems/", *args], cwd=kit, env={**os.environ, "PYTHONPATH": str(kit)}, capture_output=True, text=True
    )
    wall = time.perf_counter() - started
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if run.returncode != 0 or "Full marks" not in run.stdout:
        raise SystemExit(f"grader {' '.join(args)} did not give full marks:\n{run.stdout[-1500:]}{run.stderr[-1500:]}")
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--json", type=Path)
    args = parser.parse_args()
    rows: dict[str, tuple[float, float]] = {}
    with tempfile.TemporaryDirectory() as private:
        kits = {"in-process": ROOT, "none": ROOT, "bwrap": ROOT}
        if os.geteuid() == 0:
            kits["user"] = closed_kit(Path(private))
            shutil.copyfile(STUDENT, Path(private) / "student.py")
        for mode, kit in kits.items():
            student = Path(private) / "student.py" if mode == "user" else STUDENT
            command = ["--solver", "reference"] if mode == "in-process" else ["--solver", str(student), "--isolation", mode]
            timed(kit, command)  # warm-up
            runs = [timed(kit, command) for _ in range(args.repeats)]
            rows[mode] = (statistics.median(r[0] for r in runs), statistics.median(r[1] for r in runs))
    base_wall, base_cpu = rows["in-process"]
    table = Table(title=f"python -m grader problems/ with correct hooks (median of {args.repeats})", title_justify="left")
    for column in ("isolation", "wall s", "wall ratio", "CPU s", "CPU ratio"):
        table.add_column(column, justify="left" if column == "isolation" else "right")
    for mode, (wall, cpu) in rows.items():
        table.add_row(mode, f"{wall:.2f}", f"{wall / base_wall:.2f}x", f"{cpu:.2f}", f"{cpu / base_cpu:.2f}x")
    Console().print(table)
    worst = max(wall / base_wall for wall, _ in rows.values())
    slowest = max(wall for mode, (wall, _) in rows.items() if mode != "in-process")
    print(f"worst wall ratio {worst:.2f}x (target at most 3x); slowest sandboxed grade {slowest:.2f} s (target under 3 s)")
    if args.json:
        args.json.write_text(json.dumps({m: {"wall": w, "cpu": c} for m, (w, c) in rows.items()}, indent=2) + "\n")


if __name__ == "__main__":
    main()
