"""Independent answers about a board: how many layouts fit, and does any?

Every board is counted by the exact component counter (`answerkey.components.count`: independent
components, big integers), which never enumerates the layouts. When the count is small
enough to enumerate, a second, independent method recounts it, and the two must agree:
the reference engine on boards with at most ENGINE_LIMIT unknown cells, Glucose 4.1 on
larger ones. Glucose also settles every "no solution" claim when a problem file gives no
`expect`. Each board is counted once per process.
"""

from __future__ import annotations

from functools import lru_cache

from answerkey import strategies
from answerkey.components.count import count_solutions as count_by_components
from answerkey.fastsearch import search
from answerkey.sat import sat_solve
from grader.errors import UserError
from solvers.board import Board
from solvers.csp import CSP, build_csp

ENGINE_LIMIT = 40  # unknown cells up to which the reference engine is the second opinion
ENGINE_CROSSCHECK = 2000  # counts up to which the engine enumerates the layouts as a second opinion
SAT_CROSSCHECK = 2000  # counts up to which Glucose enumerates the layouts as a second opinion


class OracleDisagreement(UserError):
    """Two independent counts of the same board differ: a bug in one of them."""


def count_method(board: Board) -> str:
    """Who counted the board: "engine" (the reference engine enumerated the layouts and
    the component counter agrees), "components" (too many layouts to enumerate on a
    small board: the component counter alone) or "components+sat" (boards above
    ENGINE_LIMIT unknown cells: the component counter, Glucose recounting small counts)."""
    if len(board.mine_candidates()) > ENGINE_LIMIT:
        return "components+sat"
    return "engine" if count_solutions(board) <= ENGINE_CROSSCHECK else "components"


@lru_cache(maxsize=4096)
def count_solutions(board: Board) -> int:
    """The exact number of mine layouts that fit the board."""
    csp = build_csp(board)
    count = count_by_components(csp)
    second = _second_opinion(csp, count)
    if second is not None and second[1] != count:
        raise OracleDisagreement(f"the component counter finds {count} layouts, {second[0]} {second[1]}")
    return count


def _second_opinion(csp: CSP, count: int) -> tuple[str, int] | None:
    """(who, their count) from an enumerating method when `count` is small enough, else None."""
    if len(csp.cells) <= ENGINE_LIMIT:
        if count > ENGINE_CROSSCHECK:
            return None
        return "the reference engine", search(csp, strategies.REFERENCE, "count").count
    if count > SAT_CROSSCHECK:
        return None
    return "Glucose", sat_solve(csp, "count").count


def has_solution(board: Board) -> bool:
    """Whether any layout fits, asked of Glucose 4.1."""
    return sat_solve(build_csp(board), "first").count > 0
