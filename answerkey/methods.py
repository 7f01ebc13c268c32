"""One entry point for every solver: the same question, the same kind of answer."""

from __future__ import annotations

from typing import TYPE_CHECKING

from answerkey.components.solve import solve_components
from answerkey.fastsearch import search
from answerkey.strategies import STRATEGIES

if TYPE_CHECKING:
    from solvers.csp import CSP
    from solvers.engine import Mode, SearchResult

#: Every name `solve` accepts: the engine's named strategies, the engine on independent
#: components ("components": exact counting without enumerating), the classic cell-by-cell
#: recursion ("recursive", a baseline), brute force and SAT.
METHODS: tuple[str, ...] = (*STRATEGIES, "components", "recursive", "brute", "sat")

#: What `solve` uses unless told otherwise: components scale to 256x256 boards and count
#: without enumerating, where the whole-board engine falls off a cliff beyond about 24x24
#: (bench/cliff.py). The engine's strategies stay available by name.
DEFAULT_METHOD = "components"


def solve(csp: CSP, method: str = DEFAULT_METHOD, mode: Mode = "all") -> SearchResult:
    """Solve `csp` with `method` (see METHODS) in `mode` ("first", "all" or "count")."""
    if method in STRATEGIES:
        return search(csp, STRATEGIES[method], mode)
    if method == "components":
        return solve_components(csp, mode)
    if method == "recursive":  # the other solvers are imported when asked for (start-up)
        from answerkey.recursive import recursive_solve

        return recursive_solve(csp, mode)
    if method == "brute":
        from solvers.brute import brute_force

        return brute_force(csp, mode)
    if method == "sat":
        from answerkey.sat import sat_solve

        return sat_solve(csp, mode).as_search_result()
    raise ValueError(f"unknown method {method!r}; choose one of {', '.join(METHODS)}")
