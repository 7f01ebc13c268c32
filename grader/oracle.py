"""Independent answers about a board: how many layouts fit, and does any?

Small boards are counted by the reference engine; boards with more than ENGINE_LIMIT
unknown cells by Glucose 4.1 (blocking-clause enumeration), which also settles every
"no solution" claim when a problem file gives no `expect`.
"""

from __future__ import annotations

from solvers.board import Board
from solvers.csp import build_csp
from solvers.engine import search

from .reference import reference_strategies

ENGINE_LIMIT = 40  # unknown cells up to which the reference engine counts


def count_method(board: Board) -> str:
    """Which oracle counts this board: "engine" or "sat"."""
    return "engine" if len(board.mine_candidates()) <= ENGINE_LIMIT else "sat"


def count_solutions(board: Board) -> int:
    """The exact number of mine layouts that fit the board."""
    csp = build_csp(board)
    if count_method(board) == "engine":
        return search(csp, reference_strategies().REFERENCE, "count").count
    from solvers.sat import sat_solve

    return sat_solve(csp, "count").count


def has_solution(board: Board) -> bool:
    """Whether any layout fits, asked of Glucose 4.1."""
    from solvers.sat import sat_solve

    return sat_solve(build_csp(board), "first").count > 0
