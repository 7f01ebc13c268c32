"""Every variable's mine polynomial of a connected CSP, by a forward-backward frontier sweep.

`frontier_ways` (`answerkey.components.frontier`) sweeps the groups of a component in an
order and keeps, for every key (the partial sums of the open constraints), the polynomial
of the layouts of the groups seen so far. The probabilities need, for every variable, the
polynomial of the layouts in which it is a mine. Sweeping once per variable would cost n
sweeps; instead:

1. the forward sweep keeps its table before every item (`F_i`: key -> polynomial of the
   layouts of items 0..i-1 reaching that key);
2. a backward pass, from the last item to the first, builds `B_i`: for every key of
   `F_i`, the polynomial of the layouts of items i.. that complete it (every constraint
   meeting its total);
3. a variable of item i (a group of g variables) is a mine in C(g - 1, x - 1) of the
   C(g, x) ways the item holds x mines. So while B_i is built, each key s of F_i also
   gets its completions with those weights instead (`marked`: the layouts of items i..
   completing s with a given variable of item i a mine), and the variable's polynomial
   is the sum over the keys s of `F_i[s] * marked[s]`.

That is about twice the forward sweep's additions, plus one product of two polynomials
per entry of its tables. Polynomials are packed into integers (GMP ones on large
components: `answerkey.components.gmp`; coefficient k at bit k * width), so a sum is one
addition and a product one multiplication: the width is the bits of the component's
number of layouts plus one, which every coefficient of a product stays below (each counts
distinct layouts of the whole component). Entries of `F_i` that no layout completes may
overflow it, but they meet only empty completions (an entry whose successors have no
completion has none itself).
"""

from __future__ import annotations

from math import comb

from answerkey.components.frontier import BUDGET, Step, best_order, divide_out, extend, groups, moves_by_slots, plan, step_table, unpack, work
from answerkey.components.gmp import gmp_for
from solvers.csp import CSP

Poly = tuple[int, ...]

#: The forward tables are kept for the backward pass: past this many bits of packed
#: polynomials (4 GiB) the sweep gives up and the caller branches instead.
KEPT_BITS = 2**35


def frontier_marginals(csp: CSP, budget: int | None = BUDGET) -> tuple[Poly, tuple[Poly, ...]] | None:
    """(`ways`, every variable's mine polynomial) of a connected CSP, by the forward-backward
    sweep along `best_order`; None when every order runs past `budget` table entries or the
    kept tables past KEPT_BITS.
    Variables of one group share one polynomial (the same tuple)."""
    n = len(csp.cells)
    if any(not c.scope and c.total for c in csp.constraints):
        return (), tuple(() for _ in range(n))
    chosen = best_order(csp, budget)
    if chosen is None:
        return None
    order, total = chosen
    if not total:
        return (), tuple(() for _ in range(n))
    width = total.bit_length() + 1
    steps = plan(csp, order)
    before: list[tuple[dict[int, int], int]] = []  # F_i and its base
    one = gmp_for(1, work(csp, order, width))
    table: dict[int, int] = {0: one}
    base = kept = 0
    for step in steps:
        before.append((table, base))
        kept += sum(poly.bit_length() for poly in table.values())
        if kept > KEPT_BITS:
            return None
        table = step_table(table, step, width)
        base += divide_out(table, width)
    ways = (0,) * base + unpack(table[0], width)
    members = groups(csp)
    mines: list[Poly] = [()] * n
    after: dict[int, int] = {0: one}  # B_{i+1}, keyed as F_{i+1}
    after_base = 0
    for i in range(len(steps) - 1, -1, -1):
        step = steps[i]
        forward, forward_base = before[i]
        back, packed = _back_step(forward, after, step, width)
        poly_i = (0,) * (forward_base + after_base) + unpack(packed, width) if packed else ()
        for var in members[order[i][0]]:
            mines[var] = poly_i
        after_base += divide_out(back, width) if back else 0
        after = back
    return ways, tuple(mines)


def _back_step(forward: dict[int, int], after: dict[int, int], step: Step, width: int) -> tuple[dict[int, int], int]:
    """B_i from B_{i+1} (`after`), and the packed polynomial of the layouts in which a given
    variable of item i is a mine.

    A key of F_i is completed by the item's x mines in C(g, x) ways, then a completion of
    the key it leads to; in C(g - 1, x - 1) of those ways a given variable of the item is a
    mine (`marked`). That variable's polynomial is the sum over the keys of F_i of (the
    key's polynomial) times (its marked completions): one product per key.
    """
    back: dict[int, int] = {}
    choose = [comb(step.size, x) for x in range(step.size + 1)]
    marks = [0, *(comb(step.size - 1, x - 1) for x in range(1, step.size + 1))]
    mine = 0
    span = moves_by_slots(step)
    for key, poly in forward.items():
        completions = marked = 0
        for x in span(key):
            tail = after.get(extend(key, x, step))
            if tail is not None:
                tail <<= x * width
                completions += tail * choose[x] if choose[x] > 1 else tail
                if x:
                    marked += tail * marks[x] if marks[x] > 1 else tail
        if completions:
            back[key] = completions
        if marked:
            mine += poly * marked
    return back, mine
