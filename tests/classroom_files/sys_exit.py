"""A student whose select_variable calls sys.exit(3)."""

import sys

from solvers.strategies import constraint_bounds, forward_check_once, values_ascending

forward_check = forward_check_once
order_values = values_ascending


def select_variable(csp, domains, unassigned):
    sys.exit(3)
