"""Every solver against brute force on random small boards (hypothesis).

Boards are built from a planted mine layout: some cells are revealed with the clue the
layout gives them under the board's rule, one clue is sometimes changed so that no
layout may fit, and a mine count is sometimes added (the planted one or any other).
Solutions are also recounted with `clues_for_layout`, which does not use the CSP code.
"""

from __future__ import annotations

from dataclasses import dataclass
from itertools import product

import pytest
from hypothesis import HealthCheck, assume, event, given, settings
from hypothesis import strategies as st

from answerkey.methods import METHODS, solve
from solvers.board import MAX_CLUE, RULES, Board, Cell, board_from_rows, clues_for_layout
from solvers.brute import brute_force
from solvers.csp import build_csp

MAX_VARIABLES = 16
#: Boards with more solutions than this are skipped: enumerating tens of thousands of
#: solutions with every method would dominate the suite's runtime, not test more logic.
MAX_SOLUTIONS = 600


@dataclass(frozen=True)
class Case:
    board: Board
    planted: frozenset[Cell]
    perturbed: bool


@st.composite
def cases(draw) -> Case:
    rule = draw(st.sampled_from(RULES))
    rows = draw(st.integers(1, 5))
    # Under `inclusive` every cell is a variable, so the board itself has at most 16 cells.
    cols = draw(st.integers(1, 5 if rule == "classic" else min(5, MAX_VARIABLES // rows)))
    cells = [(r, c) for r in range(rows) for c in range(cols)]
    planted = draw(st.sets(st.sampled_from(cells)))
    counts = clues_for_layout(planted, rows, cols, rule)
    # Under `classic` a clue cell is safe, so reveal only safe cells (the planted layout
    # stays a solution); under `inclusive` any cell may show its clue.
    revealable = [cell for cell in cells if rule == "inclusive" or cell not in planted]
    shown = draw(st.sets(st.sampled_from(revealable)) if revealable else st.just(set()))
    grid = [[counts[r][c] if (r, c) in shown else None for c in range(cols)] for r in range(rows)]
    perturbed = False
    if shown and draw(st.booleans()):
        r, c = draw(st.sampled_from(sorted(shown)))
        grid[r][c] = draw(st.sampled_from([v for v in range(MAX_CLUE[rule] + 1) if v != grid[r][c]]))
        perturbed = True
    board = board_from_rows(grid, rule)
    room = len(board.mine_candidates())
    assume(room <= MAX_VARIABLES)
    mines = draw(st.one_of(st.none(), st.just(len(planted)), st.integers(0, room)))
    return Case(board_from_rows(grid, rule, mines), frozenset(planted), perturbed)


def mines_of(csp, values) -> set[Cell]:
    return {cell for cell, value in zip(csp.cells, values) if value}


def fits(board: Board, mines: set[Cell]) -> bool:
    """Does this mine layout explain every clue (and the mine count)? Recounted from the board."""
    counts = clues_for_layout(mines, board.rows, board.cols, board.rule)
    if board.mines is not None and len(mines) != board.mines:
        return False
    if board.rule == "classic" and any(board.clue(cell) is not None for cell in mines):
        return False
    return all(counts[r][c] == board.clue((r, c)) for r, c in board.clue_cells())


@pytest.mark.slow  # seconds of CPU: the full suite runs it, the quick loop does not
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])
@given(cases())
def test_every_method_agrees_with_brute_force(case: Case):
    board = case.board
    csp = build_csp(board)
    assert len(csp.cells) <= MAX_VARIABLES
    oracle = brute_force(csp, "all")
    assume(oracle.count <= MAX_SOLUTIONS)
    expected = sorted(oracle.solutions)
    event(f"{board.rule}, mine count {'absent' if board.mines is None else 'given'}")
    event(f"variables: {'0-5' if len(csp.cells) <= 5 else '6-10' if len(csp.cells) <= 10 else '11-16'}")
    event(f"solutions: {'0' if not expected else '1' if len(expected) == 1 else 'several'}")
    assert oracle.count == len(expected) == len(set(expected))

    # Independent of the CSP code: every solution recounts to the board's clues ...
    for values in expected:
        assert len(values) == len(csp.cells)
        assert fits(board, mines_of(csp, values))
    # ... and the planted layout is found whenever it still fits.
    if not case.perturbed and board.mines in (None, len(case.planted)):
        assert fits(board, set(case.planted))
        assert tuple(int(cell in case.planted) for cell in csp.cells) in expected
    # Small boards: brute force itself against a plain enumeration of layouts.
    if len(csp.cells) <= 10:
        direct = sorted(values for values in product((0, 1), repeat=len(csp.cells)) if fits(board, mines_of(csp, values)))
        assert direct == expected

    for method in METHODS:
        every = solve(csp, method, "all")
        assert sorted(every.solutions) == expected, method
        assert every.count == len(expected), method
        counted = solve(csp, method, "count")
        assert counted.count == len(expected), method
        assert counted.solutions == [], method
        first = solve(csp, method, "first")
        if expected:
            assert first.count == 1 and len(first.solutions) == 1, method
            assert first.solutions[0] in expected, method
        else:
            assert first.count == 0 and first.solutions == [], method


@settings(max_examples=60, deadline=None)
@given(cases())
def test_generated_boards_are_what_they_claim(case: Case):
    """The generator of the test above: rule, size and a planted layout that fits when untouched."""
    board = case.board
    assert len(board.mine_candidates()) <= MAX_VARIABLES
    assert all(0 <= board.clue(cell) <= MAX_CLUE[board.rule] for cell in board.clue_cells())
    if board.mines is not None:
        assert 0 <= board.mines <= len(board.mine_candidates())
    if not case.perturbed and board.mines in (None, len(case.planted)):
        assert fits(board, set(case.planted))
