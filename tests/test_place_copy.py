"""The student copy grades the public part as the course does: it checks the hooks' calls in
the grader's searches with the model answer's answers along its own searches of the public
boards (stored by the release), and states in its report the points of any check it could
not run (never counted as passed). One copy is released for the module; each student file
is graded in it and by the kit's grader on the copy's own problem folder and config."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from conftest import COURSE, ROOT, STUDENT_FILES, compile_packages, grader_env, json_report, no_traceback, run_grader, student_copy

from grader.hooktable import BY_NAME
from grader.inputs.searchanswers import SHOWN
from grader.scoring.storedanswers import AnswerTable
from solvers.board import Board

#: Put first on the copy's PYTHONPATH: the full kit's editable install is forgotten, so the
#: copy sees only what a student has.
ONLY_THE_COPY = STUDENT_FILES / "only_this_copy"
UNCHECKED = "Checked only by the course's grader"


@pytest.fixture(scope="module")
def released(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A student copy released from this kit for problems/course.yaml (the default config)."""
    work = tmp_path_factory.mktemp("place-copy")
    (work / "problems").mkdir()
    shutil.copyfile(COURSE, work / "problems" / COURSE.name)
    made = run_grader("release", work / "copy", "--problems", work / "problems", timeout=300)
    assert made.returncode == 0, made.stdout + made.stderr
    return compile_packages(work / "copy")


def in_copy(copy: Path, *args: str | Path) -> subprocess.CompletedProcess[str]:
    """`python -m grader ARGS` in the student copy, as its student runs it."""
    run = subprocess.run(
        [sys.executable, "-m", "grader", *map(str, args)], cwd=copy, env=grader_env(ONLY_THE_COPY, copy), capture_output=True, text=True, timeout=300
    )
    no_traceback(run)
    return run


def copy_grade(copy: Path, solver: Path, report: Path) -> tuple[subprocess.CompletedProcess[str], dict]:
    """The student's grade in the copy: its run and JSON report."""
    run = in_copy(copy, "problems/", "--solver", solver, "--json", report)
    return run, json_report(report, run)


def course_grade(copy: Path, solver: Path, report: Path) -> dict:
    """The course's grade (this kit, the answer key at hand) on the copy's problems and config."""
    run = run_grader(copy / "problems", "--solver", solver, "--json", report)
    no_traceback(run)
    return json_report(report, run)


def stated(report: dict, kind: str) -> float:
    """The points the copy states as checked only by the course's grader: not in its total
    ("unchecked") or in it, counted as right ("unverified")."""
    return float((report.get(kind) or {}).get("points", 0.0))


@pytest.mark.parametrize("student", ["correct", "copy_ties_in_searches", "small_inputs_mrv"])
def test_the_copys_total_is_the_courses_or_states_the_points_it_could_not_check(released: Path, tmp_path: Path, student: str) -> None:
    """A correct file, a select_variable wrong only in the searches (late ties) and one whose
    searches part from the model answer at the root: the copy's total, and each hook's
    points, are the course's, or differ by no more than the points its report states as
    checked only by the course's grader (which it then prints, and no "Full marks"); the
    first wrong call is found in both, the same; and the copy says that its hook cases are
    the public ones, with the points that rest on them."""
    solver = student_copy(tmp_path / "student", student)
    run, mine = copy_grade(released, solver, tmp_path / "copy.json")
    theirs = course_grade(released, solver, tmp_path / "course.json")
    low, high = mine["score"] - stated(mine, "unverified"), mine["score"] + stated(mine, "unchecked")
    assert low - 1e-9 <= theirs["score"] <= high + 1e-9, (mine["score"], theirs["score"])
    hooks = {item["id"]: item for item in mine["hooks"]}
    course_hooks = {item["id"]: item for item in theirs["hooks"]}
    for name, item in course_hooks.items():
        copy = hooks[name]
        assert copy["score"] - copy.get("unverified", 0) - 1e-9 <= item["score"] <= copy["score"] + copy.get("unchecked", 0) + 1e-9
    if high > low:
        assert UNCHECKED in run.stdout and "Full marks" not in run.stdout
    cased = sum(item["max_score"] for item in theirs["hooks"] if BY_NAME[item["id"]].part == "csp")
    assert stated(mine, "public_cases") == cased > 0 and "public_cases" not in theirs  # the course's cases are its own
    assert "Hook cases here:" in run.stdout
    wrong = [name for name, item in course_hooks.items() if "the first wrong call in a search" in item["message"]]
    for name in wrong:  # the first wrong call is on the model answer's path: the copy finds it, the same
        first = course_hooks[name]["message"].split("the first wrong call in a search is ", 1)[1]
        assert first.split("\n  rerun")[0] in hooks[name]["message"], name
    if student == "correct":
        assert mine["score"] == theirs["score"] == mine["max_score"] and "Full marks." in run.stdout
        assert high == low
    else:  # the other hooks are the model answer's: their calls after the first wrong one are counted as right
        assert wrong == ["select_variable"] and mine["score"] == theirs["score"] and stated(mine, "unverified") > 0


