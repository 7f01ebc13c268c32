"""The SAT exercise in the grader, and Glucose as the grader's oracle."""

from __future__ import annotations

import json
from pathlib import Path

from conftest import by_id, grade_json, lone, run_grader

from answerkey.generate import status_grid
from answerkey.oracle import ENGINE_LIMIT, count_method, count_solutions, has_solution
from grader.hooktable import SAT_HOOKS
from grader.sandbox.tasks import Outcome
from grader.scoring.hookitems import HookAnswers
from grader.scoring.sathooks import SCOPES, equivalence_problem, score_sat_hook
from solvers.textformat import parse_board

ROOT = Path(__file__).resolve().parents[1]
STUDENTS = ROOT / "tests" / "student_files"


def graded(tmp_path: Path, student: str, problems: str | Path = "problems/course.yaml") -> dict:
    _, report = grade_json(problems, lone(student), tmp_path / f"{student}.json", timeout=300)
    return report


def test_equivalence_check_finds_the_first_bad_assignment() -> None:
    at_least = next(s for s in SAT_HOOKS if s.name == "at_least_clauses")
    assert equivalence_problem(at_least, [[1, 2]], 2, 1) is None
    assert "accept" in equivalence_problem(at_least, [], 2, 1)
    assert "reject" in equivalence_problem(at_least, [[1]], 2, 1)
    assert equivalence_problem(at_least, [[]], 2, 3) is None  # impossible: the empty clause


def test_clauses_with_foreign_literals_are_rejected() -> None:
    at_most = next(s for s in SAT_HOOKS if s.name == "at_most_clauses")
    results = [{"value": [[9]]}] * len(SCOPES)
    item = score_sat_hook(at_most, 2, Outcome("ok", HookAnswers(results)))
    assert item.score == 0 and "literal 9" in item.message


def test_oracle_counts_big_boards_exactly_and_glucose_agrees() -> None:
    import random

    small = parse_board("? 1 ? 2 ?", "classic")
    assert count_method(small) == "engine" and count_solutions(small) == 1
    big, _ = status_grid(random.Random(4), 8, 8, 20)  # 64 unknown cells: above the engine's limit
    assert len(big.mine_candidates()) > ENGINE_LIMIT and count_method(big) == "components+sat"
    assert count_solutions(big) >= 1 and has_solution(big)
    assert not has_solution(parse_board("? 3 ? 3 ?", "classic"))


def test_no_solution_claim_is_checked_by_glucose_without_expect(tmp_path: Path) -> None:
    problems = tmp_path / "noexpect.yaml"
    problems.write_text(
        "problems:\n  - id: solvable\n    board: |\n      ? 1 ? 2 ?\n  - id: unsolvable\n    board: |\n      ? 3 ? 3 ?\n", encoding="utf-8"
    )
    entries = by_id(graded(tmp_path, "claims_none", problems))
    assert entries["solvable"]["status"] == "fail"
    assert "Glucose 4.1 finds one" in entries["solvable"]["message"]
    # it found no solution anywhere: its "none" on the unsolvable board earns nothing either
    assert entries["unsolvable"]["status"] == "fail" and "earns nothing" in entries["unsolvable"]["message"]
    honest = by_id(graded(tmp_path, "correct", problems))
    assert honest["solvable"]["status"] == "pass" and honest["unsolvable"]["status"] == "pass"


def test_check_reports_which_oracle_counted(tmp_path: Path) -> None:
    out = tmp_path / "check.json"
    result = run_grader("check", "problems/status-grids.yaml", "problems/course.yaml", "--json", out)
    assert result.returncode == 0, result.stdout
    rows = {r["id"]: r for r in json.loads(out.read_text(encoding="utf-8"))["problems"]}
    assert rows["nctu-1"]["counted_by"] == "engine" and rows["nctu-1"]["solutions"] == 8
    assert rows["status-7x7"]["counted_by"] == "components+sat" and rows["status-7x7"]["solutions"] == 1


def test_a_huge_count_needs_no_enumeration() -> None:
    """2**21 layouts on 42 unknown cells: counted exactly without enumerating them."""
    board = parse_board(" ".join([". 1 ."] * 21), "classic")
    assert count_method(board) == "components+sat" and count_solutions(board) == 2**21
