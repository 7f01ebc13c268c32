"""The board model and the CSP built from it (solvers/board.py, solvers/csp.py)."""

from __future__ import annotations

import pytest

from answerkey.methods import METHODS, solve
from answerkey.strategies import REFERENCE
from solvers.board import (
    MAX_CLUE,
    RULES,
    Board,
    board_from_rows,
    clues_for_layout,
    counted_cells,
    neighbours,
)
from solvers.csp import Constraint, build_csp, layout_of
from solvers.engine import search
from solvers.textformat import parse_board

# --- neighbours / counted_cells ---------------------------------------------------------

# On a 3 x 4 grid: a corner, a top edge cell, a left edge cell, an inner cell, the far corner.
NEIGHBOURS_3x4 = {
    (0, 0): ((0, 1), (1, 0), (1, 1)),
    (0, 1): ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2)),
    (1, 0): ((0, 0), (0, 1), (1, 1), (2, 0), (2, 1)),
    (1, 1): ((0, 0), (0, 1), (0, 2), (1, 0), (1, 2), (2, 0), (2, 1), (2, 2)),
    (2, 3): ((1, 2), (1, 3), (2, 2)),
}


@pytest.mark.parametrize("cell", sorted(NEIGHBOURS_3x4))
def test_neighbours_corners_edges_centre(cell):
    assert neighbours(cell, 3, 4) == NEIGHBOURS_3x4[cell]


@pytest.mark.parametrize("cell", sorted(NEIGHBOURS_3x4))
def test_counted_cells_classic_is_the_neighbours(cell):
    assert counted_cells(cell, 3, 4, "classic") == NEIGHBOURS_3x4[cell]
    assert cell not in counted_cells(cell, 3, 4, "classic")


@pytest.mark.parametrize("cell", sorted(NEIGHBOURS_3x4))
def test_counted_cells_inclusive_adds_the_cell_itself_in_row_major_order(cell):
    expected = tuple(sorted(NEIGHBOURS_3x4[cell] + (cell,)))
    assert counted_cells(cell, 3, 4, "inclusive") == expected


def test_neighbour_counts_on_a_5x5_grid():
    sizes = {(r, c): len(neighbours((r, c), 5, 5)) for r in range(5) for c in range(5)}
    assert [sizes[cell] for cell in [(0, 0), (0, 4), (4, 0), (4, 4)]] == [3, 3, 3, 3]
    assert [sizes[cell] for cell in [(0, 2), (2, 0), (4, 2), (2, 4)]] == [5, 5, 5, 5]
    assert sizes[(2, 2)] == 8
    assert sum(sizes.values()) == 2 * (4 * 5 * 2 + 4 * 4 * 2)  # every adjacency counted twice


def test_degenerate_grids():
    assert neighbours((0, 0), 1, 1) == ()
    assert counted_cells((0, 0), 1, 1, "classic") == ()
    assert counted_cells((0, 0), 1, 1, "inclusive") == ((0, 0),)
    assert neighbours((0, 1), 1, 3) == ((0, 0), (0, 2))
    assert counted_cells((2, 0), 3, 1, "inclusive") == ((1, 0), (2, 0))


def test_max_clue_per_rule():
    assert MAX_CLUE == {"classic": 8, "inclusive": 9}
    assert set(RULES) == {"classic", "inclusive"}


# --- Board ------------------------------------------------------------------------------

ROWS = [[None, 1, None], [2, None, None]]


def test_board_shape_cells_and_clue_cells():
    board = board_from_rows(ROWS)
    assert (board.rows, board.cols) == (2, 3)
    assert list(board.cells()) == [(0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2)]
    assert board.clue_cells() == [(0, 1), (1, 0)]
    assert board.clue((1, 0)) == 2 and board.clue((0, 0)) is None


def test_mine_candidates_classic_excludes_clue_cells():
    board = board_from_rows(ROWS, "classic")
    assert board.mine_candidates() == [(0, 0), (0, 2), (1, 1), (1, 2)]


