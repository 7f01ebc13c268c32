"""Which mine counts a connected component can hold, and one layout with a given count.

Finding one solution under a global mine count does not need the number of layouts,
only which numbers of mines each component can hold: components are solved on their
own, the counts are chosen so that they and the free cells add up to the mines left,
and only a component whose count had to change is solved again, for that count.

`Reach.of(csp)` runs the frontier sweep of `answerkey.components.frontier` with sets
instead of polynomials, along the greedy order with the smallest estimated table
(`quick_order`: no order is measured by sweeping): each table entry is a bit mask whose bit k says that k mines
among the items seen so far reach that key (extending by x mines is a shift by x, two
ways to one key an OR), a group alone in a constraint that closes folded into the step
before it (`Stride`). Its tables are kept, so `layout(k)` walks back from the end: at each
stride, some entry before it and some numbers of mines of its groups lead to the key
chosen after it with k mines in all, and that many of each group's variables (the first
ones) are mines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product
from typing import NamedTuple

from answerkey.components.count import ComponentCounter
from answerkey.components.frontier import BUDGET, STARTS, Group, Step, estimate, groups, moves, plan, sweep_order
from answerkey.components.split import Decomposition
from answerkey.recursive import recursion_room
from solvers.csp import CSP


@dataclass(frozen=True)
class Reach:
    """The mine counts of a connected CSP (`mask`: bit k set when some layout has k mines)
    and the sweep's tables to build a layout with any of them."""

    csp: CSP
    items: tuple[Group, ...]
    strides: tuple[Stride, ...]
    tables: tuple[dict[int, int], ...]
    mask: int

    @classmethod
    def of(cls, csp: CSP, budget: int | None = BUDGET) -> Reach | None:
        """The sweep along `quick_order`; None when it runs past `budget` table entries."""
        if any(not c.scope and c.total for c in csp.constraints):
            return cls(csp, (), (), (), 0)
        order = quick_order(csp)
        folded = strides(order, plan(csp, order))
        table: dict[int, int] = {0: 1}
        tables = []
        used = 0
        for stride in folded:
            tables.append(table)
            table = _reach_step(table, stride)
            used += len(table)
            if budget is not None and used > budget:
                return None
        return cls(csp, tuple(order), tuple(folded), tuple(tables), table.get(0, 0))

    def counts(self) -> list[int]:
        """The mine counts some layout has, increasing."""
        return mine_counts(self.mask)

    def layout(self, mines: int) -> tuple[int, ...] | None:
        """A layout (value of each variable) with exactly `mines` mines, None when there is none."""
        if mines < 0 or not self.mask >> mines & 1:
            return None
        chosen = [0] * len(self.items)
        target = 0
        left = mines
        for stride, table in zip(reversed(self.strides), reversed(self.tables)):
            key, taken = _step_back(stride, table, target, left)
            for item, x in zip((stride.item, *(closer.item for closer in stride.closers)), taken):
                chosen[item] = x
            left -= sum(taken)
            target = key
        members = groups(self.csp)
        values = [0] * len(self.csp.cells)
        for (cons, _size), x in zip(self.items, chosen):
            for var in members[cons][:x]:
                values[var] = 1
        return tuple(values)


class Closer(NamedTuple):
    """A single-constraint group folded into a stride: its item in the order, its
    constraint's slot (shift) and total, and how many variables it holds."""

    item: int
    shift: int
    total: int
    size: int


class Stride(NamedTuple):
    """One step of the reach sweep: item `item` of the order (`step`, its step in the
    frontier plan) and the single-constraint groups right after it whose constraint it is
    the last shared group of (`closers`).

    Such a group has no choice left once the item is placed: it takes what its constraint
    still lacks (the item's `moves` keep that within 0..size), so the stride clears that
    constraint's slot at once instead of keeping a table with the constraint still open
    (about 40 % of the entries of a large component's sweep)."""

    item: int
    step: Step
    closers: tuple[Closer, ...]


def strides(items: Sequence[Group], steps: Sequence[Step]) -> list[Stride]:
    """The steps of `plan` along `items`, each single-constraint group that closes a
    constraint begun earlier folded into the step before it."""
    out: list[Stride] = []
    begun: set[int] = set()
    for i, ((cons, size), step) in enumerate(zip(items, steps)):
        if len(cons) == 1 and cons[0] in begun:
            ((shift, total, _left),) = step.checks
            last = out[-1]
            out[-1] = Stride(last.item, last.step, (*last.closers, Closer(i, shift, total, size)))
        else:
            out.append(Stride(i, step, ()))
        begun.update(cons)
    return out


def _step_back(stride: Stride, table: dict[int, int], target: int, left: int) -> tuple[int, tuple[int, ...]]:
    """A key of `table` (the one before `stride`) and the mines of the stride's item and
    of each closer that lead from it to `target`, with `left` mines in all from the first
    item to this stride: the key must reach `left` less those mines. One exists whenever
    `target` is reached with `left` mines (the sweep built `target` from such a key)."""
    step, closers = stride.step, stride.closers
    before = target + step.close
    bump = _kept_bump(stride)
    for x in range(min(step.size, left) + 1):
        spans = [range(max(0, closer.total - x - closer.size), closer.total - x + 1) for closer in closers]
        for reached in product(*spans):
            key = before - x * bump + sum(r << closer.shift for r, closer in zip(reached, closers))
            if key not in table:
                continue
            taken = (x, *(closer.total - r - x for r, closer in zip(reached, closers)))
            rest = left - sum(taken)
            if rest >= 0 and table[key] >> rest & 1 and x in moves(key, step):
                return key, taken
    raise AssertionError("no key before the stride reaches the key after it: the sweep's tables are inconsistent")


