"""The student copy's grade against the course's, file by file, on the same public boards.

    python bench/copy_vs_course.py [--problems PATH...] [--timeout S] [--only NAME...]

Builds a fresh student copy (`python -m grader release`) from this kit for the given
problem files (default: problems/course.yaml, with the default grading config), then
grades every file of tests/student_files that writes a part-1 hook twice: in the copy
(`python -m grader problems/`, the copy's own problem folder and grading.yaml, with only
what a student has importable) and with this kit's grader on that same folder (the
course's grader: the answer key at hand). It prints one row a file: the copy's total, the
course's, the points the copy states as checked only by the course's grader (not in its
total: `unchecked`; in it, counted as right: `unverified`), and the verdict:

- `equal`: the same total;
- `stated`: the totals differ by no more than the points the copy states
  (copy - unverified <= course <= copy + unchecked);
- `UNEXPLAINED`: anything else (the exit status is then 1).

Also prints the size of the copy's stored answers (`grader/inputs/search_answers.json`).
"""

from __future__ import annotations

import argparse
import ast
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
STUDENT_FILES = ROOT / "tests" / "student_files"
#: Put first on a copy's PYTHONPATH: drops the full kit's editable install, so that the copy
#: sees what a student has (no answer key).
ONLY_THE_COPY = STUDENT_FILES / "only_this_copy"
PART_ONE = ("constraint_bounds", "forward_check", "select_variable", "order_values")


def _names(path: Path) -> set[str]:
    """The names a file binds at its top level (defined, assigned or imported)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            names.add(node.name)
        elif isinstance(node, ast.Assign):
            names |= {target.id for target in node.targets if isinstance(target, ast.Name)}
        elif isinstance(node, ast.ImportFrom):
            names |= {alias.asname or alias.name for alias in node.names}
    return names


def hook_files() -> list[Path]:
    """The student files that define at least one part-1 hook (files that do not parse left out)."""
    found = []
    for path in sorted(STUDENT_FILES.glob("*.py")):
        try:
            names = _names(path)
        except (SyntaxError, ValueError):
            continue
        if path.stem != "model_answer" and names & set(PART_ONE):
            found.append(path)
    return found


def release(work: Path, problems: list[Path]) -> Path:
    """A fresh student copy for these problem files (in a folder of their own)."""
    folder = work / "problems"
    folder.mkdir()
    for path in problems:
        shutil.copyfile(path, folder / path.name)
    out = work / "copy"
    made = subprocess.run(
        [sys.executable, "-m", "grader", "release", str(out), "--problems", str(folder)],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        check=False,
    )
    if made.returncode != 0:
        raise SystemExit(f"release failed: {made.stdout}{made.stderr}")
    return out


def graded(cwd: Path, pythonpath: str, problems: Path, solver: Path, report: Path, timeout: float) -> dict:
    """The JSON report of one grading run ({} when none was written)."""
    env = {**os.environ, "PYTHONPATH": pythonpath, "COLUMNS": "200"}
    subprocess.run(
        [sys.executable, "-m", "grader", str(problems), "--solver", str(solver), "--json", str(report), "--timeout", str(timeout)],
        cwd=cwd,
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    return json.loads(report.read_text(encoding="utf-8")) if report.exists() else {}


def verdict(copy: float | None, course: float | None, unchecked: float, unverified: float) -> str:
    if copy is None or course is None:
        return "UNEXPLAINED" if copy != course else "equal"
    if abs(copy - course) < 0.005:
        return "equal"
    return "stated" if copy - unverified - 0.005 <= course <= copy + unchecked + 0.005 else "UNEXPLAINED"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--problems", type=Path, nargs="+", default=[ROOT / "problems" / "course.yaml"])
    parser.add_argument("--timeout", type=float, default=2.0)
    parser.add_argument("--only", nargs="+", help="student files by name (without .py)")
    args = parser.parse_args()
    files = [p for p in hook_files() if not args.only or p.stem in args.only]
    rows, bad = [], 0
    with tempfile.TemporaryDirectory(prefix="copy-vs-course-") as scratch:
        work = Path(scratch)
        copy = release(work, args.problems)
        size = (copy / "grader" / "inputs" / "search_answers.json").stat().st_size
        print(f"stored answers: {size:,} bytes for {len(args.problems)} problem file(s)")
        print(f"{'file':34} {'copy':>7} {'course':>7} {'unchecked':>9} {'unverified':>10}  verdict")
        for path in files:
            folder = work / "students" / path.stem
            folder.mkdir(parents=True)
            shutil.copyfile(STUDENT_FILES / "model_answer.py", folder / "model_answer.py")
            solver = Path(shutil.copyfile(path, folder / path.name))
            mine = graded(copy, f"{ONLY_THE_COPY}{os.pathsep}{copy}", copy / "problems", solver, folder / "copy.json", args.timeout)
            theirs = graded(ROOT, str(ROOT), copy / "problems", solver, folder / "course.json", args.timeout)
            unchecked = (mine.get("unchecked") or {}).get("points", 0.0)
            unverified = (mine.get("unverified") or {}).get("points", 0.0)
            said = verdict(mine.get("score"), theirs.get("score"), unchecked, unverified)
            bad += said == "UNEXPLAINED"
            rows.append(said)
            print(f"{path.stem:34} {mine.get('score')!s:>7} {theirs.get('score')!s:>7} {unchecked:>9g} {unverified:>10g}  {said}", flush=True)
    print(f"{len(rows)} files: {rows.count('equal')} equal, {rows.count('stated')} differ by points the copy states, {bad} unexplained")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
