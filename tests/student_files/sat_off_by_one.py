"""Part 1 right; part 2 with an off-by-one: groups of n - k instead of n - k + 1 literals."""

from itertools import combinations

from model_answer import at_most_subsets
from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending


def at_least_clauses(lits, k):
    if k <= 0:
        return []
    if k > len(lits):
        return [[]]
    return [list(group) for group in combinations(lits, max(len(lits) - k, 1))]


def at_most_clauses(lits, k):
    return list(at_most_subsets(lits, k))
