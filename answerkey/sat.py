"""The SAT path: CNF encodings of the CSP, solved by Glucose 4.1 through PySAT.

Numbering: CSP variable i is SAT variable i + 1 (true = mine); an encoding may add
auxiliary variables above those. Every constraint "these cells sum to k" (the clues and,
when the board has one, the global mine count) becomes one "exactly k of n" block:

- `subsets`, the seed's encoding: at least k true = every n-k+1 of the literals hold a
  true one; at most k true = every k+1 of them hold a false one. No auxiliary variables,
  but C(n, k-1) + C(n, k+1) clauses, so it is refused for large scopes;
- PySAT's cardinality encodings (`seqcounter`, `totalizer`, `cardnetwork`,
  `sortnetwork`, `kmtotalizer`), which add auxiliary variables;
- `auto` (the default): subsets for every clue-sized scope (at most 8 cells, so at most
  112 clauses and no auxiliary variables), otherwise whichever of `subsets`, `seqcounter`
  and `cardnetwork` has fewest clauses: seqcounter for a middling mine count, a
  cardinality network (n log^2 k clauses) for a large one.

Solutions are enumerated with blocking clauses over the CSP variables only, never the
auxiliaries, so a count is the number of mine layouts, as the search engine counts them.
A variable in no constraint (an unknown cell next to no clue) is left out of the blocking
clauses and multiplied back in (2 layouts each) by `sat_solve`.
"""

from __future__ import annotations

import io
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations
from math import comb
from typing import TYPE_CHECKING

from solvers.board import cell_name
from solvers.csp import CSP
from solvers.glucose import SatResult, SatStats, solve_cnf, with_free

if TYPE_CHECKING:
    from pysat.formula import CNF

    from solvers.engine import Mode

Clause = list[int]

#: PySAT's cardinality encodings that can say "exactly k": the names we use, and theirs in
#: `pysat.card.EncType` (PySAT is imported only when a formula is built: start-up).
PYSAT_ENCODINGS: dict[str, str] = {
    "seqcounter": "seqcounter",
    "totalizer": "totalizer",
    "cardnetwork": "cardnetwrk",
    "sortnetwork": "sortnetwrk",
    "kmtotalizer": "kmtotalizer",
}
ENCODINGS: tuple[str, ...] = ("subsets", *PYSAT_ENCODINGS, "auto")


def pysat_encoding(name: str) -> int:
    """PySAT's constant for one of PYSAT_ENCODINGS."""
    from pysat.card import EncType

    return int(getattr(EncType, PYSAT_ENCODINGS[name]))


#: The default encoding: fastest to read, encode and solve in bench/sat_large.py and on
#: the course boards (see bench/README.md).
DEFAULT_ENCODING = "auto"

#: Largest number of clauses the subset encoding may spend on one constraint.
MAX_SUBSET_CLAUSES = 500_000

#: Scopes up to this size count as small: every clue's (at most 9 cells). Their
#: encodings are computed once and remembered.
SMALL_SCOPE = 16

#: `auto` always takes the subset encoding for scopes up to this size (a clue's 8 neighbours):
#: fewer clauses elsewhere come with auxiliary variables, and on a large component those
#: cost Glucose far more than they save (a 24,418-cell component of a 256x256 board:
#: 2.7 s with seqcounter blocks for 6-8-cell scopes, 0.4 s with subsets; bench/cliff.py).
CLUE_SCOPE = 8

#: `auto` only builds a subset or seqcounter encoding to compare when it is about this small.
AUTO_SIZE_LIMIT = 20_000


class EncodingError(ValueError):
    """An unknown encoding, or a constraint too large for the subset encoding."""


def check_encoding(encoding: str) -> None:
    """EncodingError unless `encoding` is one of ENCODINGS."""
    if encoding not in ENCODINGS:
        raise EncodingError(f"unknown encoding {encoding!r}; choose one of {', '.join(ENCODINGS)}")


# --- the seed's subset encoding -------------------------------------------------------


def at_least_subsets(lits: Sequence[int], k: int) -> Iterator[Clause]:
    """At least k of `lits` true: every n-k+1 of them hold a true one.

    Nothing for k <= 0 (always true); the empty clause for k > n (impossible).
    """
    if k > len(lits):
        yield []
    elif k > 0:
        yield from (list(subset) for subset in combinations(lits, len(lits) - k + 1))


def at_most_subsets(lits: Sequence[int], k: int) -> Iterator[Clause]:
    """At most k of `lits` true: every k+1 of them hold a false one.

    The empty clause for k < 0 (impossible); nothing for k >= n (always true).
    """
    if k < 0:
        yield []
    else:
        yield from ([-lit for lit in subset] for subset in combinations(lits, k + 1))


