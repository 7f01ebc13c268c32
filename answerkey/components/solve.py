"""Solving a CSP component by component: the "components" method of `answerkey.methods`.

`decompose` (fixpoint forward checking, then independent components) turns one large
search into several small ones, each solved on its own and then put together:

- components of up to ENGINE_LIMIT variables are searched by the engine with the
  reference strategy (`search(part.csp, REFERENCE, ...)`);
- larger ones by `recursive_solve(..., propagate=True)`: the same bound rule, applied
  incrementally through counters (a node costs the constraints it touches, where an
  engine node copies the domains of every variable), row-major, safe first, with
  conflict-directed backjumping in "first" mode.

Modes:

- "first": the first solution of every component; free variables are safe. With a global
  count M, free variables take the mines left over, lowest-numbered first; when that does
  not fit, the mine counts each component can hold are found by a sweep
  (`answerkey.components.reach`), one number per component is chosen, as near as the
  others allow to the count of the solution at hand, and only a component whose number
  changed is given a layout with that many mines, from the sweep's tables. The global
  count is never searched with: it joins every variable.
- "all": the cartesian product of the components' solutions and the free variables'
  layouts, mines added up against the global count as it goes (`iter_solutions` streams;
  `solve_components` keeps at most `limit`).
- "count": `answerkey.components.count.solution_counts`, exact, without enumerating (popped: the
  counter's branching nodes plus the engine's nodes on small components).

Statistics add the counters of every component search (max stack and depth: the largest).
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from itertools import combinations, islice, product

from answerkey.components.count import solution_counts
from answerkey.components.reach import fit_mines
from answerkey.components.split import Decomposition, Part, decompose, lift
from answerkey.fastsearch import search
from answerkey.recursive import SAFE_FIRST, recursive_solve
from answerkey.strategies import REFERENCE
from solvers.csp import CSP
from solvers.engine import Mode, SearchResult, SearchStats


def _add(stats: SearchStats, other: SearchStats) -> None:
    stats.popped += other.popped
    stats.expanded += other.expanded
    stats.dead_ends += other.dead_ends
    stats.max_stack = max(stats.max_stack, other.max_stack)
    stats.max_depth = max(stats.max_depth, other.max_depth)


def _base(dec: Decomposition) -> list[int]:
    """A full assignment holding the decided values (0 elsewhere)."""
    values = [0] * len(dec.csp.cells)
    for var, value in dec.decided.items():
        values[var] = value
    return values


#: Components with more variables than this are searched by the propagating recursion.
ENGINE_LIMIT = 40


def search_part(part: Part, mode: Mode, stats: SearchStats) -> list[tuple[int, ...]]:
    """Solutions of one component (local order; only the first in "first" mode).

    The engine on components of up to ENGINE_LIMIT variables, the propagating recursion
    on larger ones.
    """
    if len(part.origin) <= ENGINE_LIMIT:
        result = search(part.csp, REFERENCE, mode)
    else:
        result = recursive_solve(part.csp, mode, SAFE_FIRST, propagate=True)
    _add(stats, result.stats)
    return result.solutions


def first_solution(dec: Decomposition, stats: SearchStats) -> tuple[int, ...] | None:
    """One solution of the decomposed CSP (see the module docstring for which one)."""
    values = _base(dec)
    found: list[tuple[int, ...]] = []
    for part in dec.components:
        solutions = search_part(part, "first", stats)
        if not solutions:
            return None
        found.append(solutions[0])
    if dec.mines_left is not None:
        fitted = fit_mines(dec, found)
        if fitted is None:
            return None
        found = fitted
        spare = dec.mines_left - sum(map(sum, found))
        for var in dec.free[:spare]:
            values[var] = 1
    for part, solution in zip(dec.components, found):
        lift(part, solution, values)
    return tuple(values)


def iter_solutions(dec: Decomposition, stats: SearchStats | None = None) -> Iterator[tuple[int, ...]]:
    """Every solution of the decomposed CSP: components in order, then the free variables.

    Each component's solutions are enumerated once (`search_part`) and kept; the product is
    streamed, and with a global count a branch stops as soon as the mines cannot add up.
    """
    stats = stats if stats is not None else SearchStats()
    per_part: list[list[tuple[tuple[int, ...], int]]] = []
    for part in dec.components:
        solutions = search_part(part, "all", stats)
        if not solutions:
            return
        per_part.append([(solution, sum(solution)) for solution in solutions])
    low = [0] * (len(per_part) + 1)  # fewest/most mines components i.. can hold
    high = [0] * (len(per_part) + 1)
    for i in range(len(per_part) - 1, -1, -1):
        low[i] = low[i + 1] + min(k for _s, k in per_part[i])
        high[i] = high[i + 1] + max(k for _s, k in per_part[i])
    free = len(dec.free)
    values = _base(dec)

    def rest(i: int, left: int | None) -> Iterator[tuple[int, ...]]:
        if left is not None and not low[i] <= left <= high[i] + free:
            return
        if i == len(per_part):
            yield from _free_layouts(dec.free, left, values)
            return
        for solution, k in per_part[i]:
            lift(dec.components[i], solution, values)
            yield from rest(i + 1, None if left is None else left - k)

    yield from rest(0, dec.mines_left)


def _free_layouts(free: tuple[int, ...], mines: int | None, values: list[int]) -> Iterator[tuple[int, ...]]:
    """`values` with every layout of the free variables (exactly `mines` of them when given)."""
    if mines is None:
        layouts: Iterator[Sequence[int]] = product((0, 1), repeat=len(free))
    else:
        layouts = (tuple(int(i in chosen) for i in range(len(free))) for chosen in map(set, combinations(range(len(free)), mines)))
    for layout in layouts:
        for var, value in zip(free, layout):
            values[var] = value
        yield tuple(values)


def solve_components(csp: CSP, mode: Mode = "first", limit: int | None = None) -> SearchResult:
    """Solve `csp` by independent components, in the engine's result type.

    mode "first" / "all" (at most `limit` solutions when given) / "count" (exact).
    """
    started = time.perf_counter()
    stats = SearchStats()
    solutions: list[tuple[int, ...]] = []
    if mode == "count":
        counted = solution_counts(csp, per_variable=False)
        count = counted.total
        stats.popped = counted.stats.nodes + counted.stats.engine_nodes
        stats.expanded = counted.stats.nodes
    else:
        dec = decompose(csp)
        if dec is None:
            stats.dead_ends += 1
        elif mode == "first":
            solution = first_solution(dec, stats)
            solutions = [solution] if solution is not None else []
        else:
            solutions = list(islice(iter_solutions(dec, stats), limit))
        count = len(solutions)
    stats.seconds = time.perf_counter() - started
    return SearchResult(solutions, count, stats)
