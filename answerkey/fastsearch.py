"""The answer key's search: the engine's nodes, faster for its fixpoint strategies.

`solvers.engine.search` is the handout's loop as students read it. The answer key's
fixpoint strategies (`fc-fixpoint` and the reference `fc-mrv`) promise more than a
student's hooks do (`FixpointStrategy`), and when nobody observes, `search` here uses
that promise (`fixpoint_search`):

- a child carries its full domains (its parent's narrowed domains with the branching
  variable set: one C-level copy) instead of rebuilding them from its assignment, and the
  forward check narrows that copy in place (`FixpointStrategy.narrow_in_place`);
- the unassigned variables travel as a tuple, not as a dict of their domains;
- the goal test reads the values off without summing the constraints: at a fixpoint of
  the bound rule with every domain a singleton, every constraint holds;
- only the root may hold an empty domain (narrowing leaves one value or says dead end);
- the statistics are counted in local variables, and there are no events.

It pops the same nodes in the same order as the engine and counts the same statistics
(tests/test_fastsearch.py). With an observer, or with any other strategy, `search` is
the engine's.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from solvers import engine
from solvers.csp import CSP, Domains
from solvers.engine import ForwardCheck, Mode, Observer, SearchResult, SearchStats, Strategy, complete_values

Entry = tuple[tuple[int, ...], "int | None", Domains]
"""A stacked node: its unassigned variables, the variable just assigned (None at the
root), and its domains of every variable, which the search owns."""


@dataclass(frozen=True)
class FixpointStrategy(Strategy):
    """A strategy whose `forward_check` applies the bound rule of every constraint until
    nothing changes. It returns a narrowed copy (the same variables in the same order),
    leaves singletons as they are and never empties a domain (a dead end is None);
    `narrow_in_place` is the same check narrowing the dict it is handed."""

    narrow_in_place: ForwardCheck


def search(csp: CSP, strategy: Strategy, mode: Mode = "all", observer: Observer | None = None, domains: Domains | None = None) -> SearchResult:
    """`solvers.engine.search`, by `fixpoint_search` for a FixpointStrategy nobody observes."""
    if observer is None and isinstance(strategy, FixpointStrategy):
        return fixpoint_search(csp, strategy, mode, domains)
    return engine.search(csp, strategy, mode, observer, domains)


def fixpoint_search(csp: CSP, strategy: FixpointStrategy, mode: Mode = "all", domains: Domains | None = None) -> SearchResult:
    """The engine's search with `strategy` (same solutions, same order, same statistics),
    without events. mode and `domains` as in `solvers.engine.search`."""
    started = time.perf_counter()
    narrow, select, order = strategy.narrow_in_place, strategy.select_variable, strategy.order_values
    start = domains if domains is not None else csp.initial_domains()
    root = {var: start[var] for var in csp.variables}
    size = len(root)
    stack: list[Entry] = [(tuple(root), None, root)]
    solutions: list[tuple[int, ...]] = []
    count = popped = expanded = dead_ends = max_stack = max_depth = 0
    while stack:
        if len(stack) > max_stack:
            max_stack = len(stack)
        unassigned, just_assigned, current = stack.pop()
        popped += 1
        if size - len(unassigned) > max_depth:
            max_depth = size - len(unassigned)
        narrowed = narrow(csp, current, just_assigned)
        if narrowed is None or (just_assigned is None and not all(narrowed.values())):  # only the root may hold an empty domain
            dead_ends += 1
            continue
        values = complete_values(csp, narrowed)
        if values is not None:
            count += 1
            if mode != "count":
                solutions.append(values)
            if mode == "first":
                break
            continue
        var = select(csp, narrowed, unassigned)
        expanded += 1
        _push_children(stack, unassigned, narrowed, var, order(csp, var, narrowed))
    stats = SearchStats(popped, expanded, dead_ends, max_stack, max_depth, time.perf_counter() - started)
    return SearchResult(solutions, count, stats)


def _push_children(stack: list[Entry], unassigned: tuple[int, ...], domains: Domains, var: int, values: Sequence[int]) -> None:
    """A child per value, each with its own copy of `domains` with `var` set; the preferred
    (first) value last, so that it is popped first."""
    at = unassigned.index(var)
    rest = unassigned[:at] + unassigned[at + 1 :]
    for value in reversed(values):
        child = domains.copy()
        child[var] = (value,)
        stack.append((rest, var, child))