def subset_clause_count(n: int, k: int) -> int:
    """How many clauses the subset encoding of "exactly k of n" has (for 0 <= k <= n)."""
    return comb(n, n - k + 1) + comb(n, k + 1)


Template = tuple[tuple[tuple[int, ...], ...], int]
"""Clauses of "exactly k of the literals 1..n" (auxiliaries n+1..n+a) and a."""


def _build_template(n: int, k: int, encoding: str) -> Template:
    """An encoding of exactly k of 1..n (0 < k < n) with its auxiliaries numbered from n+1."""
    lits = range(1, n + 1)
    if encoding == "subsets":
        size = subset_clause_count(n, k)
        if size > MAX_SUBSET_CLAUSES:
            raise EncodingError(
                f"the subset encoding of exactly {k} of {n} cells needs {size:,} clauses "
                f"(limit {MAX_SUBSET_CLAUSES:,}); use another encoding, e.g. cardnetwork"
            )
        return tuple(tuple(c) for c in (*at_least_subsets(lits, k), *at_most_subsets(lits, k))), 0
    from pysat.card import CardEnc

    cnf = CardEnc.equals(lits=list(lits), bound=k, top_id=n, encoding=pysat_encoding(encoding))
    return tuple(tuple(clause) for clause in cnf.clauses), max(cnf.nv - n, 0)


_small_template = lru_cache(maxsize=None)(_build_template)
_big_template = lru_cache(maxsize=4)(_build_template)


def _template(n: int, k: int, encoding: str) -> Template:
    """`_build_template`, remembered: every clue-sized one, and the last few larger ones."""
    return (_small_template if n <= SMALL_SCOPE else _big_template)(n, k, encoding)


def _instantiate(template: Template, lits: Sequence[int], top: int) -> tuple[list[Clause], int]:
    """A template with input i renamed to lits[i-1] and its auxiliaries numbered from top+1.

    For PySAT's encodings this gives the very clauses it produces for `lits` with `top_id=top`.
    """
    clauses, aux = template
    rename = (0, *lits, *range(top + 1, top + aux + 1))
    return [[rename[lit] if lit > 0 else -rename[-lit] for lit in clause] for clause in clauses], top + aux


@cache
def _auto_encoding(n: int, k: int) -> str:
    """`auto`'s choice for exactly k of n (0 < k < n): subsets for a clue-sized scope
    (n <= CLUE_SCOPE), else the candidate with fewest clauses.

    Candidates, ties going to the first: subsets and seqcounter, unless their size
    (C(n, k-1) + C(n, k+1), about 4 n min(k, n-k)) says they are large; cardnetwork.
    """
    if n <= CLUE_SCOPE:
        return "subsets"
    candidates = [
        *(["subsets"] if subset_clause_count(n, k) <= AUTO_SIZE_LIMIT else []),
        *(["seqcounter"] if 4 * n * min(k, n - k) <= AUTO_SIZE_LIMIT else []),
        "cardnetwork",
    ]
    return min(candidates, key=lambda encoding: len(_template(n, k, encoding)[0]))


# --- the formula ------------------------------------------------------------------------


def exactly(lits: Sequence[int], k: int, encoding: str, top: int) -> tuple[list[Clause], int]:
    """Clauses saying exactly k of `lits` are true, and the highest variable now in use.

    `top` is the highest variable in use so far; auxiliary variables are numbered above
    it. k < 0 or k > n gives the empty clause; k = 0 and k = n give unit clauses.
    """
    check_encoding(encoding)
    n = len(lits)
    if k < 0 or k > n:
        return [[]], top
    if k == 0 or k == n:
        return [[lit if k else -lit] for lit in lits], top
    if encoding == "auto":
        encoding = _auto_encoding(n, k)
    return _instantiate(_template(n, k, encoding), lits, top)


def encode(csp: CSP, encoding: str = DEFAULT_ENCODING) -> CNF:
    """The CNF of a CSP: one exactly-k block per constraint, the global count included."""
    from pysat.formula import CNF

    check_encoding(encoding)
    top = len(csp.cells)
    clauses: list[Clause] = []
    for constraint in csp.constraints:
        block, top = exactly([var + 1 for var in constraint.scope], constraint.total, encoding, top)
        clauses.extend(block)
    cnf = CNF()
    cnf.clauses, cnf.nv = clauses, top
    return cnf


def variable_comments(csp: CSP) -> list[str]:
    """DIMACS comment lines naming the cell of every CSP variable (rows/cols from 1)."""
    return [f"c var {var + 1} = {cell_name(cell)}" for var, cell in enumerate(csp.cells)]


def free_variables(csp: CSP) -> tuple[int, ...]:
    """CSP variables in no constraint: either value works, whatever the others are."""
    return tuple(var for var in csp.variables if not csp.constraints_of[var])


