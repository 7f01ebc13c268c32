"""A student who replaces the engine's search, everywhere it can reach, with a fake.

The fake returns 8 distinct layouts with exactly the board's mine count (10 on the course
boards) that ignore every clue. Only the grader's own check of the clues can catch it.
"""

import sys

import solvers.engine
from solvers.engine import SearchResult, SearchStats
from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending


def fake_search(csp, strategy, mode="all", observer=None, domains=None):
    n = len(csp.cells)
    mines = min(10, n)
    layouts = []
    for shift in range(8):
        values = [0] * n
        for k in range(mines):
            values[(k + shift) % n] = 1
        layouts.append(tuple(values))
    return SearchResult(layouts, len(layouts), SearchStats(popped=1))


solvers.engine.search = fake_search
for module in list(sys.modules.values()):  # the worker runs as __main__ and imported search by name
    if getattr(module, "search", None) is not None and module is not sys.modules[__name__]:
        try:
            module.search = fake_search
        except (AttributeError, TypeError):
            pass


# Part 2 (the SAT exercise): the reference subset encodings, re-exported as lists.
from model_answer import at_least_subsets, at_most_subsets  # noqa: E402


def at_least_clauses(lits, k):
    return [list(clause) for clause in at_least_subsets(lits, k)]


def at_most_clauses(lits, k):
    return [list(clause) for clause in at_most_subsets(lits, k)]
