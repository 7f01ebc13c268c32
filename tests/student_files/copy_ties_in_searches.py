"""A select_variable right on every hook case (small inputs) that breaks the last tie the
other way on real boards: among the smallest domains of the highest degree, the highest
variable number instead of the lowest. Its first different choice on a board comes after
the search has made some right ones; its other hooks are the model answer's."""

from model_answer import at_least_subsets, at_most_subsets
from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
order_values = values_ascending


def select_variable(csp, domains, unassigned):
    if len(domains) <= 17:
        return select_mrv(csp, domains, unassigned)
    fewest = min(len(domains[var]) for var in unassigned)
    smallest = [var for var in unassigned if len(domains[var]) == fewest]
    most = max(len(csp.constraints_of[var]) for var in smallest)
    return max(var for var in smallest if len(csp.constraints_of[var]) == most)


def at_least_clauses(lits, k):
    return list(at_least_subsets(lits, k))


def at_most_clauses(lits, k):
    return list(at_most_subsets(lits, k))