def _kept_bump(stride: Stride) -> int:
    """What one mine of the stride's item adds to a key: the slots of its constraints, less
    those its closers clear."""
    return stride.step.bump - sum(1 << closer.shift for closer in stride.closers)


#: `quick_order` builds and ranks the other greedy orders only when the first one's
#: `estimate` passes this: the estimate is an upper bound (on large components 5-10 times
#: the entries swept), and three more orders cost about what sweeping ten thousand
#: entries does.
RANK_ABOVE = 128_000


def quick_order(csp: CSP) -> list[Group]:
    """The sweep order of `answerkey.components.frontier` without measuring orders by
    sweeping: the row-major greedy order when its `estimate` is at most RANK_ABOVE, else
    the greedy order of STARTS with the smallest estimate."""
    members = groups(csp)
    first = sweep_order(csp, members, STARTS[0])
    if estimate(csp, first) <= RANK_ABOVE:
        return first
    return min((first, *(sweep_order(csp, members, key) for key in STARTS[1:])), key=lambda order: estimate(csp, order))


def _reach_step(table: dict[int, int], stride: Stride) -> dict[int, int]:
    """One stride of the reachability sweep: every entry extended by the numbers of mines
    the item can take (a shift of its mask each, with what the closers then take), entries
    meeting at one key joined (OR).

    What a move adds to a key and to the mine count depends only on the slots of the
    item's constraints (`Step.relevant`), so the moves are worked out once per value of
    those slots (`seen`): pairs of (what to add to the key with the closers' slots
    cleared, how many mines the stride takes)."""
    step = stride.step
    slot = step.mask
    cleared = ~sum(slot << closer.shift for closer in stride.closers)
    owed = sum(closer.total for closer in stride.closers)
    per_mine = 1 - len(stride.closers)  # x mines of the item are x fewer for each closer
    bump, close = _kept_bump(stride), step.close
    seen: dict[int, list[tuple[int, int]]] = {}
    out: dict[int, int] = {}
    for key, mask in table.items():
        moved = seen.get(key & step.relevant)
        if moved is None:
            lacking = owed - sum(key >> closer.shift & slot for closer in stride.closers)
            moved = seen[key & step.relevant] = [(x * bump - close, x * per_mine + lacking) for x in moves(key, step)]
        base = key & cleared
        for added, mines in moved:
            new = base + added
            out[new] = out.get(new, 0) | mask << mines
    return out


def mine_counts(mask: int) -> list[int]:
    """The positions of the set bits of `mask`, increasing."""
    out = []
    k = 0
    while mask:
        if mask & 1:
            out.append(k)
        mask >>= 1
        k += 1
    return out


def mask_of(ways: Sequence[int]) -> int:
    """The mine counts a table of ways holds, as a bit mask."""
    return sum(1 << k for k, count in enumerate(ways) if count)


def choose_near(masks: Sequence[int], found: Sequence[int], free: int, mines: int) -> list[int] | None:
    """A mine count for each component (bit masks `masks`) such that `free` free variables
    can hold the rest of `mines`, each as near as it can be to `found` (the counts of
    solutions already at hand, kept whenever the rest allows); None when no choice adds up."""
    if mines < 0:
        return None
    reach = [0] * (len(masks) + 1)  # bit m of reach[i]: components i.. and the free variables can hold m mines
    reach[-1] = (1 << (free + 1)) - 1
    for i in range(len(masks) - 1, -1, -1):
        for k in mine_counts(masks[i]):
            reach[i] |= reach[i + 1] << k
    if not reach[0] >> mines & 1:
        return None
    chosen = []
    for i, mask in enumerate(masks):
        k = min(
            (k for k in mine_counts(mask) if k <= mines and reach[i + 1] >> (mines - k) & 1),
            key=lambda k: (abs(k - found[i]), k),
        )
        chosen.append(k)
        mines -= k
    return chosen


def fit_mines(dec: Decomposition, found: Sequence[tuple[int, ...]]) -> list[tuple[int, ...]] | None:
    """Solutions of the components of `dec` (local order) whose mines and the free
    variables' add up to the mines left: `found` itself when the free variables can take
    the rest, otherwise the components' mine counts (`Reach`, or the branching counter
    when a sweep runs past its budget) are chosen near those of `found`, and only the
    components whose count changed get a layout with that many mines, from the sweep's
    tables. None when no choice of counts adds up."""
    counts = [sum(solution) for solution in found]
    assert dec.mines_left is not None
    if 0 <= dec.mines_left - sum(counts) <= len(dec.free):
        return list(found)
    reaches = [Reach.of(part.csp) for part in dec.components]
    counter = ComponentCounter(per_variable=False)
    with recursion_room(4 * len(dec.csp.cells)):
        masks = [r.mask if r is not None else mask_of(counter.component(part).ways) for part, r in zip(dec.components, reaches)]
        chosen = choose_near(masks, counts, len(dec.free), dec.mines_left)
        if chosen is None:
            return None
        out = list(found)
        for i, (part, reach, k) in enumerate(zip(dec.components, reaches, chosen)):
            if k == counts[i]:
                continue
            if reach is not None:
                layout = reach.layout(k)
            else:
                witness = counter.witness(part, k)
                layout = None if witness is None else tuple(witness[var] for var in part.origin)
            assert layout is not None and sum(layout) == k, "the component's mine counts promised a layout with this many"
            out[i] = layout
    return out
