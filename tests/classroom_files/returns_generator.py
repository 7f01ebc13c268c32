"""A student whose forward_check returns a generator of (variable, domain) pairs."""

from solvers.strategies import constraint_bounds, forward_check_once, select_mrv, values_ascending

select_variable = select_mrv
order_values = values_ascending


def forward_check(csp, domains, assigned):
    narrowed = forward_check_once(csp, domains, assigned)
    if narrowed is None:
        return None
    return ((var, values) for var, values in narrowed.items())
