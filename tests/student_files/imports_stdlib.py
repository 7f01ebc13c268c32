"""A correct student whose hooks use the standard library (itertools, functools,
collections, heapq): nothing of it is refused."""

import collections
import functools
import heapq
import itertools

from model_answer import at_least_subsets, at_most_subsets
from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending  # noqa: F401

forward_check = forward_check_once
order_values = values_ascending


@functools.wraps(select_mrv)
def select_variable(csp, domains, unassigned):
    counted = collections.Counter(itertools.chain([select_mrv(csp, domains, unassigned)]))
    return heapq.nsmallest(1, counted)[0]


def at_least_clauses(lits, k):
    return list(at_least_subsets(lits, k))


def at_most_clauses(lits, k):
    return list(at_most_subsets(lits, k))
