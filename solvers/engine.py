"""The explicit-stack backtracking engine of the course assignment (seed 001).

A node holds the list of (variable, value) assignments made from the root and the
domains of the variables not yet assigned. The loop is:

1. pop a node;
2. forward-check it (optional hook): narrow the domains or declare a dead end;
3. goal test: every variable has a single value and every constraint holds;
4. pick an unassigned variable (hook) and push one child per value, in increasing order
   of preference (hook), so the preferred child is popped first.

The strategies are plain functions gathered in a `Strategy`. The engine never prints:
it counts statistics (fresh for every run) and, when given an observer, reports events.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Callable, Literal, NamedTuple, Sequence

from .csp import CSP, Domains

Mode = Literal["first", "all", "count"]

ForwardCheck = Callable[[CSP, Domains, "int | None"], "Domains | None"]
"""(csp, domains of every variable, variable just assigned or None) -> narrowed domains, or None for a dead end."""
SelectVariable = Callable[[CSP, Domains, Sequence[int]], int]
"""(csp, domains, unassigned variables in order) -> the variable to branch on."""
OrderValues = Callable[[CSP, int, Domains], Sequence[int]]
"""(csp, variable, domains) -> the values to try, most preferred first."""
Consistent = Callable[[CSP, Domains], bool]
"""(csp, domains) -> False when some constraint can no longer be met (used without forward checking)."""


class Node(NamedTuple):
    """A search node: assignments from the root, and the domains of unassigned variables."""

    assignment: tuple[tuple[int, int], ...]
    domains: Domains

    @property
    def depth(self) -> int:
        return len(self.assignment)

    def view(self) -> Domains:
        """Domains of every variable; an assigned variable has its value as a 1-tuple."""
        full = {var: (value,) for var, value in self.assignment}
        full.update(self.domains)
        return full


@dataclass(frozen=True)
class Strategy:
    """The hooks one search uses. `forward_check=None` means plain backtracking."""

    name: str
    select_variable: SelectVariable
    order_values: OrderValues
    forward_check: ForwardCheck | None = None
    consistent: Consistent | None = None


@dataclass
class SearchStats:
    """What one run cost. A new object for every run: nothing carries over."""

    popped: int = 0
    expanded: int = 0
    dead_ends: int = 0
    max_stack: int = 0
    max_depth: int = 0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return dict(vars(self))


@dataclass
class SearchResult:
    """Solutions (value of variable i at index i), their number, and the statistics."""

    solutions: list[tuple[int, ...]]
    count: int
    stats: SearchStats = field(default_factory=SearchStats)


# Events handed to an observer, in the order they happen.
class Popped(NamedTuple):
    step: int
    node: Node


class Pruned(NamedTuple):
    step: int
    before: Domains
    after: Domains


class DeadEnd(NamedTuple):
    step: int
    domains: Domains


class Solved(NamedTuple):
    step: int
    values: tuple[int, ...]


class Branched(NamedTuple):
    step: int
    variable: int
    values: tuple[int, ...]


Event = Popped | Pruned | DeadEnd | Solved | Branched
Observer = Callable[[Event], None]


def search(
    csp: CSP,
    strategy: Strategy,
    mode: Mode = "all",
    observer: Observer | None = None,
    domains: Domains | None = None,
) -> SearchResult:
    """Run the stack search on `csp` with `strategy`.

    mode: "first" stops at the first solution, "all" keeps every solution, "count" only
    counts them. `domains` overrides the initial domains (default: {0, 1} for all).
    """
    stats = SearchStats()
    started = time.perf_counter()
    solutions: list[tuple[int, ...]] = []
    count = 0
    order = csp.variables
    forward_check, consistent = strategy.forward_check, strategy.consistent
    start = domains if domains is not None else csp.initial_domains()
    stack: list[tuple[Node, int | None]] = [(Node((), {var: start[var] for var in order}), None)]
    while stack:
        stats.max_stack = max(stats.max_stack, len(stack))
        node, just_assigned = stack.pop()
        stats.popped += 1
        step = stats.popped
        stats.max_depth = max(stats.max_depth, len(node.assignment))
        if observer:
            observer(Popped(step, node))
        current = node.view()
        if forward_check is not None:
            narrowed = forward_check(csp, current, just_assigned)
            if observer and narrowed is not None and narrowed != current:
                observer(Pruned(step, current, narrowed))
        else:
            narrowed = current if consistent is None or consistent(csp, current) else None
        unassigned = list(node.domains)  # kept in variable order
        if narrowed is not None:
            current = narrowed
            sizes = set(map(len, current.values()))  # a 0 anywhere, assigned or not: dead end
            complete = tuple(current[var][0] for var in order) if sizes <= {1} else None
        if narrowed is None or 0 in sizes or (complete is not None and not csp.satisfied_by(complete)):
            stats.dead_ends += 1
            if observer:
                observer(DeadEnd(step, current))
            continue
        if complete is not None:
            count += 1
            if observer:
                observer(Solved(step, complete))
            if mode != "count":
                solutions.append(complete)
            if mode == "first":
                break
            continue
        var = strategy.select_variable(csp, current, unassigned)
        values = tuple(strategy.order_values(csp, var, current))
        stats.expanded += 1
        if observer:
            observer(Branched(step, var, values))
        rest = {v: current[v] for v in unassigned if v != var}
        for value in reversed(values):
            stack.append((Node(node.assignment + ((var, value),), rest), var))
    stats.seconds = time.perf_counter() - started
    return SearchResult(solutions, count, stats)
