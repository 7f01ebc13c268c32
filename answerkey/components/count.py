"""Exact solution counts and per-cell mine counts, by components (exact integers).

The key API for probabilities (the game agent's guesses)::

    counts = solution_counts(csp)            # a SolutionCounts
    counts.total                             # number of solutions (an exact int)
    counts.mines[v]                          # solutions in which variable v is a mine
    counts.probability(v)                    # Fraction(mines[v], total): exact
    counts.by_cell()                         # {cell: mines} for every variable's cell
    counts.cell_probabilities()              # {cell: Fraction}

`mines[v] / total` is the exact probability that cell `csp.cells[v]` holds a mine when
every solution is equally likely, which is the case in a game whose layout was drawn
uniformly among those with the board's mine count (`Board.mines`, the CSP's global
constraint). It covers every variable: decided ones (0 or `total`), cells in clue
constraints, and free cells touched by no clue.

How it is computed:

1. `answerkey.components.split.decompose`: fixpoint forward checking, then the undecided
   variables split into independent components (the global count ignored).
2. Each component gets a `Table`: for every k, how many of its layouts have k mines
   (`ways[k]`), and for each of its variables how many of those have it as a mine.
   Small components are enumerated with the engine (`search` with `REFERENCE`);
   components of SWEEP_SIZE variables or more are swept (`answerkey.components.frontier`
   for the ways alone, the forward-backward sweep of `answerkey.components.marginals`
   with per-variable counts); others, and those whose sweep runs past its budget, branch
   on a variable, propagate, split again and recurse, with a cache of sub-problems (equal
   residual constraints over equal variables give equal tables).
3. Tables are convolved (`Convolution`): each trimmed to the window of mine counts it
   can hold, F free variables entering through the binomials C(F, M - decided - m) of
   that window alone; with a global count M the total is sum over m of
   ways[m] * C(F, M - decided - m); without one it is the product of the component
   totals times 2**F.
"""

from __future__ import annotations

import operator
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache
from math import comb, prod
from typing import TYPE_CHECKING

from answerkey.components.frontier import BUDGET, frontier_ways
from answerkey.components.gmp import gmp_for
from answerkey.components.marginals import frontier_marginals
from answerkey.components.split import Decomposition, Part, branch_variable, condition, decompose, with_mine_count
from answerkey.fastsearch import search
from answerkey.recursive import recursion_room
from answerkey.strategies import REFERENCE
from solvers.board import Cell
from solvers.csp import CSP

if TYPE_CHECKING:
    from fractions import Fraction

Poly = tuple[int, ...]
"""Coefficient k: a number of layouts with k mines. Trailing zeros are allowed; () is zero."""

#: Components with at most this many variables are enumerated with the engine.
LEAF_SIZE = 8

#: Components with at least this many variables are counted by the frontier sweep of
#: `answerkey.components.frontier` (`answerkey.components.marginals` with per-variable
#: counts); branching is the fallback.
SWEEP_SIZE = 24


def poly_add(a: Poly, b: Poly) -> Poly:
    """The sum of two polynomials."""
    if len(a) < len(b):
        a, b = b, a
    return tuple(x + y for x, y in zip(a, b)) + a[len(b) :]


def poly_mul(a: Poly, b: Poly, limit: int | None = None) -> Poly:
    """The product of two polynomials, without coefficients above degree `limit` when given."""
    if not a or not b:
        return ()
    if limit is None and not any(b[:-1]):  # b is c * x**d: a shift
        c, d = b[-1], len(b) - 1
        return (0,) * d + (a if c == 1 else tuple(c * x for x in a))
    size = len(a) + len(b) - 1 if limit is None else min(len(a) + len(b) - 1, limit + 1)
    out = [0] * size
    for i, x in enumerate(a):
        if x and i < size:
            for j, y in enumerate(b[: size - i]):
                out[i + j] += x * y
    return tuple(out)


def monomial(degree: int, coefficient: int = 1) -> Poly:
    """coefficient * x**degree."""
    return (0,) * degree + (coefficient,)


