"""A student whose constraint_bounds ends the whole process with os._exit(7)."""

import os

from solvers.strategies import forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending


def constraint_bounds(scope, domains):
    os._exit(7)
