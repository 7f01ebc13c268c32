"""A student whose select_variable keeps a call counter in a global and changes its answer
after its 10th call: wrong on long searches and on the later hook cases. Every graded item
starts from the file as loaded, so what it gets cannot depend on the items a worker
served before, on --jobs, or on the order of a batch."""

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
order_values = values_ascending
CALLS = 0


def select_variable(csp, domains, unassigned):
    global CALLS
    CALLS += 1
    if CALLS > 10:
        return max(unassigned)
    return select_mrv(csp, domains, unassigned)


__all__ = ["at_least_clauses", "at_most_clauses", "constraint_bounds", "forward_check", "order_values", "select_variable"]
