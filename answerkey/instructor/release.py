"""`python -m grader release OUT_DIR`: the copy of the kit students get.

It is the kit without its answer key: every package but `answerkey` (the reference
hooks and agent, the SAT encodings, the instructor's tools), the public problems only,
each with its `expect`, the public hook cases with their expected outputs, the model
answer's node count on each public board and its answers along its searches of them
(all computed here from the reference, so that nothing needs the answer key at grading
time), a README for students, the license, and `constraints.txt` (the pinned versions
its README installs with).
Hidden problems stay behind.

The public hook cases are for practice: the instructor's grading.yaml is first given the
private seeds it lacks (answerkey/instructor/seeds.py), so that the graded cases and games are
none a student has seen. The copy gets that grading.yaml's public part (points, limits,
the efficiency and agent rules) without its seeds, so that `python -m grader problems/`
there grades out of the same points, by the same rules, as the course's autograder.
"""

from __future__ import annotations

import shutil
from dataclasses import dataclass, replace
from pathlib import Path

import yaml

from grader.inputs.config import load_config
from grader.inputs.problemset import CONFIG_FILE, Problem, load_problem_file, problem_files, problem_set_yaml
from grader.inputs.searchanswers import ANSWERS_FILE, write_search_answers
from grader.inputs.submission import solved_hooks
from grader.inputs.yamlfile import read_yaml
from grader.scoring.hookcases import CASES_FILE, write_cases
from grader.scoring.modelnodes import NODES_FILE, board_key, write_model_nodes
from grader.scoring.problems import expected_count, reference_nodes

from .kit import student_packages
from .pathanswers import path_answers
from .seeds import HOOK_SEED, SeedError, write_seeds

STUDENT_README = """# Minesweeper CSP assignment

Set up (Python 3.11), then grade your hooks:

```bash
python3 -m venv .venv && . .venv/bin/activate && pip install -e . -c constraints.txt && python -m grader problems/
```

(`constraints.txt` pins every package to the version the course grades with.) Your hooks
may import only Python's standard library, your own files and the kit modules the
handout lists (`assignment/HANDOUT.md`, section 5).

Read `assignment/HANDOUT.md`, implement the hooks in `assignment/hooks.py`, and run
`python -m grader problems/` again: every lost point comes with a reason. It grades out
of the course's points{rules}, on the public
boards and hook cases; the course's autograder may add hidden boards, and draws its hook
cases and agent games from private seeds. The calls your search makes after its first
wrong one are checked only by the course's autograder: the report says so under the
total, with the points that rest on them.
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

Your course may grade more boards than these (hidden ones): they use the same rules.{rules}
"""

#: What each README says of `problems/grading.yaml`, when the copy has one (the course
#: set points or limits of its own): neither names a file the copy does not have.
RULES_NAMED = {
    "README.md": ", by the course's rules (`problems/grading.yaml`)",
    "problems/README.md": "\n`grading.yaml` holds the course's points and limits, as its autograder uses them.",
}


def student_readme(rules: bool) -> str:
    """The copy's README; `rules`: whether the copy has `problems/grading.yaml`."""
    return STUDENT_README.format(rules=RULES_NAMED["README.md"] if rules else "")


def student_problems_readme(rules: bool) -> str:
    """The copy's problems/README.md; `rules` as in `student_readme`."""
    return STUDENT_PROBLEMS_README.format(rules=RULES_NAMED["problems/README.md"] if rules else "")


PUBLIC_CONFIG_HEADER = """\
# The course's grading config, as its autograder uses it: the same points, time limits,
# efficiency and agent rules. The autograder's private seeds are not here, so the hook
# cases and agent games graded here are the public ones (written by `python -m grader release`).
"""


class ReleaseError(RuntimeError):
    """The release cannot be written (a bad problem file, an existing target...)."""


@dataclass(frozen=True)
class Release:
    """What a release wrote: how many public problems, and the private seeds it added to
    the grading config at `config`."""

    problems: int
    seeds: list[str]
    config: Path


def _public_file(path: Path, problems: list[Problem], target: Path) -> int:
    """Copy one problem file (its `problems`) without its hidden problems; how many it keeps."""
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


