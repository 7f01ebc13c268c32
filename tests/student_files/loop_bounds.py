"""A student whose constraint_bounds never returns; the other hooks are correct.

(The engine uses the student's forward_check, which does not call constraint_bounds, so
only the constraint_bounds hook test is affected.)
"""

from model_answer import forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending


def constraint_bounds(scope, domains):
    low = 0
    while True:
        low = (low + 1) % 7


# Part 2 (the SAT exercise): the reference subset encodings, re-exported as lists.
from model_answer import at_least_subsets, at_most_subsets  # noqa: E402


def at_least_clauses(lits, k):
    return [list(clause) for clause in at_least_subsets(lits, k)]


def at_most_clauses(lits, k):
    return [list(clause) for clause in at_most_subsets(lits, k)]
