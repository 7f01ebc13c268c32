"""Small things on the way to one grade everywhere: reasons cut between words, items not
run counted apart from those that ran out of time, a class's CSV folder made when
missing, feedback and Gradescope output that name the student's file and no path of the
grader's machine, the handout's grading rules and worked example as the code applies
them, and bench/places.py's command line."""

from __future__ import annotations

import csv
import html
import importlib.util
import re
import shutil
import sys
from pathlib import Path

import pytest
from conftest import COURSE, ROOT, STUDENT_FILES, grade_json, lone, no_traceback, run_grader, self_contained

from grader.commands.batch import BatchRow, lost_points
from grader.inputs.problemset import load_problems
from grader.reports.advice import MORE, next_step, shortened
from grader.reports.gradescope import gradescope_results
from grader.reports.report import away_from_grader
from grader.reports.results import MESSAGE_LIMIT, ItemResult, Report
from grader.sandbox.tasks import HUNG_AFTER
from grader.scoring.grading import model_answer
from grader.scoring.probes import board_probes
from grader.scoring.problems import NOTHING_FOUND, no_credit_for_answering_nothing
from solvers.board import board_from_rows
from solvers.csp import build_csp

HANDOUT = ROOT / "assignment" / "HANDOUT.md"
LONG_REASON = (
    "1/12 groups of cases right (9/20 cases); in the grader's searches, 0/3 visible boards right (3 of its "
    "3 calls on them answered otherwise than the rule); 0/3 groups of boards right"
)


def words(text: str) -> str:
    """`text` with every run of white space one space (a console wraps its lines)."""
    return " ".join(text.split())


def grading_section() -> str:
    """Section 5 of the handout, "How grading works", its lines joined."""
    text = HANDOUT.read_text(encoding="utf-8")
    return words(text[text.index("## 5. How grading works") : text.index("## 6. ")])


def failed(name: str, message: str, status: str = "fail", kind: str = "hook", file: str | None = None) -> ItemResult:
    return ItemResult(kind, name, status, 0.0, 1.0, message, file=file)


def cut_between_words(shown: str, full: str) -> bool:
    """`shown` is `full`, or a beginning of it ending where a word does, with the ellipsis."""
    if shown == full:
        return True
    kept = shown.removesuffix(MORE)
    return shown.endswith(MORE) and full.startswith(kept) and full[len(kept)] in " ;,.:"


# --- (a) reasons cut short between words, never inside one -----------------------------------


def test_a_long_reason_is_cut_between_words_in_the_csv_and_on_gradescope() -> None:
    """The class CSV's short reasons and Gradescope's summary lines end where a clause or
    a word does, with an ellipsis; the whole reason stays in the test's own output."""
    report = Report("/home/instructor/class/alice/hooks.py", [failed("forward_check", LONG_REASON)])
    cell = lost_points(BatchRow("alice", report))
    assert cell.startswith("hooks/forward_check: "), cell
    assert cut_between_words(cell.removeprefix("hooks/forward_check: "), LONG_REASON), cell
    results = gradescope_results(report, [])
    line = next(line for line in results["output"].splitlines() if line.startswith("  hooks/forward_check: "))
    assert cut_between_words(line.removeprefix("  hooks/forward_check: "), LONG_REASON), line
    assert html.unescape(re.sub(r"<[^>]+>", "", results["tests"][0]["output"])) == LONG_REASON


@pytest.mark.parametrize(
    "line",
    [
        "x" * 300,  # one long word: cut hard, still bounded
        "a (" + "b " * 200 + ")",  # a parenthesis never closed within the limit
        "ok; " + "word " * 60,  # a clause early, words after it
        "short enough",
    ],
)
def test_a_cut_reason_is_never_longer_than_its_limit(line: str) -> None:
    """Whatever the reason (a student's message can be anything), the cut one fits."""
    for limit in (20, 80, 200):
        shown = shortened(line, limit)
        assert len(shown) <= limit and (shown == line or shown.endswith(MORE)), (limit, shown)


# --- (b) items not run are counted apart from the items that ran out of time ------------------


def test_the_next_step_counts_the_items_not_run_apart() -> None:
    """Two boards ran out of time and a third was not run after them: the next step says
    so, not that three ran out of time."""
    items = [
        failed("nctu-1", "ran out of time (1 s)", "timeout", "problem", "course.yaml"),
        failed("nctu-2", "ran out of time (1 s)", "timeout", "problem", "course.yaml"),
        failed("nctu-3", "not run: forward_check ran out of time on ...", "not_run", "problem", "course.yaml"),
    ]
    step = next_step(Report("hooks.py", items))
    assert step is not None and "2 items ran out of time and 1 more was not run" in step.text, step


