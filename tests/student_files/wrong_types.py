"""A student whose hooks return the wrong kinds of values."""

from model_answer import forward_check_once, select_mrv

forward_check = forward_check_once
select_variable = select_mrv


def constraint_bounds(scope, domains):
    return "low and high"


def order_values(csp, var, domains):
    return [7, 8]
