"""`python -m grader release OUT_DIR`: the copy of the kit students get.

It is the kit without its answer key: every package but `answerkey` (the reference
hooks and agent, the SAT encodings, the instructor's tools), the public problems only,
each with its `expect`, the hook cases with their expected outputs (both computed here
from the reference, so that nothing needs the answer key at grading time), and a README
for students. Hidden problems and the grading config stay behind.
"""

from __future__ import annotations

import shutil
from dataclasses import replace
from pathlib import Path

from grader.inputs.problemset import CONFIG_FILE, Problem, load_problem_file, problem_files, problem_set_yaml
from grader.inputs.submission import solved_hooks
from grader.inputs.yamlfile import read_yaml
from grader.scoring.grading import expected_count
from grader.scoring.hookcases import CASES_FILE, write_cases

from .kit import student_packages

STUDENT_README = """# Minesweeper CSP assignment

Set up (Python 3.11), then grade your hooks:

```bash
python3 -m venv .venv && . .venv/bin/activate && pip install -e . && python -m grader problems/
```

Read `assignment/HANDOUT.md`, implement the hooks in `assignment/hooks.py`, and run
`python -m grader problems/` again: every lost point comes with a reason.
"""


STUDENT_PROBLEMS_README = """# The problems your hooks are graded on

Each `.yaml` file here is a set of boards. A board is written as rows of cells: `.` for a
cell that may hold a mine, a digit for a clue (how many of its neighbours are mines).
`mines:` gives the total number of mines when the board has one, and `expect:` how many
mine layouts fit the board: your search must find every one of them (or none, when
`expect` is 0).

    python -m grader problems/                          # every set
    python -m grader problems/course.yaml               # one set
    python -m grader problems/ --only nctu-2            # one board
    python -m grader problems/course.yaml --trace nctu-2 # your search on it, step by step

Your course may grade more boards than these (hidden ones): they use the same rules.
"""


class ReleaseError(RuntimeError):
    """The release cannot be written (a bad problem file, an existing target...)."""


def _public_file(path: Path, target: Path) -> int:
    """Copy one problem file without its hidden problems; how many problems it keeps."""
    problems, errors = load_problem_file(path)
    if errors:
        raise ReleaseError(f"fix the problem files first: {errors[0]}")
    public = [p for p in problems if not p.hidden]
    if not public:
        return 0
    if len(public) == len(problems) and all(p.expect is not None for p in problems):
        shutil.copyfile(path, target)
        return len(public)
    data, _ = read_yaml(path)  # already read once by load_problem_file: within bounds
    target.write_text(problem_set_yaml(str(data.get("title", path.stem)), [_with_expect(p) for p in public]), encoding="utf-8")
    return len(public)


def _with_expect(problem: Problem) -> Problem:
    return replace(problem, expect=expected_count(problem))


def write_release(source: Path, problems_dir: Path, out: Path, allow_solutions: bool = False) -> int:
    """Write the student copy of the kit at `source` into `out`; how many problems it holds.

    Refuses (unless `allow_solutions`) when assignment/ holds implemented hooks: they
    would go to every student.
    """
    if out.exists() and any(out.iterdir()):
        raise ReleaseError(f"{out} is not empty; choose a new folder")
    try:
        solved = solved_hooks(source / "assignment")
    except SyntaxError as error:
        raise ReleaseError(f"assignment/{error}") from None
    if solved and not allow_solutions:
        raise ReleaseError(f"assignment/ holds implemented hooks ({', '.join(solved)}): students would get them; "
                           "restore the stubs, or pass --allow-solutions")
    for package in student_packages(source):
        shutil.copytree(source / package, out / package, ignore=shutil.ignore_patterns("__pycache__"))
    write_cases(out / "grader" / CASES_FILE.name)  # the hook cases' expected outputs, from this reference
    (out / "problems").mkdir()
    kept = 0
    for path in problem_files(problems_dir):
        if path.name != CONFIG_FILE:
            kept += _public_file(path, out / "problems" / path.name)
    (out / "problems" / "README.md").write_text(STUDENT_PROBLEMS_README, encoding="utf-8")
    shutil.copyfile(source / "pyproject.toml", out / "pyproject.toml")  # it finds the packages that are there
    (out / "README.md").write_text(STUDENT_README, encoding="utf-8")
    return kept
