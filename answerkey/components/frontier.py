"""Exact counts of a connected CSP by dynamic programming along a sweep of its cells.

`frontier_ways(csp)` gives `ways[k]`, the number of layouts with k mines, as
`answerkey.components.count` needs them, without branching:

1. Variables in exactly the same constraints form a *group*: a group of g variables takes
   j mines in C(g, j) ways, so it is one item of the sweep with values 0..g.
2. The groups in two or more constraints (*shared*) are put in a greedy order that keeps
   few constraints open (begun but not finished); a group in a single constraint comes
   right after the last shared group of that constraint, which then closes at once.
3. The sweep keeps a table: for every vector of partial sums of the open constraints (a
   key, packed into one integer: `Step`), the polynomial (in the mine count) of the
   layouts of the items seen so far that reach it.
   A partial sum outside what the constraint's remaining variables can make up is
   dropped; a constraint whose last item is seen must have met its total exactly.

Polynomials are packed into one big integer each (a GMP integer on large components:
`answerkey.components.gmp`), coefficient k at bit k * width, so adding two is one
integer addition (no coefficient can reach 2**width). The table's size depends on the order:
several greedy orders are measured by a cheap sweep that counts without polynomials, and
the cheapest is swept. `budget` caps the total number of table entries over a sweep,
and the caller falls back to branching (`ComponentCounter`) when every order runs past it.
"""

from __future__ import annotations

import heapq
from collections.abc import Callable, Sequence
from math import comb, prod
from typing import NamedTuple

from answerkey.components.gmp import gmp_for
from solvers.board import Cell
from solvers.csp import CSP

Group = tuple[tuple[int, ...], int]
"""The constraints (indices) of a group of variables, and how many variables it holds."""

#: Table entries (summed over the sweep) past which no order is tried and the caller branches.
BUDGET = 1_500_000

#: The first round's cap on table entries when the orders are compared (see `frontier_ways`).
PROBE = 16_000


def groups(csp: CSP) -> dict[tuple[int, ...], list[int]]:
    """The variables of `csp` grouped by the set of constraints they are in."""
    out: dict[tuple[int, ...], list[int]] = {}
    for var in csp.variables:
        out.setdefault(csp.constraints_of[var], []).append(var)
    return out


def sweep_order(csp: CSP, members: dict[tuple[int, ...], list[int]], key: Callable[[Cell], tuple[int, int]]) -> list[Group]:
    """Groups in sweep order: shared groups greedily (fewest constraints opened less closed,
    ties in `key` order of their first cell), each single-constraint group after the last
    shared group of its constraint (first, when that constraint has none)."""
    shared = sorted((cons for cons in members if len(cons) > 1), key=lambda cons: key(csp.cells[members[cons][0]]))
    ordered = _greedy(shared)
    last = {c: i for i, cons in enumerate(ordered) for c in cons}
    after: dict[int, list[Group]] = {}
    out: list[Group] = []
    for cons, variables in members.items():
        if len(cons) == 1:
            if cons[0] in last:
                after.setdefault(last[cons[0]], []).append((cons, len(variables)))
            else:
                out.append((cons, len(variables)))
    for i, cons in enumerate(ordered):
        out.append((cons, len(members[cons])))
        out.extend(after.get(i, []))
    return out


