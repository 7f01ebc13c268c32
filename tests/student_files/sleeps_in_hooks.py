"""A student whose order_values sleeps a little on every call: asleep is charged to the
item like CPU time, so on a long search it runs out of time, on any machine alike."""

import time

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
select_variable = select_mrv


def order_values(csp, var, domains):
    time.sleep(0.5)
    return values_ascending(csp, var, domains)


__all__ = ["at_least_clauses", "at_most_clauses", "constraint_bounds", "forward_check", "order_values", "select_variable"]
