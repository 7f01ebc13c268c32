"""Independent answers about a board: how many layouts fit, and does any?

Small boards are counted by the reference engine; boards with more than ENGINE_LIMIT
unknown cells by the exact component counter (independent components, big integers),
which never enumerates the layouts, and, when the count is small enough to enumerate,
by Glucose 4.1 too: the two must agree. Glucose also settles every "no solution" claim
when a problem file gives no `expect`. Each board is counted once per process.
"""

from __future__ import annotations

from functools import lru_cache

from solvers.board import Board
from solvers.csp import build_csp
from solvers.engine import search

from .reference import reference_strategies

ENGINE_LIMIT = 40  # unknown cells up to which the reference engine counts
SAT_CROSSCHECK = 2000  # counts up to which Glucose enumerates the layouts as a second opinion


class OracleDisagreement(RuntimeError):
    """Two independent counts of the same board differ: a bug in one of them."""


def count_method(board: Board) -> str:
    """Which oracle counts this board: "engine", or "components+sat" (Glucose checks small counts)."""
    return "engine" if len(board.mine_candidates()) <= ENGINE_LIMIT else "components+sat"


@lru_cache(maxsize=4096)
def count_solutions(board: Board) -> int:
    """The exact number of mine layouts that fit the board."""
    csp = build_csp(board)
    if count_method(board) == "engine":
        return search(csp, reference_strategies().REFERENCE, "count").count
    reference_strategies()  # the counter builds on the reference strategies
    from solvers.counting import count_solutions as count_by_components
    from solvers.sat import sat_solve

    count = count_by_components(csp)
    if count <= SAT_CROSSCHECK and (by_sat := sat_solve(csp, "count").count) != count:
        raise OracleDisagreement(f"the component counter finds {count} layouts, Glucose {by_sat}")
    return count


def has_solution(board: Board) -> bool:
    """Whether any layout fits, asked of Glucose 4.1."""
    from solvers.sat import sat_solve

    return sat_solve(build_csp(board), "first").count > 0