def _greedy(shared: list[tuple[int, ...]]) -> list[tuple[int, ...]]:
    """Shared groups (given in a start order) reordered to keep few constraints open: next
    is the group next to an open constraint that ranks lowest by `_score` (the first not
    done in start order when there is none).

    The candidates are kept in a heap of (score, group); a group's score changes only when
    one of its constraints opens or loses a group, and it is pushed again then (`latest`
    holds its current score), so an entry whose score is no longer the group's is stale
    and skipped."""
    left: dict[int, int] = {}
    holding: dict[int, list[int]] = {}
    for i, cons in enumerate(shared):
        for c in cons:
            left[c] = left.get(c, 0) + 1
            holding.setdefault(c, []).append(i)
    opened: set[int] = set()
    unopened = len(left) + 1  # `_score`'s fewest groups left when none of its constraints is open
    done = [False] * len(shared)
    boundary: list[tuple[tuple[int, int, int], int]] = []
    latest: dict[int, tuple[int, int, int]] = {}
    order: list[tuple[int, ...]] = []
    start = 0
    for _ in shared:
        chosen = _pop_current(boundary, latest, done)
        if chosen is None:
            while done[start]:
                start += 1
            chosen = start
        order.append(shared[chosen])
        done[chosen] = True
        for c in shared[chosen]:
            left[c] -= 1
            opened.add(c)
        for i in {i for c in shared[chosen] for i in holding[c] if not done[i]}:
            latest[i] = score = _score(shared[i], opened, left, i, unopened)
            heapq.heappush(boundary, (score, i))
    return order


def _pop_current(boundary: list[tuple[tuple[int, int, int], int]], latest: dict[int, tuple[int, int, int]], done: list[bool]) -> int | None:
    """The group of `_greedy`'s heap with the lowest current score (popped), None when the
    heap holds none: entries of groups done, or whose score has changed since, are dropped."""
    while boundary:
        score, i = heapq.heappop(boundary)
        if not done[i] and score == latest[i]:
            return i
    return None


def _score(cons: tuple[int, ...], opened: set[int], left: dict[int, int], index: int, unopened: int) -> tuple[int, int, int]:
    """A candidate's rank in `_greedy`, lowest first: constraints it opens less those it
    closes; then the fewest groups left in one of its open constraints (finish what is
    begun; `unopened` when none is); then the start order."""
    change = 0
    fewest = unopened
    for c in cons:
        groups_left = left[c]
        if c in opened:
            if groups_left < fewest:
                fewest = groups_left
        else:
            change += 1
        if groups_left == 1:
            change -= 1
    return change, fewest, index


def open_width(items: Sequence[Group]) -> int:
    """The most constraints open at once along `items` (how wide the sweep's table keys get)."""
    first: dict[int, int] = {}
    last: dict[int, int] = {}
    for i, (cons, _size) in enumerate(items):
        for c in cons:
            first.setdefault(c, i)
            last[c] = i
    change = [0] * (len(items) + 1)
    for c, i in first.items():
        change[i] += 1
        change[last[c]] -= 1
    width = most = 0
    for delta in change:
        width += delta
        most = max(most, width)
    return most


def sweep(csp: CSP, items: Sequence[Group], budget: int | None, width: int | None = None) -> tuple[int, ...] | None:
    """`ways` of `csp` along `items`, or None once the table has used more than `budget` entries.

    `width`: bits per packed coefficient, more than any count of layouts has (default: the
    number of variables plus one). An entry that no layout completes may overflow it, but
    such entries never reach the end: the bits of the number of layouts plus one suffice.
    """
    width = len(csp.cells) + 1 if width is None else width
    swept = _sweep(csp, items, budget, width)
    if swept is None:
        return None
    packed, base, _used = swept
    return (0,) * base + unpack(packed, width) if packed else ()


def probe(csp: CSP, items: Sequence[Group], budget: int | None) -> tuple[int, int] | None:
    """(table entries used, number of layouts) of the sweep along `items` (None: more than
    `budget` entries), by a sweep that counts layouts without their mines (no polynomials: cheap)."""
    swept = _sweep(csp, items, budget, 0)
    return None if swept is None else (swept[2], int(swept[0]))


class Step(NamedTuple):
    """What item i of a sweep does to the table's keys.

    A key is one integer: the partial sum of each open constraint in a slot of as many
    bits as the largest total needs (`mask`: one slot's bits). A constraint holds its
    slot from its first item to its last and leaves it at zero (free for the next
    constraint to begin), so a constraint that begins needs nothing done to the keys.
    `checks`: for each constraint of the item, (its slot's shift, its total, how many of
    its variables come after this item); `bump`: x mines of the item add x * bump to a
    key; `close`: subtracted after the item, the totals of the constraints whose last
    item it is (met exactly), in their slots; `relevant`: the bits of the slots of the
    item's constraints, all that `moves` reads of a key.
    """

    size: int
    mask: int
    checks: tuple[tuple[int, int, int], ...]
    bump: int
    close: int
    relevant: int


