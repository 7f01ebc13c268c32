"""A student whose forward_check never returns on boards with a mine count."""

from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

select_variable = select_mrv
order_values = values_ascending


def forward_check(csp, domains, assigned):
    if csp.constraints and csp.constraints[-1].cell is None:  # the global mine count
        while True:
            pass
    return forward_check_once(csp, domains, assigned)
