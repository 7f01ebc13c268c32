"""A student whose forward check declares every node a dead end: 'no solution' everywhere."""

from model_answer import constraint_bounds, select_mrv, values_ascending  # noqa: F401

select_variable = select_mrv
order_values = values_ascending


def forward_check(csp, domains, assigned):
    return None
