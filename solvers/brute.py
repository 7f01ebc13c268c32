"""Brute force: try every mine layout and keep the ones that meet every clue.

Only for small boards and as an independent oracle: it costs 2**n layouts (or C(n, k)
with a mine count of k). Each constraint becomes a bit mask, so a layout is checked by
counting bits.
"""

from __future__ import annotations

import time
from itertools import combinations

from .csp import CSP
from .engine import Mode, SearchResult, SearchStats


def _layouts(csp: CSP):
    """Every candidate layout as an int whose bit i is variable i; C(n, k) when a constraint covers all."""
    n = len(csp.cells)
    full = tuple(range(n))
    global_totals = [c.total for c in csp.constraints if c.scope == full]
    if global_totals and n > 0:
        k = global_totals[0]
        if not 0 <= k <= n:
            return
        for chosen in combinations(range(n), k):
            yield sum(1 << i for i in chosen)
    else:
        yield from range(1 << n)


def brute_force(csp: CSP, mode: Mode = "all") -> SearchResult:
    """Enumerate layouts; statistics count each layout examined as a node."""
    stats = SearchStats()
    started = time.perf_counter()
    masks = [(sum(1 << v for v in c.scope), c.total) for c in csp.constraints]
    n = len(csp.cells)
    solutions: list[tuple[int, ...]] = []
    count = 0
    for layout in _layouts(csp):
        stats.popped += 1
        if all((layout & mask).bit_count() == total for mask, total in masks):
            count += 1
            if mode != "count":
                solutions.append(tuple((layout >> i) & 1 for i in range(n)))
            if mode == "first":
                break
        else:
            stats.dead_ends += 1
    stats.seconds = time.perf_counter() - started
    return SearchResult(solutions, count, stats)