# --- (c), (d) and (b) in a class run ----------------------------------------------------------


def test_a_class_run_makes_its_folders_and_its_feedback_names_no_path_of_the_graders(tmp_path: Path) -> None:
    """`--csv` into folders that do not exist makes them (the feedback folder beside the
    CSV too); each feedback file names the student's file by its name and each problem
    file as the student copy holds it, never a path of the grader's machine, nor a
    command only the instructor's kit has (`--against reference`); and a file
    whose hook runs out of time on the first boards of a file shows the boards not run
    apart from those that ran out of time."""
    problems = tmp_path / "instructor" / "problems"
    problems.mkdir(parents=True)
    shutil.copyfile(COURSE, problems / "course.yaml")
    folder = tmp_path / "submissions"
    (folder / "alice").mkdir(parents=True)
    (folder / "alice" / "hooks.py").write_text(self_contained("off_by_one_bounds"), encoding="utf-8")
    (folder / "bob.py").write_text(self_contained("small_spins_on_boards"), encoding="utf-8")
    grades = tmp_path / "term" / "week 9" / "grades.csv"
    result = run_grader(problems, "--submissions", folder, "--csv", grades, "--jobs", "2", "--timeout", "1")
    no_traceback(result)
    assert result.returncode == 0, result.stdout + result.stderr
    with grades.open(newline="", encoding="utf-8") as handle:
        assert sorted(row["student"] for row in csv.DictReader(handle)) == ["alice", "bob"]
    feedback = grades.with_name("grades-feedback")
    texts = {path.name: path.read_text(encoding="utf-8") for path in feedback.iterdir()}
    assert set(texts) == {"alice.md", "alice.html", "bob.md", "bob.html"}
    for name, text in texts.items():
        for path in (str(tmp_path), str(ROOT)):
            assert path not in text, (name, path)
    alice = words(texts["alice.md"])
    assert "Grading with solver: hooks.py " in alice
    assert "python -m grader problems/course.yaml --trace" in alice  # the lost boards' trace, as the copy runs it
    assert "--against reference" not in alice  # which only the instructor's kit can show
    bob = words(texts["bob.md"])
    boards = len(load_problems(COURSE)[0])
    assert bob.count("⏱ timeout") == HUNG_AFTER + 1 and bob.count("⏭ not run") == boards - HUNG_AFTER + 1, bob  # + the reasons
    later = boards - HUNG_AFTER
    assert f"{HUNG_AFTER} items ran out of time and {later} more {'was' if later == 1 else 'were'} not run" in bob, bob


def test_a_csv_folder_that_cannot_be_made_is_one_line(tmp_path: Path) -> None:
    """A file where the CSV's folder should be: one line naming --csv and why, no traceback."""
    folder = tmp_path / "submissions"
    folder.mkdir()
    (folder / "ana.py").write_text("x = 1\n", encoding="utf-8")
    (tmp_path / "taken").write_text("a file, not a folder\n", encoding="utf-8")
    result = run_grader(COURSE, "--submissions", folder, "--csv", tmp_path / "taken" / "out" / "grades.csv")
    no_traceback(result)
    said = [line for line in (result.stdout + result.stderr).splitlines() if line.startswith("error:")]
    assert result.returncode == 2 and len(said) == 1 and "--csv" in said[0] and "cannot make the folder" in said[0], said


# --- (d) Gradescope's text and the feedback's report ------------------------------------------


def test_gradescope_output_names_the_students_file_not_the_path_it_was_graded_at() -> None:
    """results.json's text says which file was graded by its name alone."""
    where = "/autograder/some/instructor/place"
    report = Report(f"{where}/hooks.py", [failed("nctu-1", "claims there is no solution", kind="problem", file=f"{where}/problems/course.yaml")])
    results = gradescope_results(report, [])
    assert "for hooks.py" in results["output"].splitlines()[0], results["output"]
    assert where not in str(results)


def test_the_report_away_from_the_grader_keeps_every_reason_as_it_was() -> None:
    """Only the paths change: the student's file by its name, problem files under
    problems/; a reason already cut to its limit is not cut a second time."""
    long = failed("forward_check", "y" * (MESSAGE_LIMIT + 50))
    board = failed("nctu-1", "wrong", kind="problem", file="/srv/course/week9/course.yaml")
    moved = away_from_grader(Report("/srv/course/subs/alice/hooks.py", [long, board]))
    assert moved.solver == "hooks.py" and moved.items[1].file == "problems/course.yaml"
    assert moved.items[0].message == long.message and board.file == "/srv/course/week9/course.yaml"


# --- (e) the handout states the rules as the code applies them --------------------------------


