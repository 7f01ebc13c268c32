"""Which mine counts a connected component can hold, and one layout with a given count.

Finding one solution under a global mine count does not need the number of layouts,
only which numbers of mines each component can hold: components are solved on their
own, the counts are chosen so that they and the free cells add up to the mines left,
and only a component whose count had to change is solved again, for that count.

`Reach.of(csp)` runs the frontier sweep of `answerkey.components.frontier` with sets
instead of polynomials, along the greedy order with the smallest estimated table
(`quick_order`: no order is measured by sweeping): each table entry is a bit mask whose bit k says that k mines
among the items seen so far reach that key (extending by x mines is a shift by x, two
ways to one key an OR). Its tables are kept, so `layout(k)` walks back from the end:
at each item, some entry before it and some x lead to the key chosen after it with k
mines in all, and x of the item's variables (the first ones) are mines.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from answerkey.components.count import ComponentCounter
from answerkey.components.frontier import BUDGET, PROBE, STARTS, Group, Step, estimate, groups, moves, plan, sweep_order
from answerkey.components.split import Decomposition
from answerkey.recursive import recursion_room
from solvers.csp import CSP


@dataclass(frozen=True)
class Reach:
    """The mine counts of a connected CSP (`mask`: bit k set when some layout has k mines)
    and the sweep's tables to build a layout with any of them."""

    csp: CSP
    items: tuple[Group, ...]
    steps: tuple[Step, ...]
    tables: tuple[dict[int, int], ...]
    mask: int

    @classmethod
    def of(cls, csp: CSP, budget: int | None = BUDGET) -> Reach | None:
        """The sweep along `quick_order`; None when it runs past `budget` table entries."""
        if any(not c.scope and c.total for c in csp.constraints):
            return cls(csp, (), (), (), 0)
        order = quick_order(csp)
        steps = plan(csp, order)
        table: dict[int, int] = {0: 1}
        tables = []
        used = 0
        for step in steps:
            tables.append(table)
            table = _reach_step(table, step)
            used += len(table)
            if budget is not None and used > budget:
                return None
        return cls(csp, tuple(order), tuple(steps), tuple(tables), table.get(0, 0))

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
        for i in range(len(self.items) - 1, -1, -1):
            step, table = self.steps[i], self.tables[i]
            key, x = next(
                (key, x)
                for x in range(min(step.size, left) + 1)
                if (key := target + step.close - x * step.bump) in table  # the key that x mines extend to `target`
                and table[key] >> (left - x) & 1
                and x in moves(key, step)
            )
            chosen[i] = x
            left -= x
            target = key
        members = groups(self.csp)
        values = [0] * len(self.csp.cells)
        for (cons, _size), x in zip(self.items, chosen):
            for var in members[cons][:x]:
                values[var] = 1
        return tuple(values)


def quick_order(csp: CSP) -> list[Group]:
    """The sweep order of `answerkey.components.frontier` without measuring orders by
    sweeping: the row-major greedy order when its `estimate` is small, else the greedy
    order of STARTS with the smallest estimate."""
    members = groups(csp)
    first = sweep_order(csp, members, STARTS[0])
    if estimate(csp, first) <= PROBE:
        return first
    return min((first, *(sweep_order(csp, members, key) for key in STARTS[1:])), key=lambda order: estimate(csp, order))


def _reach_step(table: dict[int, int], step: Step) -> dict[int, int]:
    """One item of the reachability sweep: every entry extended by the numbers of mines the
    item can take (a shift of its mask each), entries meeting at one key joined (OR)."""
    out: dict[int, int] = {}
    bump, close = step.bump, step.close
    for key, mask in table.items():
        for x in moves(key, step):
            new = key + x * bump - close  # extend(key, x, step), inlined: the sweep's innermost loop
            out[new] = out.get(new, 0) | mask << x
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