@cache
def binomials(n: int) -> Poly:
    """Ways to put j mines on n free variables: C(n, j) for j = 0..n (each row built once)."""
    row = [1]
    for j in range(n):
        row.append(row[-1] * (n - j) // (j + 1))
    return tuple(row)


@dataclass(frozen=True)
class Table:
    """The layouts of some variables, grouped by their number of mines.

    `ways[k]`: layouts with k mines. `mines[i][k]`: those in which `variables[i]` is a mine
    (None when per-variable counts were not asked for).
    """

    variables: tuple[int, ...]
    ways: Poly
    mines: tuple[Poly, ...] | None

    @property
    def total(self) -> int:
        return sum(self.ways)


def table_product(tables: Sequence[Table], per_variable: bool) -> Table:
    """The table of disjoint variable sets side by side (a convolution).

    A variable's mine polynomial is its own times the product of every *other* table's
    ways, computed with prefix and suffix products.
    """
    ways_list = [t.ways for t in tables]
    prefix: list[Poly] = [(1,)]
    for ways in ways_list:
        prefix.append(poly_mul(prefix[-1], ways))
    variables = tuple(var for t in tables for var in t.variables)
    if not per_variable:
        return Table(variables, prefix[-1], None)
    suffix: list[Poly] = [(1,)]
    for ways in reversed(ways_list):
        suffix.append(poly_mul(suffix[-1], ways))
    suffix.reverse()
    mines: list[Poly] = []
    for index, table in enumerate(tables):
        others = poly_mul(prefix[index], suffix[index + 1])
        assert table.mines is not None
        done: dict[int, Poly] = {}  # variables often share one polynomial (free and decided ones): multiply it once
        for poly in table.mines:
            if id(poly) not in done:
                done[id(poly)] = poly_mul(poly, others)
            mines.append(done[id(poly)])
    return Table(variables, prefix[-1], tuple(mines))


def reorder(table: Table, variables: tuple[int, ...]) -> Table:
    """The same table with its variables listed in the order `variables`."""
    if table.variables == variables or table.mines is None:
        return Table(variables, table.ways, table.mines)
    position = {var: i for i, var in enumerate(table.variables)}
    return Table(variables, table.ways, tuple(table.mines[position[var]] for var in variables))


def table_sum(a: Table, b: Table) -> Table:
    """Two tables over the same variables (same order) for disjoint sets of layouts."""
    mines = None if a.mines is None or b.mines is None else tuple(map(poly_add, a.mines, b.mines))
    return Table(a.variables, poly_add(a.ways, b.ways), mines)


def decided_table(values: dict[int, int], per_variable: bool) -> Table:
    """The single layout of variables whose values are known."""
    variables = tuple(values)
    ways = monomial(sum(values.values()))
    mines = tuple(ways if values[var] else () for var in variables) if per_variable else None
    return Table(variables, ways, mines)


def free_table(variables: tuple[int, ...], per_variable: bool) -> Table:
    """Variables in no constraint: C(F, j) layouts with j mines; each is a mine in C(F-1, j-1)."""
    ways = binomials(len(variables))
    mine_poly = (0, *binomials(len(variables) - 1)) if variables else ()
    return Table(variables, ways, tuple(mine_poly for _ in variables) if per_variable else None)


@dataclass
class CountStats:
    """What a count cost: branching nodes, components enumerated by the engine or counted by
    the frontier sweep (`swept`), cache hits."""

    nodes: int = 0
    engine_leaves: int = 0
    engine_nodes: int = 0
    swept: int = 0
    cache_hits: int = 0
    components: int = 0
    largest_component: int = 0
    seconds: float = 0.0


@dataclass
class ComponentCounter:
    """Counts the layouts of components, by number of mines, with a sub-problem cache.

    `leaf_size`: components with at most this many variables are enumerated with the
    engine; larger ones are split by branching. `per_variable`: also count, for every
    variable, the layouts in which it is a mine. Components of at least `sweep_size`
    variables are counted by the frontier sweep first (forward-backward with per-variable
    counts), within `sweep_budget` table entries (`answerkey.components.frontier`).
    """

    per_variable: bool = True
    leaf_size: int = LEAF_SIZE
    sweep_size: int = SWEEP_SIZE
    sweep_budget: int | None = BUDGET
    stats: CountStats = field(default_factory=CountStats)
    cache: dict[object, Table] = field(default_factory=dict)

    def component(self, part: Part) -> Table:
        """The table of a connected part at its fixpoint (every variable undecided)."""
        key = part.key()
        cached = self.cache.get(key)
        if cached is not None:
            self.stats.cache_hits += 1
            return cached
        if len(part.origin) <= self.leaf_size:
            table = self._enumerate(part)
        elif (swept := self._sweep(part)) is not None:
            table = swept
        else:
            self.stats.nodes += 1
            var = branch_variable(part.csp)
            table = table_sum(self._branch(part, var, 0), self._branch(part, var, 1))
        self.cache[key] = table
        return table

    def witness(self, part: Part, mines: int) -> dict[int, int] | None:
        """One layout of a connected part with exactly `mines` mines, or None if it has none.

        Follows the branches of the count (same variable, same order), guided by the
        tables, which are cached: each level picks a value and splits the mines among
        the new components (`choose_counts`) without searching. Free variables take
        their mines lowest-numbered first.
        """
        ways = self.component(part).ways
        if not 0 <= mines < len(ways) or not ways[mines]:
            return None
        if len(part.origin) <= self.leaf_size:
            result = search(with_mine_count(part.csp, mines), REFERENCE, "first")
            return dict(zip(part.origin, result.solutions[0]))
        var = branch_variable(part.csp)
        for value in (0, 1):
            conditioned = condition(part, var, value)
            if conditioned is None:
                continue
            decided, children, free = conditioned
            left = mines - sum(decided.values())
            counts = choose_counts([self.component(child).ways for child in children], len(free), left)
            if counts is None:
                continue
            layout = dict(decided)
            for child, k in zip(children, counts):
                found = self.witness(child, k)
                assert found is not None, "a table promised this many mines"
                layout.update(found)
            spare = left - sum(counts)
            layout.update((var, int(i < spare)) for i, var in enumerate(free))
            return layout
        raise AssertionError("the table promised a layout with this many mines")

    def _enumerate(self, part: Part) -> Table:
        """Every solution of a small part, from the engine, tallied by number of mines."""
        result = search(part.csp, REFERENCE, "all")
        self.stats.engine_leaves += 1
        self.stats.engine_nodes += result.stats.popped
        n = len(part.origin)
        ways = [0] * (n + 1)
        mines = [[0] * (n + 1) for _ in range(n)] if self.per_variable else []
        for values in result.solutions:
            k = sum(values)
            ways[k] += 1
            for i, value in enumerate(values):
                if value and self.per_variable:
                    mines[i][k] += 1
        return Table(part.origin, tuple(ways), tuple(map(tuple, mines)) if self.per_variable else None)

    def _sweep(self, part: Part) -> Table | None:
        """A large part's table by the frontier sweep (`answerkey.components.frontier`; with
        per-variable counts the forward-backward sweep of `answerkey.components.marginals`);
        None when the part is small or the sweep runs past its budget (the part is then
        branched on)."""
        if len(part.origin) < self.sweep_size:
            return None
        if self.per_variable:
            swept = frontier_marginals(part.csp, self.sweep_budget)
            if swept is None:
                return None
            self.stats.swept += 1
            return Table(part.origin, swept[0], swept[1])
        ways = frontier_ways(part.csp, self.sweep_budget)
        if ways is None:
            return None
        self.stats.swept += 1
        return Table(part.origin, ways, None)

    def _branch(self, part: Part, var: int, value: int) -> Table:
        """The table of `part`'s layouts with local variable `var` set to `value`."""
        conditioned = condition(part, var, value)
        if conditioned is None:
            return Table(part.origin, (), tuple(() for _ in part.origin) if self.per_variable else None)
        decided, children, free = conditioned
        pieces = [decided_table(decided, self.per_variable)]
        pieces += [self.component(child) for child in children]
        if free:
            pieces.append(free_table(tuple(free), self.per_variable))
        return reorder(table_product(pieces, self.per_variable), part.origin)


@dataclass(frozen=True)
class SolutionCounts:
    """Exact counts for a whole CSP: `total` solutions; `mines[v]` of them have variable v a mine.

    `mines` is empty when the count was made with `per_variable=False`.
    """

    csp: CSP
    total: int
    mines: tuple[int, ...]
    stats: CountStats

    def probability(self, var: int) -> Fraction:
        """The exact probability that variable `var` is a mine (0 when there is no solution)."""
        from fractions import Fraction  # imported here: it costs commands start-up time

        return Fraction(self.mines[var], self.total) if self.total else Fraction(0)

    def probabilities(self) -> list[Fraction]:
        """`probability(v)` for every variable, in variable order."""
        return [self.probability(var) for var in self.csp.variables]

    def by_cell(self) -> dict[Cell, int]:
        """`mines` keyed by each variable's cell."""
        return dict(zip(self.csp.cells, self.mines))

    def cell_probabilities(self) -> dict[Cell, Fraction]:
        """`probability(v)` keyed by each variable's cell."""
        return dict(zip(self.csp.cells, self.probabilities()))


def trimmed(ways: Poly) -> tuple[int, Poly]:
    """(lo, coefficients lo..hi): a polynomial without its zero coefficients at either end
    ((0, ()) for zero). The mine counts a component can hold are a short window."""
    lo = next((k for k, x in enumerate(ways) if x), len(ways))
    hi = len(ways)
    while hi > lo and not ways[hi - 1]:
        hi -= 1
    return (lo, ways[lo:hi]) if lo < hi else (0, ())


def binomial_window(n: int, top: int, size: int) -> list[int]:
    """[C(n, top), C(n, top - 1), ..., C(n, top - size + 1)] (0 outside 0..n): one big
    binomial, then each next one from the last by a small multiplication and division."""
    out = [0] * size
    value = 0
    for j in range(size):
        k = top - j
        if not 0 <= k <= n:
            value = 0
        elif value == 0:
            value = comb(n, k)
        else:  # C(n, k) = C(n, k + 1) * (k + 1) / (n - k)
            value = value * (k + 1) // (n - k)
        out[j] = value
    return out


@dataclass(frozen=True)
class Convolution:
    """The components' tables put together under a global count: what one layout of table
    t with lo_t + a mines is worth (`weights[t][a]`, the layouts of everything else that
    complete it), the number of solutions, and how many have a given free variable a mine.

    Every table's ways are trimmed to the window of mine counts it can hold, so the
    convolutions are as long as the sum of the windows (a few dozen on a game position),
    not the mines left; the F free variables enter through one window of binomials
    C(F, L - m), never as a table of F + 1 coefficients. When the total is long the
    arithmetic is on GMP integers (`answerkey.components.gmp`), and `total`, `free_mine`
    and `weights` are ones.
    """

    lows: tuple[int, ...]
    weights: tuple[tuple[int, ...], ...]
    total: int
    free_mine: int

    @classmethod
    def of(cls, ways: Sequence[Poly], free: int, mines_left: int, per_table: bool) -> Convolution:
        cut = [trimmed(w) for w in ways]
        lows = tuple(lo for lo, _ in cut)
        span = sum(len(c) - 1 for _, c in cut) + 1  # constrained mines: base .. base + span - 1
        bits = free + sum(max(c, default=0).bit_length() for _, c in cut)  # about the total's
        polys = [tuple(gmp_for(x, span * span * bits) for x in c) for _, c in cut]  # quadratic in span
        if any(not c for c in polys):
            return cls(lows, tuple((0,) * len(c) for c in polys), 0, 0)
        base = sum(lows)
        completions = binomial_window(free, mines_left - base, span)  # j more mines than base: C(F, L - base - j)
        prefix: list[Poly] = [(1,)]
        for c in polys:
            prefix.append(poly_mul(prefix[-1], c))
        total = sum(map(operator.mul, prefix[-1], completions))
        free_mine = sum(map(operator.mul, prefix[-1], binomial_window(free - 1, mines_left - base - 1, span))) if free else 0
        weights: list[tuple[int, ...]] = []
        if per_table:
            after = completions  # after[j]: layouts of the tables after t and the free variables, j mines before them
            for index in range(len(polys) - 1, -1, -1):
                c, before = polys[index], prefix[index]
                weights.append(tuple(sum(map(operator.mul, before, after[a:])) for a in range(len(c))))
                after = [sum(map(operator.mul, c, after[j:])) for j in range(len(after) - len(c) + 1)]
            weights.reverse()
        return cls(lows, tuple(weights), total, free_mine)


def _combine(decomposition: Decomposition, tables: list[Table]) -> tuple[int, list[int]]:
    """Total solutions and per-variable mine counts of the whole CSP from its parts' tables."""
    dec = decomposition
    mines = [0] * len(dec.csp.cells)
    free = len(dec.free)
    if dec.mines_left is None:
        product = prod(t.total for t in tables)
        total = product << free
        free_mine = product << (free - 1) if free else 0
        weights: list[tuple[int, ...]] = [((product // t.total) << free,) * len(t.ways) if t.total else () for t in tables]
        lows = [0] * len(tables)
    else:
        joined = Convolution.of([t.ways for t in tables], free, dec.mines_left, per_table=True)
        total, free_mine, weights, lows = int(joined.total), int(joined.free_mine), list(joined.weights), list(joined.lows)
    for var, value in dec.decided.items():
        mines[var] = total if value else 0
    for var in dec.free:
        mines[var] = free_mine
    for table, weight, lo in zip(tables, weights, lows):
        assert table.mines is not None
        seen: dict[int, int] = {}  # variables may share one polynomial: weigh it once
        for var, poly in zip(table.variables, table.mines):
            if id(poly) not in seen:
                seen[id(poly)] = int(sum(map(operator.mul, poly[lo:], weight))) if total else 0
            mines[var] = seen[id(poly)]
    return total, mines


def solution_counts(csp: CSP, per_variable: bool = True, leaf_size: int = LEAF_SIZE, sweep_size: int = SWEEP_SIZE) -> SolutionCounts:
    """Exact number of solutions and, for each variable, the number where it is a mine.

    With `per_variable=False` only `total` is computed (about half the work of the
    per-variable count on large components) and `mines` is empty.
    """
    started = time.perf_counter()
    counter = ComponentCounter(per_variable, leaf_size, sweep_size)
    n = len(csp.cells)
    dec = decompose(csp)
    if dec is None:
        counter.stats.seconds = time.perf_counter() - started
        return SolutionCounts(csp, 0, (0,) * n if per_variable else (), counter.stats)
    counter.stats.components = len(dec.components)
    counter.stats.largest_component = max((len(p.origin) for p in dec.components), default=0)
    with recursion_room(4 * len(csp.cells)):  # a few frames per branching level
        tables = [counter.component(part) for part in dec.components]
    if per_variable:
        total, mines = _combine(dec, tables)
    else:
        total, mines = _total_only(dec, tables), []
    counter.stats.seconds = time.perf_counter() - started
    return SolutionCounts(csp, total, tuple(mines), counter.stats)


def count_solutions(csp: CSP, leaf_size: int = LEAF_SIZE) -> int:
    """Exact number of solutions (the global mine count included), by components."""
    return solution_counts(csp, False, leaf_size).total


def _total_only(dec: Decomposition, tables: list[Table]) -> int:
    """The number of solutions alone: one convolution of the trimmed tables."""
    free = len(dec.free)
    if dec.mines_left is None:
        return prod(t.total for t in tables) << free
    return int(Convolution.of([t.ways for t in tables], free, dec.mines_left, per_table=False).total)


def choose_counts(ways: Sequence[Poly], free: int, mines: int) -> list[int] | None:
    """A number of mines for each table (`ways` of each), smallest first, such that `free`
    free variables can hold the rest of `mines`; None when no choice adds up."""
    if mines < 0:
        return None
    reach = [0] * (len(ways) + 1)  # bit m of reach[i]: tables i.. and the free variables can hold m mines
    reach[-1] = (1 << (free + 1)) - 1
    for i in range(len(ways) - 1, -1, -1):
        for k, count in enumerate(ways[i]):
            if count:
                reach[i] |= reach[i + 1] << k
    if not reach[0] >> mines & 1:
        return None
    chosen = []
    for i, table in enumerate(ways):
        k = next(k for k, count in enumerate(table) if count and k <= mines and reach[i + 1] >> (mines - k) & 1)
        chosen.append(k)
        mines -= k
    return chosen
