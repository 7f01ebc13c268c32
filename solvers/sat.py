"""The SAT path (seed 002): CNF encodings of the CSP, solved by Glucose 4.1 through PySAT.

CSP variable i is SAT variable i + 1; encodings may add auxiliary variables above those.
Solutions are enumerated with blocking clauses over the CSP variables only.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from itertools import combinations
from typing import Iterator, Sequence

from pysat.card import CardEnc, EncType
from pysat.formula import CNF
from pysat.solvers import Glucose4

from .csp import CSP
from .engine import Mode, SearchResult, SearchStats

Clause = list[int]

#: Encodings of "exactly k of these literals are true": the seed's subsets and PySAT's.
PYSAT_ENCODINGS = {
    "seqcounter": EncType.seqcounter,
    "totalizer": EncType.totalizer,
    "cardnetwork": EncType.cardnetwrk,
    "sortnetwork": EncType.sortnetwrk,
    "kmtotalizer": EncType.kmtotalizer,
}
ENCODINGS = ("subsets", *PYSAT_ENCODINGS)
DEFAULT_ENCODING = "seqcounter"


def at_least_subsets(lits: Sequence[int], k: int) -> Iterator[Clause]:
    """At least k true: every n-k+1 of the literals contain a true one (none needed for k <= 0)."""
    if k <= 0:
        return
    if k > len(lits):
        yield []  # the empty clause: impossible
        return
    for subset in combinations(lits, len(lits) - k + 1):
        yield list(subset)


def at_most_subsets(lits: Sequence[int], k: int) -> Iterator[Clause]:
    """At most k true: every k+1 of the literals contain a false one (none needed for k >= n)."""
    if k < 0:
        yield []
        return
    for subset in combinations(lits, k + 1):
        yield [-lit for lit in subset]


def exactly(lits: Sequence[int], k: int, encoding: str, top: int) -> tuple[list[Clause], int]:
    """Clauses saying exactly k of `lits` are true, and the highest variable they use.

    `top` is the highest variable in use so far; PySAT encodings number their auxiliary
    variables above it.
    """
    if k < 0 or k > len(lits):
        return [[]], top
    if k == 0:
        return [[-lit] for lit in lits], top
    if k == len(lits):
        return [[lit] for lit in lits], top
    if encoding == "subsets":
        return [*at_least_subsets(lits, k), *at_most_subsets(lits, k)], top
    cnf = CardEnc.equals(lits=list(lits), bound=k, top_id=top, encoding=PYSAT_ENCODINGS[encoding])
    return cnf.clauses, max(top, cnf.nv)


def encode(csp: CSP, encoding: str = DEFAULT_ENCODING) -> CNF:
    """The CNF of a CSP: one exactly-k block per constraint (the global count included)."""
    if encoding not in ENCODINGS:
        raise ValueError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")
    top = len(csp.cells)
    cnf = CNF()
    for constraint in csp.constraints:
        clauses, top = exactly([v + 1 for v in constraint.scope], constraint.total, encoding, top)
        cnf.extend(clauses)
    cnf.nv = max(cnf.nv, top, len(csp.cells))
    return cnf


@dataclass
class SatStats:
    """Glucose's counters for one run, and the size of the formula."""

    variables: int = 0
    clauses: int = 0
    conflicts: int = 0
    decisions: int = 0
    propagations: int = 0
    restarts: int = 0
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
        return SearchResult(self.solutions, self.count, SearchStats(seconds=self.stats.seconds))


def solve_cnf(cnf: CNF, n_vars: int, mode: Mode = "first") -> SatResult:
    """Solve with Glucose 4.1; for "all"/"count", block each model on the first n_vars variables."""
    started = time.perf_counter()
    stats = SatStats(variables=cnf.nv, clauses=len(cnf.clauses))
    solutions: list[tuple[int, ...]] = []
    count = 0
    if any(len(clause) == 0 for clause in cnf.clauses):
        stats.seconds = time.perf_counter() - started
        return SatResult(solutions, 0, stats)
    with Glucose4(bootstrap_with=cnf.clauses) as solver:
        for var in range(1, n_vars + 1):  # make sure every CSP variable exists in the solver
            solver.add_clause([var, -var])
        while solver.solve():
            model = solver.get_model()
            values = tuple(1 if model[i] > 0 else 0 for i in range(n_vars))
            count += 1
            if mode != "count":
                solutions.append(values)
            if mode == "first" or n_vars == 0:
                break
            solver.add_clause([-(i + 1) if v else i + 1 for i, v in enumerate(values)])
        for key, value in solver.accum_stats().items():
            setattr(stats, key, value)
    stats.seconds = time.perf_counter() - started
    return SatResult(solutions, count, stats)


def sat_solve(csp: CSP, mode: Mode = "first", encoding: str = DEFAULT_ENCODING) -> SatResult:
    """Encode `csp` and solve it with Glucose 4.1."""
    started = time.perf_counter()
    result = solve_cnf(encode(csp, encoding), len(csp.cells), mode)
    result.stats.seconds = time.perf_counter() - started
    return result