def test_mine_candidates_inclusive_includes_every_cell():
    board = board_from_rows(ROWS, "inclusive")
    assert board.mine_candidates() == list(board.cells())
    assert len(board.mine_candidates()) == 6


def test_board_counted_uses_its_rule():
    assert board_from_rows(ROWS, "classic").counted((0, 1)) == ((0, 0), (0, 2), (1, 0), (1, 1), (1, 2))
    assert board_from_rows(ROWS, "inclusive").counted((0, 1)) == ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))


# --- build_csp --------------------------------------------------------------------------

BOARD_TEXT = """
. 1 . .
2 . 3 .
. . . 1
"""


def test_variables_are_mine_candidates_in_row_major_order():
    board = parse_board(BOARD_TEXT)
    csp = build_csp(board)
    assert csp.cells == tuple(board.mine_candidates())
    assert list(csp.cells) == sorted(csp.cells)
    assert list(csp.variables) == list(range(8))
    assert csp.initial_domains() == {v: (0, 1) for v in range(8)}


def test_one_constraint_per_clue_in_row_major_order_with_correct_scopes():
    board = parse_board(BOARD_TEXT)
    csp = build_csp(board)
    assert [c.cell for c in csp.constraints] == [(0, 1), (1, 0), (1, 2), (2, 3)]
    assert [c.total for c in csp.constraints] == [1, 2, 3, 1]
    index = {cell: i for i, cell in enumerate(csp.cells)}
    # clue 1 at (0, 1) counts (0,0) (0,2) (1,0)=clue (1,1) (1,2)=clue
    assert csp.constraints[0].scope == (index[(0, 0)], index[(0, 2)], index[(1, 1)])
    # clue 1 at (2, 3) counts (1,2)=clue (1,3) (2,2)
    assert csp.constraints[3].scope == (index[(1, 3)], index[(2, 2)])
    for constraint in csp.constraints:
        expected = tuple(index[c] for c in board.counted(constraint.cell) if c in index)
        assert constraint.scope == expected


def test_no_global_constraint_without_a_mine_count():
    csp = build_csp(parse_board(BOARD_TEXT))
    assert all(c.cell is not None for c in csp.constraints)
    assert len(csp.constraints) == 4


def test_global_constraint_is_last_when_mines_are_given():
    csp = build_csp(parse_board(BOARD_TEXT, mines=3))
    assert len(csp.constraints) == 5
    last = csp.constraints[-1]
    assert last == Constraint(tuple(range(8)), 3, None)
    assert last.label == "mine count = 3"
    assert all(c.cell is not None for c in csp.constraints[:-1])


def test_constraints_of_lists_each_variables_constraints():
    board = parse_board(BOARD_TEXT, mines=3)
    csp = build_csp(board)
    for var in csp.variables:
        expected = tuple(i for i, c in enumerate(csp.constraints) if var in c.scope)
        assert csp.constraints_of[var] == expected
        assert csp.constraints_of[var][-1] == 4  # every variable is in the global constraint


def test_inclusive_csp_counts_the_clue_cell_itself():
    board = parse_board("1 .\n. .", rule="inclusive")
    csp = build_csp(board)
    assert csp.cells == ((0, 0), (0, 1), (1, 0), (1, 1))
    assert csp.constraints == (Constraint((0, 1, 2, 3), 1, (0, 0)),)
    assert solve(csp, "fc-mrv").count == 4


def test_constraint_label():
    assert Constraint((0,), 2, (1, 4)).label == "clue 2 at r2c5"


# Clues at (0,0) and (1,0) count only clue cells under classic: empty scopes.
EMPTY_SCOPE = "{a} 0 .\n{b} 0 ."


def _empty_scope_csp(a: int, b: int):
    board = parse_board(EMPTY_SCOPE.format(a=a, b=b))
    return board, build_csp(board)


def test_clue_surrounded_by_clues_gives_an_empty_scope():
    _board, csp = _empty_scope_csp(0, 0)
    assert csp.cells == ((0, 2), (1, 2))
    scopes = {c.cell: c.scope for c in csp.constraints}
    assert scopes[(0, 0)] == () and scopes[(1, 0)] == ()
    assert scopes[(0, 1)] == (0, 1) and scopes[(1, 1)] == (0, 1)