def plan(csp: CSP, items: Sequence[Group]) -> list[Step]:
    """The steps of a sweep along `items` (the key bookkeeping, computed once): each
    constraint takes the lowest free slot at its first item."""
    last = {c: i for i, (cons, _size) in enumerate(items) for c in cons}
    totals = [c.total for c in csp.constraints]
    bits = max(totals, default=0).bit_length() or 1
    slot = (1 << bits) - 1
    remaining = [len(c.scope) for c in csp.constraints]
    shift: dict[int, int] = {}  # open constraint -> its slot's shift
    free: list[int] = []  # shifts of freed slots (a heap)
    slots = 0
    steps = []
    for i, (cons, size) in enumerate(items):
        checks = []
        bump = close = relevant = 0
        for c in cons:
            if c not in shift:
                if free:
                    shift[c] = heapq.heappop(free)
                else:
                    shift[c], slots = slots * bits, slots + 1
            remaining[c] -= size
            checks.append((shift[c], totals[c], remaining[c]))
            bump += 1 << shift[c]
            relevant += slot << shift[c]
            if last[c] == i:
                close += totals[c] << shift[c]
        steps.append(Step(size, slot, tuple(checks), bump, close, relevant))
        for c in cons:
            if last[c] == i:
                heapq.heappush(free, shift.pop(c))
    return steps


def moves(key: int, step: Step) -> range:
    """The numbers of mines the item of `step` can take from `key`: those with which every
    constraint of the item can still meet its total."""
    low, high = 0, step.size
    for shift, total, remaining in step.checks:
        reached = key >> shift & step.mask
        if total - remaining - reached > low:
            low = total - remaining - reached
        if total - reached < high:
            high = total - reached
    return range(low, high + 1)


def moves_by_slots(step: Step) -> Callable[[int], range]:
    """`moves(key, step)` as a function of the key, worked out once per value of the
    item's slots (`Step.relevant`): many keys of a table agree there."""
    seen: dict[int, range] = {}

    def span(key: int) -> range:
        found = seen.get(key & step.relevant)
        if found is None:
            found = seen[key & step.relevant] = moves(key, step)
        return found

    return span


def extend(key: int, x: int, step: Step) -> int:
    """The key after `step` when its item takes x mines (x one of `moves(key, step)`)."""
    return key + x * step.bump - step.close


def _sweep(csp: CSP, items: Sequence[Group], budget: int | None, width: int) -> tuple[int, int, int] | None:
    """The sweep: (packed polynomial divided by x**base, base, entries used), or None past
    `budget` entries. With `width` 0 the "polynomial" is the plain number of layouts.

    After every item the table's polynomials are divided by the highest power of x that
    divides them all (`base` counts it), so packed integers hold no run of zero
    coefficients below every layout's mine count so far.
    """
    table: dict[int, int] = {0: gmp_for(1, work(csp, items, width))}
    used = base = 0
    for step in plan(csp, items):
        table = step_table(table, step, width)
        used += len(table)
        if budget is not None and used > budget:
            return None
        if width and table:
            base += divide_out(table, width)
    return table.get(0, 0), base, used


def work(csp: CSP, items: Sequence[Group], width: int) -> int:
    """About how many bit operations a sweep along `items` costs: its entries (`estimate`,
    an upper bound) times the bits of a packed polynomial (at most the variables times
    `width`; the number of layouts, at most one bit per variable, when `width` is 0)."""
    return estimate(csp, items) * len(csp.cells) * max(width, 1)


def divide_out(table: dict[int, int], width: int) -> int:
    """Divide every packed polynomial of `table` by x**m, m as large as they all allow; m
    (0 at once when some polynomial has a constant coefficient, the common case: no
    polynomial's lowest set bit is looked for)."""
    constant = (1 << width) - 1
    if any(poly & constant for poly in table.values()):
        return 0
    low = min((poly & -poly).bit_length() - 1 for poly in table.values()) // width
    if low:
        shift = low * width
        for key, poly in table.items():
            table[key] = poly >> shift
    return low


