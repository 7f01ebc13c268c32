"""The explicit-stack backtracking engine of the course assignment.

A node holds the list of (variable, value) assignments made from the root and the
domains of the variables not yet assigned. The loop is:

1. pop a node;
2. forward-check it (hook): narrow the domains or declare a dead end;
3. goal test: every variable has a single value and every constraint holds;
4. pick an unassigned variable (hook);
5. push one child per value, in increasing order of preference (hook), so the preferred
   child is popped first.

The strategies are plain functions gathered in a `Strategy`. The engine never prints:
`_Run` counts the statistics (fresh for every run) and, when given an observer, reports
events; with no observer an event costs one test of a None.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Literal, NamedTuple

from .csp import CSP, Domains

Mode = Literal["first", "all", "count"]

ForwardCheck = Callable[[CSP, Domains, "int | None"], "Domains | None"]
"""(csp, domains of every variable, variable just assigned or None) -> narrowed domains, or None for a dead end."""
SelectVariable = Callable[[CSP, Domains, Sequence[int]], int]
"""(csp, domains, unassigned variables in order) -> the variable to branch on."""
OrderValues = Callable[[CSP, int, Domains], Sequence[int]]
"""(csp, variable, domains) -> the values to try, most preferred first."""


class Node(NamedTuple):
    """A search node: assignments from the root, and the domains of unassigned variables."""

    assignment: tuple[tuple[int, int], ...]
    domains: Domains

    @property
    def depth(self) -> int:
        return len(self.assignment)

    def view(self) -> Domains:
        """Domains of every variable; an assigned variable has its value as a 1-tuple."""
        full: Domains = {var: (value,) for var, value in self.assignment}
        full.update(self.domains)
        return full


@dataclass(frozen=True)
class Strategy:
    """The hooks one search uses. Plain backtracking is a forward check that only checks
    (it narrows nothing and says dead end when a constraint can no longer be met)."""

    name: str
    select_variable: SelectVariable
    order_values: OrderValues
    forward_check: ForwardCheck


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


#: Why a node is a dead end: the forward check returned None, it left a domain empty, or
#: every variable has one value but the values break a constraint (the goal test).
DeadEndCause = Literal["forward-check", "empty-domain", "goal-test"]


class DeadEnd(NamedTuple):
    step: int
    domains: Domains
    cause: DeadEndCause = "forward-check"


class Solved(NamedTuple):
    step: int
    values: tuple[int, ...]


class Branched(NamedTuple):
    step: int
    variable: int
    values: tuple[int, ...]


Event = Popped | Pruned | DeadEnd | Solved | Branched
Observer = Callable[[Event], None]

Entry = tuple[Node, "int | None"]
"""A stacked node and the variable just assigned in it (None at the root)."""


class _Run:
    """One run's statistics and, when someone observes, its events (step = nodes popped)."""

    __slots__ = ("stats", "observer", "solutions", "count")

    def __init__(self, observer: Observer | None) -> None:
        self.stats = SearchStats()
        self.observer = observer
        self.solutions: list[tuple[int, ...]] = []
        self.count = 0

    def pop(self, stack: list[Entry]) -> Entry:
        """Pop the next node and count it."""
        stats = self.stats
        if len(stack) > stats.max_stack:
            stats.max_stack = len(stack)
        node, just_assigned = stack.pop()
        stats.popped += 1
        if len(node.assignment) > stats.max_depth:
            stats.max_depth = len(node.assignment)
        if self.observer:
            self.observer(Popped(stats.popped, node))
        return node, just_assigned

    def pruned(self, before: Domains, after: Domains) -> None:
        if self.observer and after != before:
            self.observer(Pruned(self.stats.popped, before, after))

    def dead_end(self, domains: Domains, cause: DeadEndCause) -> None:
        self.stats.dead_ends += 1
        if self.observer:
            self.observer(DeadEnd(self.stats.popped, domains, cause))

    def solved(self, values: tuple[int, ...], keep: bool) -> None:
        self.count += 1
        if keep:
            self.solutions.append(values)
        if self.observer:
            self.observer(Solved(self.stats.popped, values))

    def branched(self, var: int, values: tuple[int, ...]) -> None:
        self.stats.expanded += 1
        if self.observer:
            self.observer(Branched(self.stats.popped, var, values))


def _forward_check(csp: CSP, strategy: Strategy, domains: Domains, just_assigned: int | None, run: _Run) -> Domains | None:
    """The strategy's forward check on a node's domains; None at a dead end, which is then
    recorded: the check failed, or some domain, assigned or not, is empty."""
    narrowed = strategy.forward_check(csp, domains, just_assigned)
    if narrowed is None:
        run.dead_end(domains, "forward-check")
        return None
    if run.observer:
        run.pruned(domains, narrowed)
    if not all(narrowed.values()):
        run.dead_end(narrowed, "empty-domain")
        return None
    return narrowed


def complete_values(csp: CSP, domains: Domains) -> tuple[int, ...] | None:
    """The values of a full assignment when every (non-empty) domain is a singleton, else None."""
    if sum(map(len, domains.values())) > len(domains):
        return None
    return tuple([domains[var][0] for var in csp.variables])


def _push_children(stack: list[Entry], node: Node, domains: Domains, var: int, values: tuple[int, ...]) -> None:
    """One child per value, the preferred (first) value pushed last so it is popped first."""
    rest = {v: domains[v] for v in node.domains if v != var}
    for value in reversed(values):
        stack.append((Node(node.assignment + ((var, value),), rest), var))


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
    started = time.perf_counter()
    run = _Run(observer)
    start = domains if domains is not None else csp.initial_domains()
    stack: list[Entry] = [(Node((), {var: start[var] for var in csp.variables}), None)]
    while stack:
        node, just_assigned = run.pop(stack)  # 1. pop
        current = _forward_check(csp, strategy, node.view(), just_assigned, run)  # 2. forward check
        if current is None:
            continue
        complete = complete_values(csp, current)  # 3. goal test
        if complete is not None:
            if not csp.satisfied_by(complete):
                run.dead_end(current, "goal-test")
                continue
            run.solved(complete, keep=mode != "count")
            if mode == "first":
                break
            continue
        var = strategy.select_variable(csp, current, list(node.domains))  # 4. select a variable
        values = tuple(strategy.order_values(csp, var, current))
        run.branched(var, values)
        _push_children(stack, node, current, var, values)  # 5. push one child per value
    run.stats.seconds = time.perf_counter() - started
    return SearchResult(run.solutions, run.count, run.stats)