@pytest.mark.parametrize("damage", ["removed", "edited", "garbled"])
def test_missing_or_damaged_answers_are_checks_not_run_never_passed(released: Path, tmp_path: Path, damage: str) -> None:
    """With the stored answers removed, edited (one answer changed) or garbled, the copy says
    so in one line naming the file, counts no board of the searches as right, states those
    points as checked only by the course's grader, and never says "Full marks"."""
    copy = tmp_path / "copy"
    shutil.copytree(released, copy)
    stored = copy / SHOWN
    if damage == "removed":
        stored.unlink()
    elif damage == "edited":
        data = json.loads(stored.read_text(encoding="utf-8"))
        key = next(k for k, v in data["answers"].items() if isinstance(v, int))  # a select_variable answer
        data["answers"][key] += 1
        stored.write_text(json.dumps(data), encoding="utf-8")
    else:
        stored.write_bytes(b"\x00{not json")
    run, mine = copy_grade(copy, student_copy(tmp_path / "student", "correct"), tmp_path / "copy.json")
    said = [line for line in run.stdout.splitlines() if SHOWN in line and "Not checked here" in line]
    assert len(said) == 1 and SHOWN in mine["unchecked"]["why"], run.stdout
    assert mine["score"] + stated(mine, "unchecked") == mine["max_score"] and stated(mine, "unchecked") > 0
    assert "Full marks" not in run.stdout and run.returncode == 1
    search_hooks = [item for item in mine["hooks"] if "in the grader's searches" in item["message"]]
    assert search_hooks and all("0/3 visible boards right, 3 not checked here" in item["message"] for item in search_hooks)


def test_a_search_call_reruns_in_the_copy(released: Path, tmp_path: Path) -> None:
    """`--case select_variable@nctu-1:1` (the handout's example) shows the call with the model
    answer's answer in the copy; a call the copy cannot know (after the search has left the
    model answer's path) says so in one line, naming the first wrong call."""
    solver = student_copy(tmp_path / "student", "small_inputs_mrv")
    shown = in_copy(released, "problems/course.yaml", "--solver", solver, "--case", "select_variable@nctu-1:1")
    assert shown.returncode == 1 and "expected: 7" in shown.stdout and shown.stdout.rstrip().endswith("wrong")
    right = in_copy(released, "problems/course.yaml", "--solver", student_copy(tmp_path / "right", "correct"), "--case", "select_variable@nctu-1:1")
    assert right.returncode == 0 and right.stdout.rstrip().endswith("right")
    probe = in_copy(released, "problems/course.yaml", "--solver", solver, "--case", "constraint_bounds@nctu-2:3")
    assert probe.returncode == 0 and "call 3 of constraint_bounds" in probe.stdout
    after = in_copy(released, "problems/course.yaml", "--solver", solver, "--case", "forward_check@nctu-1:5")
    lines = [line for line in after.stdout.splitlines() if line.strip()]
    assert after.returncode == 2 and len(lines) == 1 and "left the model answer's path" in lines[0], after.stdout
    assert "select_variable chose variable 0" in lines[0] and "answer key" not in lines[0]