def step_table(table: dict[int, int], step: Step, width: int) -> dict[int, int]:
    """One item of the sweep: every entry extended by the numbers of mines the item can
    take (`moves`), x mines in C(size, x) ways."""
    out: dict[int, int] = {}
    weights = [comb(step.size, x) for x in range(step.size + 1)]
    bump, close = step.bump, step.close
    span = moves_by_slots(step)
    for key, poly in table.items():
        for x in span(key):
            new = key + x * bump - close  # extend(key, x, step), inlined: the sweep's innermost loop
            term = poly if weights[x] == 1 else poly * weights[x]
            out[new] = out.get(new, 0) + (term << (x * width) if x else term)
    return out


def unpack(packed: int, width: int) -> tuple[int, ...]:
    """Coefficients of a packed polynomial, lowest degree first (ints)."""
    mask = (1 << width) - 1
    ways = []
    while packed:
        ways.append(int(packed & mask))
        packed >>= width
    return tuple(ways)


def best_order(csp: CSP, budget: int | None = BUDGET) -> tuple[list[Group], int] | None:
    """A sweep order among the greedy orders of STARTS, and the number of layouts; None when
    every order runs past `budget` table entries.

    The greedy order depends on where it starts: row-major and column-major from two
    corners. The first is taken when its count-only sweep (`probe`) stays within PROBE
    entries. Otherwise all four are ranked by `estimate`, an upper bound on their table
    sizes computed without sweeping (measuring them by sweeping cost several times the
    sweep itself on 1,000-cell components), and the first in that rank whose sweep stays
    within `budget` is taken.
    """
    members = groups(csp)
    first = sweep_order(csp, members, STARTS[0])
    probed = probe(csp, first, PROBE if budget is None else min(PROBE, budget))
    if probed is not None:
        return first, probed[1]
    orders = [first, *(sweep_order(csp, members, key) for key in STARTS[1:])]
    for order in sorted(orders, key=lambda order: estimate(csp, order)):
        probed = probe(csp, order, budget)
        if probed is not None:
            return order, probed[1]
    return None


def estimate(csp: CSP, items: Sequence[Group]) -> int:
    """An upper bound on the table entries of a sweep along `items`: after each item, the
    product over the open constraints of how many partial sums each can still have."""
    last = {c: i for i, (cons, _size) in enumerate(items) for c in cons}
    totals = [c.total for c in csp.constraints]
    rest = [len(c.scope) for c in csp.constraints]  # variables of each constraint not seen yet
    seen = [0] * len(csp.constraints)
    spread: dict[int, int] = {}
    entries = 0
    for i, (cons, size) in enumerate(items):
        for c in cons:
            seen[c] += size
            rest[c] -= size
            if last[c] == i:
                spread.pop(c, None)
            else:
                total = totals[c]
                spread[c] = min(total, seen[c]) - max(0, total - rest[c]) + 1
        entries += prod(spread.values())
    return entries


def frontier_ways(csp: CSP, budget: int | None = BUDGET) -> tuple[int, ...] | None:
    """`ways[k]`: layouts of a connected CSP with k mines, swept along `best_order`; None
    when every order tried runs past `budget` table entries. A constraint over no variable
    is checked first."""
    if any(not c.scope and c.total for c in csp.constraints):
        return ()
    chosen = best_order(csp, budget)
    if chosen is None:
        return None
    order, total = chosen
    return sweep(csp, order, None, total.bit_length() + 1) if total else ()


STARTS: tuple[Callable[[Cell], tuple[int, int]], ...] = (
    lambda cell: cell,
    lambda cell: (cell[1], cell[0]),
    lambda cell: (-cell[0], -cell[1]),
    lambda cell: (-cell[1], -cell[0]),
)
"""Start orders of the greedy sweep order: row-major and column-major from two corners."""
