"""Every user-facing count goes through the component counter, never an enumeration.

`python -m solvers sat --count`, `python -m solvers grid --count` and the grader's oracle
(`grader check`) on boards whose layouts are too many to enumerate in a test.
"""

from __future__ import annotations

import io
import sys

import pytest

import answerkey.oracle as oracle
import solvers.glucose
from solvers.board import Board
from solvers.cli import main
from solvers.textformat import parse_board

#: A 6x6 board with 4 hints and 10 mines (hint_board, seed 0): 211,530 layouts.
FOUR_HINTS = ". . . . . .\n. 2 . . . .\n. . 1 . . .\n. 4 . . 2 .\n. . . . . .\n. . . . . ."
#: The reference SAT solver's format: a middle row of '? 3 ? 3 ...' between two unknown rows, 318,205 layouts.
STRIP = "3 12\n" + "\n".join([" ".join("?" * 12), " ".join(["?", "3"] * 6), " ".join("?" * 12)]) + "\n"


def no_enumeration(*args: object, **kwargs: object) -> None:
    raise AssertionError("enumerated the layouts")


def run(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], stdin: str, *argv: str) -> str:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode()), encoding="utf-8"))
    assert main(list(argv)) == 0
    return capsys.readouterr().out


def test_sat_count_uses_the_component_counter(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    monkeypatch.setattr(solvers.glucose, "solve_cnf", no_enumeration)
    assert run(monkeypatch, capsys, STRIP, "sat", "--count") == "318205\n"
    assert run(monkeypatch, capsys, STRIP, "sat", "--count", "--mines", "14") == "25110\n"  # the engine agrees


def test_sat_count_stats_describe_the_count(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    out = run(monkeypatch, capsys, STRIP, "sat", "--count", "--stats")
    assert out.startswith("318205\n") and "Exact count by components" in out and "largest component" in out


def test_grid_count_never_enumerates(monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]) -> None:
    import answerkey.components.solve

    monkeypatch.setattr(answerkey.components.solve, "iter_solutions", no_enumeration)
    # '.' rows around a row of 3s: every cell of the middle row is its own clue-free mine candidate
    grid = "\n".join([". " * 20, "3 . " * 10, ". " * 20])
    count = int(run(monkeypatch, capsys, grid, "grid", "--count"))
    assert count > 10**6


def test_oracle_counts_a_huge_small_board_without_the_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    board = parse_board(FOUR_HINTS, "classic", 10)
    monkeypatch.setattr(oracle, "search", no_enumeration)
    oracle.count_solutions.cache_clear()
    try:
        assert oracle.count_solutions(board) == 211_530
        assert oracle.count_method(board) == "components"
    finally:
        oracle.count_solutions.cache_clear()


def test_oracle_second_opinion_catches_a_disagreement(monkeypatch: pytest.MonkeyPatch) -> None:
    board: Board = parse_board("? 1 ? 2 ?", "classic")
    wrong = type("Result", (), {"count": 7})()
    monkeypatch.setattr(oracle, "search", lambda *args: wrong)
    oracle.count_solutions.cache_clear()
    try:
        with pytest.raises(oracle.OracleDisagreement, match="reference engine 7"):
            oracle.count_solutions(board)
    finally:
        oracle.count_solutions.cache_clear()