def test_the_handouts_partial_board_share_is_what_the_grader_computes(tmp_path: Path) -> None:
    """The worked example's numbers come from grading its student on every shipped problem."""
    _, report = grade_json(ROOT / "problems", lone("small_inputs_mrv"), tmp_path / "mrv.json")
    hook = next(h for h in report["hooks"] if h["id"] == "select_variable")
    cases, total_cases = re.search(r"(\d+)/(\d+) groups of cases right", hook["message"]).groups()
    right, asked = re.search(r"(\d+)/(\d+) visible boards right", hook["message"]).groups()
    groups_right, groups = re.search(r"(\d+)/(\d+) groups of boards right", hook["message"]).groups()
    points, score = hook["max_score"], hook["score"]
    assert 0 < int(groups_right) < int(groups) and cases == total_cases  # the board share is partial and the smaller
    assert round(points * min(int(cases) / int(total_cases), int(groups_right) / int(groups)), 2) == score
    shown = grading_section()
    for claim in (
        f"gets {cases}/{total_cases} groups of cases right",
        f"it is asked on {asked} boards (on the other {len(report['problems']) - int(asked)} the forward check",
        f"right on every call of {right} of them",
        f"The {asked} boards make {groups} groups",
        f"So {groups_right}/{groups} groups of boards are right",
        f"{points:g} × min({cases}/{total_cases}, {groups_right}/{groups}) = {score:g} of {points:g} points",
        f'"{right}/{asked} visible boards right (...); {groups_right}/{groups} groups of boards right"',
    ):
        assert claim in shown, claim
    ids = {p["id"] for p in report["problems"]}
    assert {"sat-row", "sat-3x3", "status-3x3", "sat-3x3-unsat", "status-5x5"} <= ids  # the boards it names


def test_the_handout_states_the_no_solution_rule_as_applied() -> None:
    """A board without a solution passes by answering none only beside a passed board that
    has solutions (a hidden one counts); the handout quotes the reason a student reads."""

    def board(name: str, hidden: bool = False) -> ItemResult:
        return ItemResult("problem", name, "pass", 1.0, 1.0, "ok", visibility="hidden" if hidden else "visible")

    alone = no_credit_for_answering_nothing([board("none"), failed("some", "claims there is no solution")], [0, 3])
    assert (alone[0].status, alone[0].score, alone[0].message) == ("fail", 0.0, NOTHING_FOUND)
    beside = no_credit_for_answering_nothing([board("none"), board("secret", hidden=True)], [0, 3])
    assert beside[0].status == "pass"
    shown = grading_section()
    assert NOTHING_FOUND in shown and "hidden ones included" in shown


def test_the_handout_says_the_last_constraint_of_a_board_without_a_mine_count_is_a_hint() -> None:
    """constraint_bounds is first asked about the last constraint; without a mine count
    that is a clue's constraint, as the handout says next to the probes."""
    board = board_from_rows([[None, 1, None, 2, None]])
    csp = build_csp(board)
    model = model_answer()
    assert model is not None and board.mines is None
    first = board_probes("constraint_bounds", board, model)[0]
    assert first.args["scope"] == list(csp.constraints[-1].scope) and csp.constraints[-1].cell is not None
    assert "on a board without a mine count it is a hint" in grading_section()


# --- bench/places.py: its command line only (it grades in four places: a bench, not a test) --


def places_module() -> object:
    """bench/places.py as a module (its dataclass needs it registered while it loads)."""
    if "bench_places" not in sys.modules:
        spec = importlib.util.spec_from_file_location("bench_places", ROOT / "bench" / "places.py")
        assert spec is not None and spec.loader is not None
        sys.modules["bench_places"] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(sys.modules["bench_places"])
    return sys.modules["bench_places"]


def test_places_reads_files_problems_and_inlined_modules(tmp_path: Path) -> None:
    """FILE... with --problems and --inline; the kit's problems/ by default."""
    places = places_module()
    student = STUDENT_FILES / "stateful.py"
    args = places.parse_args([str(student), "--inline", str(STUDENT_FILES / "model_answer.py")])
    assert args.files == [student] and args.problems == ROOT / "problems" and not args.markdown
    args = places.parse_args([str(student), "--problems", str(tmp_path), "--markdown"])
    assert args.problems == tmp_path and args.markdown


@pytest.mark.parametrize("argv", [[], ["nowhere.py"], ["STUDENT", "--problems", "nowhere"], ["STUDENT", "--inline", "no.py"]])
def test_places_refuses_bad_arguments_before_any_work(argv: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    """No file, a missing file, a missing problem folder: one usage error, exit 2."""
    places = places_module()
    with pytest.raises(SystemExit) as stopped:
        places.parse_args([str(STUDENT_FILES / "stateful.py") if a == "STUDENT" else a for a in argv])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.strip().splitlines()[-1].startswith("python bench/places.py: error:")
