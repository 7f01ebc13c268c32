"""Glucose 4.1 through PySAT: solving a CNF whose first variables are a CSP's.

CSP variable i is SAT variable i + 1 (true = mine). Solutions are enumerated with
blocking clauses over the CSP variables only, never an encoding's auxiliary variables.
The encodings themselves are in `answerkey.sat`.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Iterator, Sequence
from dataclasses import dataclass, field, replace
from itertools import product
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pysat.formula import CNF

    from .engine import Mode, SearchResult

#: The SAT solver: Glucose 4.1 in PySAT's naming.
SOLVER_NAME = "glucose4"


@dataclass
class SatStats:
    """The formula's size, Glucose's counters (summed over every call) and the times."""

    variables: int = 0
    clauses: int = 0
    conflicts: int = 0
    decisions: int = 0
    propagations: int = 0
    restarts: int = 0
    encode_seconds: float = 0.0
    solve_seconds: float = 0.0
    seconds: float = 0.0

    def as_dict(self) -> dict[str, float]:
        return dict(vars(self))


@dataclass
class SatResult:
    """Solutions (value of CSP variable i at index i), their number, and statistics."""

    solutions: list[tuple[int, ...]]
    count: int
    stats: SatStats = field(default_factory=SatStats)

    def as_search_result(self) -> SearchResult:
        """The same answer in the engine's result type (time only in the statistics)."""
        from .engine import SearchResult, SearchStats

        return SearchResult(self.solutions, self.count, SearchStats(seconds=self.stats.seconds))


def _values(model: Sequence[int], n_vars: int, free: Collection[int]) -> tuple[int, ...]:
    """CSP values from a SAT model; free variables (and any the solver never saw) are 0."""
    values = [0] * n_vars
    for lit in model[:n_vars]:
        if lit > 0 and lit - 1 not in free:
            values[lit - 1] = 1
    return tuple(values)


def solve_cnf(cnf: CNF, n_vars: int, mode: Mode = "first", free: Collection[int] = (), limit: int | None = None) -> SatResult:
    """Solve a PySAT CNF with Glucose 4.1 (see `solve_clauses`)."""
    return solve_clauses(cnf.clauses, n_vars, mode, free, limit, variables=cnf.nv)


def solve_clauses(
    clauses: list[list[int]],
    n_vars: int,
    mode: Mode = "first",
    free: Collection[int] = (),
    limit: int | None = None,
    variables: int | None = None,
) -> SatResult:
    """Solve with Glucose 4.1; "all"/"count" block each model on CSP variables 1..n_vars.

    Variables listed in `free` (CSP numbering) are left out of the blocking clauses and
    read as 0: the result is then projected onto the other variables. With `limit`, the
    enumeration stops after that many models. `variables`: the formula's number of
    variables, when known (else counted from the clauses).
    """
    from pysat.solvers import Solver

    started = time.perf_counter()
    if variables is None:
        variables = max((abs(lit) for clause in clauses for lit in clause), default=0)
    stats = SatStats(variables=max(variables, n_vars), clauses=len(clauses))
    solutions: list[tuple[int, ...]] = []
    count = 0
    free = frozenset(free)
    blocked = [var + 1 for var in range(n_vars) if var not in free]
    with Solver(name=SOLVER_NAME, bootstrap_with=clauses) as solver:
        while solver.solve():
            values = _values(solver.get_model(), n_vars, free)
            count += 1
            if mode != "count":
                solutions.append(values)
            if mode == "first" or not blocked or count == limit:
                break
            solver.add_clause([-v if values[v - 1] else v for v in blocked])
        counters = solver.accum_stats()
        for key in ("conflicts", "decisions", "propagations", "restarts"):
            setattr(stats, key, counters.get(key, 0))
    stats.solve_seconds = stats.seconds = time.perf_counter() - started
    return SatResult(solutions, count, stats)


def _layouts(base: tuple[int, ...], free: Sequence[int]) -> Iterator[tuple[int, ...]]:
    """Every way to set the `free` variables of `base`, in increasing binary order."""
    for bits in product((0, 1), repeat=len(free)):
        values = list(base)
        for var, bit in zip(free, bits):
            values[var] = bit
        yield tuple(values)


def with_free(result: SatResult, free: Sequence[int], mode: Mode) -> SatResult:
    """Undo the projection: in "all"/"count" mode each free variable doubles the solutions."""
    if not free or mode == "first":
        return result
    solutions = result.solutions
    if mode == "all":
        solutions = [values for base in solutions for values in _layouts(base, free)]
    return replace(result, solutions=solutions, count=result.count << len(free))
