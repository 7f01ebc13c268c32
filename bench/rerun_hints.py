"""Every rerun hint of a class's feedback, run as printed in a student copy: how many hints
the feedback files hold, and how many failed.

    python bench/rerun_hints.py [--jobs 2] [--keep DIR]

Grades a varied class (tests/student_files, wrong in every hook, raising, right) on the
course boards with a private `hook_seed`, with `--submissions DIR --csv`; releases a
student copy of the course (`python -m grader release`); then, for each student, puts
their file in the copy as `assignment/hooks.py` and runs every command the student's
Markdown feedback shows after "rerun just this ...", exactly as printed, from the copy's
root. A hint fails when its run raises a traceback, ends in an error line, gives another
verdict than `wrong` (the graded answer was wrong), or describes the case with another
answer than the feedback's (the file's name in an error aside: graded as the submission's,
rerun as hooks.py) without saying why (a private case of a hook that keeps state is asked
in a copy without the course's private cases before it: the rerun says so, counted apart);
run again with the model answer's file, it must say `right`. The
hints are counted in the Markdown and the HTML feedback and in the kept results
(`ItemResult.reruns`), which must agree.
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import shlex
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests"))
sys.path.insert(0, str(ROOT))

from conftest import self_contained  # noqa: E402

from grader.reports.rerunhint import hint_text  # noqa: E402

HOOK_SEED = 4711
CLASS = (
    "correct",
    "lazy_fc",
    "off_by_one_bounds",
    "reversed_values",
    "small_inputs_mrv",
    "lazy_upper",
    "advice_crashing_bounds",
    "bounds_skip_decided",
    "flips_values",
    "guesses",
    "constant_answers",
    "skips_mine_count",
    "returns_some_variables",
    "mutates_domains",
    "rerun_stateful_select",
    "claims_none",
    "wrong_types",
)
HINT = re.compile(r"rerun just this (?:case|call)(?:, in your copy too)?: (python -m grader .*)$", re.M)
SAID = ("returned:", "expected:", "your hook:", "first difference:")
WHERE = re.compile(r"\([^()]*\.py, line ")  # an error's file name: the submission's when graded, hooks.py in the copy


def said(text: str, wrapped: bool = False) -> list[str]:
    """What a case's description says the hook did and what was expected, line by line
    (an error's file name aside; `wrapped`: the Markdown's, whose lines wrapped at 100
    columns go on unindented, joined again)."""
    joined = re.sub(r"\n(?!  )", " ", text) if wrapped else text
    lines = [" ".join(line.split()) for line in joined.splitlines() if line.strip().startswith(SAID)]
    return [WHERE.sub("(FILE, line ", line) for line in lines]


def run(words: list[str], cwd: Path, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(words, cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def class_run(where: Path, jobs: int) -> tuple[Path, Path]:
    """The private course, graded for the class; (the problems folder, the CSV)."""
    problems = where / "problems"
    problems.mkdir()
    shutil.copyfile(ROOT / "problems" / "course.yaml", problems / "course.yaml")
    (problems / "grading.yaml").write_text(f"hook_seed: {HOOK_SEED}\ntimeout: 10\n", encoding="utf-8")
    folder = where / "submissions"
    folder.mkdir()
    for name in CLASS:
        (folder / f"{name}.py").write_text(self_contained(name), encoding="utf-8")
    csv = where / "out" / "grades.csv"
    graded = run([sys.executable, "-m", "grader", str(problems), "--submissions", str(folder), "--csv", str(csv), "--jobs", str(jobs)], where)
    if not csv.is_file():
        sys.exit(f"the class run failed:\n{graded.stdout}\n{graded.stderr}")
    return problems, csv


#: The line a private case's rerun adds when the copy's answer is not the graded one, saying why.
EXPLAINED = "when graded, your hook"


def check_hint(copy: Path, env: dict[str, str], name: str, command: str, feedback: str) -> tuple[list[str], int]:
    """Why the hint `command` of `name`'s feedback does not rerun its case as graded (none:
    it does), and whether the rerun answered otherwise and said why (1: a hook that keeps
    state, whose private case came after other private cases a copy cannot ask)."""
    words = shlex.split(command)
    if words[:3] != ["python", "-m", "grader"]:
        return [f"{name}: not a grader command: {command[:80]}"], 0
    before = feedback.split(command, 1)[0].rsplit("the first wrong", 1)[1]
    failures, explained = [], 0
    for solver, verdict in ((self_contained(name), "wrong"), (self_contained("correct"), "right")):
        (copy / "assignment" / "hooks.py").write_text(solver, encoding="utf-8")
        result = run([sys.executable, *words[1:]], copy, env)
        out = result.stdout + result.stderr
        last = result.stdout.split()[-1] if result.stdout.split() else ""
        case = words[-1][:60]
        if "Traceback" in out or "error:" in result.stderr or last not in ("right", "wrong"):
            failures.append(f"{name} {case}: no verdict: {out[-300:]}")
        elif verdict == "wrong" and (last, said(result.stdout)) != (verdict, said(before, wrapped=True)):
            if EXPLAINED in result.stdout and "--case=" in command:
                explained += 1
            else:
                failures.append(f"{name} {case}: another answer or verdict ({last}): {said(result.stdout)} against {said(before, True)}")
        elif verdict == "right" and last != verdict:
            failures.append(f"{name} {case}: the model answer's file is told {last}")
    return failures, explained


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--keep", type=Path, help="keep the class run and the copy in this folder")
    args = parser.parse_args()
    where = Path(tempfile.mkdtemp()) if args.keep is None else args.keep
    where.mkdir(parents=True, exist_ok=True)
    problems, csv = class_run(where, args.jobs)
    copy = where / "copy"
    released = run([sys.executable, "-m", "grader", "release", str(copy), "--problems", str(problems)], ROOT)
    if released.returncode != 0:
        sys.exit(f"release failed: {released.stdout}{released.stderr}")
    env = {key: value for key, value in os.environ.items() if key != "PYTHONPATH"} | {"PYTHONPATH": str(copy), "COLUMNS": "5000"}
    feedback = csv.with_name(f"{csv.stem}-feedback")
    kept = csv.with_name(f"{csv.stem}-results")
    counts = {"markdown": 0, "html": 0, "kept": 0}
    failures: list[str] = []
    explained = 0
    for name in CLASS:
        text = (feedback / f"{name}.md").read_text(encoding="utf-8")
        page = html.unescape((feedback / f"{name}.html").read_text(encoding="utf-8"))
        report = json.loads((kept / f"{name}.json").read_text(encoding="utf-8"))["report"]
        commands = HINT.findall(text)
        typed = [hint_text(argv) for item in report["items"] for argv in item.get("reruns", [])]
        counts["markdown"] += len(commands)
        counts["html"] += sum(page.count(hint) for hint in typed)
        counts["kept"] += len(typed)
        if sorted(commands) != sorted(typed):
            failures.append(f"{name}: the Markdown's hints are not the kept ones: {commands} against {typed}")
        for command in commands:
            failed, said_why = check_hint(copy, env, name, command, text)
            failures += failed
            explained += said_why
    print(f"class of {len(CLASS)} (hook_seed {HOOK_SEED}): hints in Markdown {counts['markdown']}, in HTML {counts['html']}, kept {counts['kept']}")
    print(f"rerun as printed in a student copy (each with the student's file, then the model answer's): failures: {len(failures)}")
    print(f"  hints whose rerun answered otherwise than graded and said why (state kept from private cases a copy cannot ask): {explained}")
    for failure in failures:
        print("  " + failure)
    if args.keep is None:
        shutil.rmtree(where, ignore_errors=True)
    sys.exit(1 if failures else 0)


if __name__ == "__main__":
    main()
