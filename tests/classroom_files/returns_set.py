"""A student whose select_variable returns a set holding the variable."""

from solvers.strategies import constraint_bounds, forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
order_values = values_ascending


def select_variable(csp, domains, unassigned):
    return {select_mrv(csp, domains, unassigned)}