def public_config(config: Path, shipped: set[str]) -> str | None:
    """The text of the student copy's grading.yaml: the instructor's settings at `config`
    without the private seeds (`hook_seed`, `agent.seed`) and without the weights of
    problem files the copy does not ship (`shipped`: their names), whose names would tell
    of hidden sets. None when nothing is left to say (the defaults)."""
    if not config.exists():
        return None
    data, _ = read_yaml(config)  # checked by _check_sources: a mapping of known settings, or empty
    public = {key: value for key, value in (data or {}).items() if key != HOOK_SEED}
    if isinstance(public.get("agent"), dict):
        public["agent"] = {key: value for key, value in public["agent"].items() if key != "seed"}
    if isinstance(public.get("problem_sets"), dict):
        public["problem_sets"] = {name: points for name, points in public["problem_sets"].items() if str(name) in shipped}
    if not public:
        return None
    return PUBLIC_CONFIG_HEADER + yaml.safe_dump(public, sort_keys=False, default_flow_style=None)


def _model_nodes(problems: dict[Path, list[Problem]]) -> dict[str, int]:
    """The model answer's nodes on every public board, by `board_key`."""
    return {board_key(p.board): reference_nodes(p) for found in problems.values() for p in found if not p.hidden}


def _check_sources(source: Path, problems_dir: Path, allow_solutions: bool) -> dict[Path, list[Problem]]:
    """The problems of every file in `problems_dir`; ReleaseError when the assignment,
    a problem file or the grading config is not fit to publish from."""
    try:
        solved = solved_hooks(source / "assignment")
    except SyntaxError as error:
        raise ReleaseError(f"assignment/{error}") from None
    if solved and not allow_solutions:
        raise ReleaseError(
            f"assignment/ holds implemented hooks ({', '.join(solved)}): students would get them; restore the stubs, or pass --allow-solutions"
        )
    if not problems_dir.is_dir():
        raise ReleaseError(f"--problems {problems_dir}: not a folder")
    loaded = {path: load_problem_file(path) for path in problem_files(problems_dir)}
    errors = [error for _, found in loaded.values() for error in found]
    config = problems_dir / CONFIG_FILE
    errors += load_config(config if config.exists() else None)[1]
    if errors:
        raise ReleaseError(f"fix the problem files and grading config first: {errors[0]}")
    return {path: problems for path, (problems, _) in loaded.items()}


def write_release(source: Path, problems_dir: Path, out: Path, allow_solutions: bool = False) -> Release:
    """Write the student copy of the kit at `source` into `out`, after giving the grading
    config in `problems_dir` the private seeds it lacks.

    Refuses (unless `allow_solutions`) when assignment/ holds implemented hooks: they
    would go to every student.
    """
    if out.exists() and not out.is_dir():
        raise ReleaseError(f"{out} is a file; choose a new folder")
    if out.exists() and any(out.iterdir()):
        raise ReleaseError(f"{out} is not empty; choose a new folder")
    problems = _check_sources(source, problems_dir, allow_solutions)
    config = problems_dir / CONFIG_FILE
    try:
        seeds = write_seeds(config)
    except SeedError as error:
        raise ReleaseError(str(error)) from None
    for package in student_packages(source):
        shutil.copytree(source / package, out / package, ignore=shutil.ignore_patterns("__pycache__"))
    write_cases(out / CASES_FILE.resolve().relative_to(source.resolve()))  # from this reference, where the grader reads them
    write_model_nodes(out / NODES_FILE.resolve().relative_to(source.resolve()), _model_nodes(problems))
    public = [p.board for found in problems.values() for p in found if not p.hidden]
    write_search_answers(out / ANSWERS_FILE.resolve().relative_to(source.resolve()), path_answers(public))
    (out / "problems").mkdir()
    kept = sum(_public_file(path, found, out / "problems" / path.name) for path, found in problems.items())
    shipped = {path.name for path, found in problems.items() if any(not p.hidden for p in found)}
    settings = public_config(config, shipped)
    if settings is not None:
        (out / "problems" / CONFIG_FILE).write_text(settings, encoding="utf-8")
    (out / "problems" / "README.md").write_text(student_problems_readme(settings is not None), encoding="utf-8")
    shutil.copyfile(source / "pyproject.toml", out / "pyproject.toml")  # it finds the packages that are there
    shutil.copyfile(source / "LICENSE", out / "LICENSE")  # MIT: the notice goes with every copy
    shutil.copyfile(source / "constraints.txt", out / "constraints.txt")  # the versions the course grades with
    (out / "README.md").write_text(student_readme(settings is not None), encoding="utf-8")
    return Release(kept, seeds, config)