def test_the_stored_answers_are_the_public_boards_alone_small_and_the_same_every_release(tmp_path: Path) -> None:
    """A release beside a problem file with hidden boards stores exactly the answers of the
    public boards' searches (none of a hidden board: not even its first call), under 16 kB
    for course.yaml and the hidden set's public boards, byte for byte what the answer key
    gives again."""
    from answerkey.instructor.pathanswers import path_answers
    from grader.inputs.problemset import load_problem_file
    from grader.inputs.searchanswers import call_key, write_search_answers
    from grader.scoring.storedanswers import call_arguments
    from solvers.csp import build_csp

    problems = tmp_path / "problems"
    problems.mkdir()
    shutil.copyfile(COURSE, problems / COURSE.name)
    shutil.copyfile(STUDENT_FILES / "hidden_set" / "hidden.yaml", problems / "hidden.yaml")
    assert run_grader("release", tmp_path / "copy", "--problems", problems, timeout=300).returncode == 0
    shipped = (tmp_path / "copy" / SHOWN).read_bytes()
    boards = [p for path in (problems / COURSE.name, problems / "hidden.yaml") for p in load_problem_file(path)[0]]
    hidden = [p.board for p in boards if p.hidden]
    assert hidden and len(shipped) < 16_000
    again = tmp_path / "again.json"
    write_search_answers(again, path_answers([p.board for p in boards if not p.hidden]))
    assert again.read_bytes() == shipped
    answers = json.loads(shipped)["answers"]

    def root_call(board: Board) -> str:  # the first call of a board's search: forward checking at the root
        domains = build_csp(board).initial_domains()
        return call_key("forward_check", board, call_arguments("forward_check", domains, None))

    assert all(root_call(p.board) in answers for p in boards if not p.hidden)
    assert not any(root_call(board) in answers for board in hidden)


@pytest.fixture(scope="module")
def public_boards() -> list[Board]:
    """Every public board of problems/."""
    from grader.inputs.problemset import load_problem_file, problem_files

    return [p.board for path in problem_files(ROOT / "problems") for p in load_problem_file(path)[0] if not p.hidden]


@pytest.fixture(scope="module")
def public_table(public_boards: list[Board]) -> AnswerTable:
    """The stored answers of every public board of problems/, as a release writes them."""
    from answerkey.instructor.pathanswers import path_answers

    return AnswerTable(path_answers(public_boards))


@pytest.mark.slow
@pytest.mark.parametrize("student", ["copy_ties_in_searches", "small_inputs_mrv", "reversed_values", "lazy_fc"])
def test_on_every_public_board_the_stored_answers_check_what_the_model_answer_checks(
    public_boards: list[Board], public_table: AnswerTable, student: str
) -> None:
    """In-process, on all public boards of problems/: a search watched with the stored
    answers finds the same first wrong call as one watched with the model answer, counts
    no call wrong that the model answer counts right, and leaves unchecked only calls after
    that first wrong call (a board without one is checked call for call alike)."""
    import importlib
    import sys as system

    from grader.scoring.grading import model_answer
    from grader.scoring.searchcheck import Watcher
    from solvers.csp import build_csp
    from solvers.engine import Strategy, search

    system.path.insert(0, str(STUDENT_FILES))
    try:
        hooks = importlib.import_module(student)
    finally:
        system.path.remove(str(STUDENT_FILES))
    model = model_answer()
    for board in public_boards:
        watched = []
        for answers in (model, public_table):
            watcher = Watcher(Strategy(student, hooks.select_variable, hooks.order_values, forward_check=hooks.forward_check), answers, board)
            search(build_csp(board), watcher.strategy(), "all")
            watched.append(watcher)
        course, copy = watched
        assert copy.first == course.first
        for hook, calls in copy.calls.items():
            theirs = course.calls[hook]
            assert calls.calls == theirs.calls and calls.wrong <= theirs.wrong <= calls.wrong + calls.unchecked
            assert calls.unchecked == 0 or copy.first is not None
            if copy.first is not None and hook == copy.first.hook:  # the first wrong call of the search, found alike
                assert calls.first_wrong == theirs.first_wrong is not None
            if copy.first is None:
                assert (calls.wrong, calls.trivial) == (theirs.wrong, theirs.trivial)
