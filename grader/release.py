"""`python -m grader release OUT_DIR`: the copy of the kit students get.

It holds the hook stubs and the handout, the public problems only (every one with its
`expect`, so no reference is needed to grade), the grader, and the part of the solver
library the grader needs. It leaves out the reference answers (solvers/strategies.py, the
subset encoding, the reference agent), the instructor's tools, hidden problems and the
grading config.
"""

from __future__ import annotations

import ast
import shutil
from pathlib import Path

from solvers.problemfile import Entry, problem_set_yaml

from .grading import expected_count
from .problemset import CONFIG_FILE, Problem, load_problem_file, problem_files
from .submission import AGENT_NAME, HOOK_NAMES
from .yamlfile import read_yaml

#: The game modules a student copy needs: the game in the terminal, its bench and the
#: grader's agent item, with the student's agent (not the reference agent).
STUDENT_PLAY = ("__init__.py", "__main__.py", "cli.py", "app.py", "advisor.py", "levels.py", "view.py", "game.py",
                "evaluate.py")
#: The library modules a student copy needs to run the grader.
STUDENT_SOLVERS = ("__init__.py", "cliargs.py", "board.py", "csp.py", "engine.py", "textformat.py", "problemfile.py", "trace.py",
                   "trace_view.py", "glucose.py")
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


def _is_stub(function: ast.FunctionDef) -> bool:
    """True when the function only raises NotImplementedError (after its docstring)."""
    body = function.body[1:] if function.body and isinstance(function.body[0], ast.Expr) \
        and isinstance(function.body[0].value, ast.Constant) else function.body
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def solved_hooks(folder: Path, pattern: str = "*.py") -> list[str]:
    """"file: name" for every hook or agent function in `folder` (its files matching
    `pattern`) that is not a stub."""
    found = []
    for path in sorted(folder.glob(pattern)):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError as error:
            raise ReleaseError(f"assignment/{path.name} is not valid Python (line {error.lineno})") from None
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in (*HOOK_NAMES, AGENT_NAME) and not _is_stub(node):
                found.append(f"{path.name}: {node.name}")
    return found


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
    target.write_text(problem_set_yaml(str(data.get("title", path.stem)), [_entry(p) for p in public]), encoding="utf-8")
    return len(public)


def _entry(problem: Problem) -> Entry:
    return Entry(problem.id, problem.board, expected_count(problem), points=problem.points, timeout=problem.timeout)


def write_release(source: Path, problems_dir: Path, out: Path, allow_solutions: bool = False) -> int:
    """Write the student copy of the kit at `source` into `out`; how many problems it holds.

    Refuses (unless `allow_solutions`) when assignment/ holds implemented hooks: they
    would go to every student.
    """
    if out.exists() and any(out.iterdir()):
        raise ReleaseError(f"{out} is not empty; choose a new folder")
    solved = solved_hooks(source / "assignment")
    if solved and not allow_solutions:
        raise ReleaseError(f"assignment/ holds implemented hooks ({', '.join(solved)}): students would get them; "
                           "restore the stubs, or pass --allow-solutions")
    (out / "solvers").mkdir(parents=True)
    for name in STUDENT_SOLVERS:
        shutil.copyfile(source / "solvers" / name, out / "solvers" / name)
    (out / "play").mkdir()
    for name in STUDENT_PLAY:
        shutil.copyfile(source / "play" / name, out / "play" / name)
    shutil.copytree(source / "grader", out / "grader", ignore=shutil.ignore_patterns("__pycache__"))
    shutil.copytree(source / "assignment", out / "assignment", ignore=shutil.ignore_patterns("__pycache__"))
    (out / "problems").mkdir()
    kept = 0
    for path in problem_files(problems_dir):
        if path.name != CONFIG_FILE:
            kept += _public_file(path, out / "problems" / path.name)
    (out / "problems" / "README.md").write_text(STUDENT_PROBLEMS_README, encoding="utf-8")
    pyproject = (source / "pyproject.toml").read_text(encoding="utf-8")
    pyproject = pyproject.replace('"solvers.commands", ', "")
    (out / "pyproject.toml").write_text(pyproject, encoding="utf-8")
    (out / "README.md").write_text(STUDENT_README, encoding="utf-8")
    return kept
