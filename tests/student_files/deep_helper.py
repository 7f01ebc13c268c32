"""A student whose select_variable fails three helpers down, inside a library call."""

import statistics

from model_answer import constraint_bounds, forward_check_once, values_ascending

forward_check = forward_check_once
order_values = values_ascending


def _average(sizes):
    return statistics.mean(sizes)  # DEEP_LINE


def _spread(domains, candidates):
    return _average([len(domains[v]) for v in candidates if len(domains[v]) > 2])


def _score(csp, domains, unassigned):
    return {v: _spread(domains, unassigned) for v in unassigned}


def select_variable(csp, domains, unassigned):
    scores = _score(csp, domains, unassigned)
    return min(scores, key=scores.get)


# Part 2 (the SAT exercise): the reference subset encodings, re-exported as lists.
from model_answer import at_least_subsets, at_most_subsets  # noqa: E402


def at_least_clauses(lits, k):
    return [list(clause) for clause in at_least_subsets(lits, k)]


def at_most_clauses(lits, k):
    return [list(clause) for clause in at_most_subsets(lits, k)]