@pytest.mark.parametrize("method", METHODS)
def test_empty_scope_with_zero_clue_is_satisfiable(method):
    _board, csp = _empty_scope_csp(0, 0)
    result = solve(csp, method, "all")
    assert result.solutions == [(0, 0)]
    assert result.count == 1


@pytest.mark.parametrize("method", METHODS)
@pytest.mark.parametrize("clue", [1, 3])
def test_empty_scope_with_nonzero_clue_has_no_solution(method, clue):
    _board, csp = _empty_scope_csp(clue, 0)
    for mode in ("first", "all", "count"):
        result = solve(csp, method, mode)
        assert result.count == 0
        assert result.solutions == []


@pytest.mark.parametrize("method", METHODS)
def test_board_with_no_variables(method):
    ok = build_csp(parse_board("0 0\n0 0"))
    assert ok.cells == () and all(c.scope == () for c in ok.constraints)
    assert solve(ok, method, "all").solutions == [()]
    assert solve(ok, method, "count").count == 1
    bad = build_csp(parse_board("0 0\n0 1"))
    assert solve(bad, method, "all").solutions == []
    assert solve(bad, method, "count").count == 0


def test_layout_of_maps_variables_back_to_cells():
    csp = build_csp(parse_board(BOARD_TEXT))
    values = tuple(1 if i % 3 == 0 else 0 for i in csp.variables)
    grid = layout_of(csp, values, 3, 4)
    for (r, c), value in zip(csp.cells, values):
        assert grid[r][c] == value
    assert sum(map(sum, grid)) == sum(values)
    for r, c in parse_board(BOARD_TEXT).clue_cells():
        assert grid[r][c] == 0


# --- clues_for_layout -------------------------------------------------------------------


def test_clues_for_layout_centre_mine():
    assert clues_for_layout({(1, 1)}, 3, 3, "classic") == [[1, 1, 1], [1, 0, 1], [1, 1, 1]]
    assert clues_for_layout({(1, 1)}, 3, 3, "inclusive") == [[1, 1, 1], [1, 1, 1], [1, 1, 1]]


def test_clues_for_layout_corner_mines():
    mines = [(0, 0), (2, 3)]
    assert clues_for_layout(mines, 3, 4, "classic") == [
        [0, 1, 0, 0],
        [1, 1, 1, 1],
        [0, 0, 1, 0],
    ]
    assert clues_for_layout(mines, 3, 4, "inclusive") == [
        [1, 1, 0, 0],
        [1, 1, 1, 1],
        [0, 0, 1, 1],
    ]


def test_clues_for_layout_empty_and_full():
    assert clues_for_layout(set(), 2, 3, "classic") == [[0, 0, 0], [0, 0, 0]]
    full = {(r, c) for r in range(3) for c in range(3)}
    assert clues_for_layout(full, 3, 3, "classic") == [[3, 5, 3], [5, 8, 5], [3, 5, 3]]
    assert clues_for_layout(full, 3, 3, "inclusive") == [[4, 6, 4], [6, 9, 6], [4, 6, 4]]


def test_status_grid_solution_reproduces_its_clues():
    """The original solvers' 3x3 status grid: its one layout recounted gives back the grid."""
    board = parse_board("011\n122\n122", rule="inclusive")
    csp = build_csp(board)
    result = search(csp, REFERENCE, "all")
    assert result.count == 1
    mines = {cell for cell, v in zip(csp.cells, result.solutions[0]) if v}
    assert clues_for_layout(mines, 3, 3, "inclusive") == [list(row) for row in board.clues]


def test_board_is_a_frozen_value():
    board = board_from_rows(ROWS, "classic", 2)
    assert board == Board(((None, 1, None), (2, None, None)), "classic", 2)
    with pytest.raises(AttributeError):
        board.mines = 3  # type: ignore[misc]