@dataclass(frozen=True)
class Encoded:
    """A CSP's CNF under one encoding, its free variables, and how long encoding took."""

    csp: CSP
    cnf: CNF
    encoding: str
    free: tuple[int, ...]
    seconds: float

    def dimacs(self) -> str:
        """The CNF in DIMACS: comments (encoding, one per CSP variable), `p cnf V C`, clauses."""
        header = [
            f"c Minesweeper CSP, encoding {self.encoding}: SAT variable v is the cell of CSP variable v - 1,",
            "c true = mine; rows and columns count from 1; higher variables are auxiliary",
        ]
        out = io.StringIO()
        self.cnf.to_fp(out, comments=header + variable_comments(self.csp))
        return out.getvalue()


def encode_csp(csp: CSP, encoding: str = DEFAULT_ENCODING) -> Encoded:
    """`encode`, timed, with the CSP's free variables."""
    started = time.perf_counter()
    cnf = encode(csp, encoding)
    return Encoded(csp, cnf, encoding, free_variables(csp), time.perf_counter() - started)


def solve_encoded(encoded: Encoded, mode: Mode = "first", project: bool = False) -> SatResult:
    """Solve an encoded CSP with Glucose 4.1.

    By default solutions and counts are the search engine's: one per mine layout of every
    variable. With `project`, free variables are read as 0 and solutions differ on the
    constrained variables only: one per board as the 'R C' format prints it (free cells as '?').
    """
    result = solve_cnf(encoded.cnf, len(encoded.csp.cells), mode, encoded.free)
    if not project:
        result = with_free(result, encoded.free, mode)
    result.stats.encode_seconds = encoded.seconds
    result.stats.seconds = encoded.seconds + result.stats.solve_seconds
    return result


def sat_solve(csp: CSP, mode: Mode = "first", encoding: str = DEFAULT_ENCODING) -> SatResult:
    """Encode `csp` and solve it with Glucose 4.1: one solution, all of them, or their number.

    Solutions and counts are the search engine's: one per mine layout of every variable.
    """
    return solve_encoded(encode_csp(csp, encoding), mode)


def solve_first(csp: CSP, encoding: str = DEFAULT_ENCODING) -> SatResult:
    """One solution with Glucose 4.1, free variables read as 0 (the '?' cells of the 'R C' format).

    The board is split first: the fixpoint bound rule decides what it can and Glucose
    solves the CNF of each independent component on its own
    (`answerkey.components.split.decompose`), so a large board costs what its components
    cost (one CNF of a whole 256x256 board takes Glucose 20 s: bench/cliff.py).
    Statistics add up over the components. With a global mine count the cells in no clue
    take the mines left over; when they cannot, the mine counts each component can hold
    are found by a sweep and chosen to add up (`answerkey.components.reach.fit_mines`),
    and a component whose count had to change takes a layout with that count from the
    sweep's tables. Glucose is never handed a count: over the whole board it took 11 s on
    a 32x32 game position, and "exactly k of a component's cells" 10 s on a component of
    a 64x64 board, where the sweep takes milliseconds.
    """
    from answerkey.components.reach import fit_mines
    from answerkey.components.split import decompose, lift

    started = time.perf_counter()
    stats = SatStats()

    def solve_part(part_csp: CSP) -> tuple[int, ...] | None:
        result = solve_encoded(encode_csp(part_csp, encoding), "first", project=True)
        _add_stats(stats, result.stats)
        return result.solutions[0] if result.count else None

    dec = decompose(csp)
    found: list[tuple[int, ...]] | None = None if dec is None else []
    for part in dec.components if dec is not None else ():
        solution = solve_part(part.csp)
        if solution is None or found is None:
            found = None
            break
        found.append(solution)
    if dec is not None and found is not None and dec.mines_left is not None:
        found = fit_mines(dec, found)
    stats.seconds = time.perf_counter() - started
    if dec is None or found is None:
        return SatResult([], 0, stats)
    values = [0] * len(csp.cells)
    for var, value in dec.decided.items():
        values[var] = value
    if dec.mines_left is not None:
        for var in dec.free[: dec.mines_left - sum(map(sum, found))]:
            values[var] = 1
    for part, solution in zip(dec.components, found):
        lift(part, solution, values)
    return SatResult([tuple(values)], 1, stats)


def _add_stats(total: SatStats, part: SatStats) -> None:
    """Add one component's formula size, Glucose counters and times to `total`."""
    for name in ("variables", "clauses", "conflicts", "decisions", "propagations", "restarts", "encode_seconds", "solve_seconds"):
        setattr(total, name, getattr(total, name) + getattr(part, name))
