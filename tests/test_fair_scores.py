"""Every student gets the score they deserve, and is told why: a broken search earns no
efficiency points, answering "no solution" everywhere earns nothing, and a lost board
names the hook where the search first parted from the model answer's."""

from __future__ import annotations

import shutil
from pathlib import Path

from conftest import grade_json, lone, no_traceback, run_grader

ROOT = Path(__file__).resolve().parents[1]
FILES = Path(__file__).resolve().parent / "student_files"
EFFICIENCY = "efficiency:\n  points: 4\n  thresholds: [[1.5, 1.0], [3.0, 0.5]]\n"


def graded(tmp_path: Path, student: str) -> tuple[dict, str]:
    """Grade STUDENT on the course boards with an efficiency item; (JSON report, terminal text)."""
    folder = tmp_path / "problems"
    folder.mkdir(exist_ok=True)
    shutil.copyfile(ROOT / "problems" / "course.yaml", folder / "course.yaml")
    (folder / "grading.yaml").write_text(EFFICIENCY, encoding="utf-8")
    out = tmp_path / f"{student}.json"
    run, report = grade_json(folder, lone(student), out, timeout=300, columns=300)
    return report, run.stdout


def item(report: dict, name: str) -> dict:
    return next(e for e in report["hooks"] + report["problems"] + report.get("other", []) if e["id"] == name)


def test_a_search_that_finds_nothing_earns_neither_boards_nor_efficiency(tmp_path: Path) -> None:
    report, shown = graded(tmp_path, "claims_none")
    assert sum(p["score"] for p in report["problems"]) == 0
    assert "earns nothing" in item(report, "nctu-1-as-printed")["message"]
    efficiency = item(report, "efficiency")
    assert efficiency["score"] == 0 and "only a search that solves every problem" in efficiency["message"]
    assert "up to 1.5x" in efficiency["message"]  # the thresholds are always stated


def test_a_correct_search_earns_full_efficiency_with_its_node_counts(tmp_path: Path) -> None:
    report, _ = graded(tmp_path, "correct")
    efficiency = item(report, "efficiency")
    assert efficiency["score"] == 4 and "(1.00x)" in efficiency["message"] and "nodes against" in efficiency["message"]


def test_a_lost_board_names_the_hook_where_the_search_parted(tmp_path: Path) -> None:
    report, shown = graded(tmp_path, "off_by_one_bounds")
    lost = [p for p in report["problems"] if p["score"] < p["max_score"]]
    assert lost and all(p["cause"].startswith("forward_check ") for p in lost), lost
    assert "Where the search first went wrong" in shown and "--trace nctu-1 --against reference" in shown
    assert "Next step: fix forward_check" in shown


#: Each student's `--trace nctu-1 --against reference` output, traced once for the module
#: (two tests read off_by_one_bounds').
TRACED: dict[str, str] = {}


def against_reference(student: str) -> str:
    if student not in TRACED:
        solver = "reference" if student == "reference" else str(lone(student))
        run = run_grader("problems/course.yaml", "--trace", "nctu-1", "--against", "reference", "--solver", solver)
        no_traceback(run)
        TRACED[student] = run.stdout
    return TRACED[student]


def test_against_reference_compares_like_with_like() -> None:
    assert "identical to the reference for all 44 steps" in against_reference("reference")
    assert "identical to the reference for all 44 steps" in against_reference("correct")
    assert "First difference at step 1: domains after forward checking" in against_reference("off_by_one_bounds")


def test_answers_that_ignore_their_input_earn_nothing(tmp_path: Path) -> None:
    report, shown = graded(tmp_path, "constant_answers")
    assert report["score"] == 0, [(e["id"], e["score"]) for e in report["hooks"] + report["problems"] if e["score"]]
    command = f"python -m grader {tmp_path / 'problems'} --solver {lone('constant_answers')}"  # the run's own: it runs as printed
    assert f"rerun just this case: {command} --case constraint_bounds:" in " ".join(shown.split())


def test_only_grades_just_the_named_items(tmp_path: Path) -> None:
    out = tmp_path / "report.json"
    run, report = grade_json("problems/", lone("correct"), out, "--only", "forward_check,nctu-2,generated-status", timeout=300)
    assert [h["id"] for h in report["hooks"]] == ["forward_check"]
    assert {p["id"] for p in report["problems"]} >= {"nctu-2"} and all(
        p["id"] == "nctu-2" or p["file"].endswith("generated-status.yaml") for p in report["problems"]
    )
    assert not report.get("other") and "a partial run" in run.stdout
    wrong = run_grader("problems/", "--only", "nope", timeout=60)
    assert wrong.returncode == 2 and "nothing is called nope" in wrong.stdout


def test_a_written_agent_plays_practice_games_when_the_config_has_none(tmp_path: Path) -> None:
    folder = tmp_path / "student"
    folder.mkdir()
    shutil.copyfile(FILES / "model_answer.py", folder / "hooks.py")
    shutil.copyfile(FILES / "agent_naive.py", folder / "agent.py")
    run = run_grader("problems/course.yaml", "--solver", folder / "hooks.py", timeout=300)
    table = run.stdout.split("agent (practice, no points)")[-1]
    assert "20 beginner, classic rules" in table and "win rate" in table and "95% interval" in table, run.stdout
    assert "lost game 1" in table and "opened a mine" in table and "seed" not in table
    assert "Full marks." in run.stdout  # practice games cost nothing


def test_the_students_panel_narrates_the_students_hook() -> None:
    shown = " ".join(against_reference("flips_values").split())
    mine = shown.split("model answer (reference) ─")[0]
    assert "your forward_check made mines: r1c6, r2c5" in mine
    assert "✗ departs from the bound rule: r1c6, r2c5 should be safe" in mine
    assert "so these are safe" not in mine.split("✗ departs")[0]  # the rule's reasoning is not put in its mouth
    dead = " ".join(against_reference("off_by_one_bounds").split())
    assert "your forward_check returned None: a dead end" in dead and "no constraint is violated here" in dead


def test_agent_without_an_agent_section_says_what_it_does() -> None:
    run = run_grader(
        "problems/course.yaml",
        "--solver",
        FILES / "correct.py",
        "--agent",
        "assignment/agent.py",
        "--only",
        "constraint_bounds",
        timeout=300,
        columns=300,
    )  # the note is said before any item is graded: one item is enough
    assert "no agent section, so --agent plays practice games for no points" in run.stdout
