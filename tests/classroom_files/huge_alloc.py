"""A student whose constraint_bounds asks for 8 GiB."""

from solvers.strategies import forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending


def constraint_bounds(scope, domains):
    scratch = bytearray(8 * 1024**3)
    return len(scratch), 0
