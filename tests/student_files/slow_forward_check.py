"""A correct student whose forward_check is far too slow on full-size boards (each call
with 20 variables or more burns about 120 ms of CPU in a loop of pure arithmetic; the small
boards of the hook tests are quick), while the other hooks are quick: boards that need
many nodes run out of time, and the next step must name forward_check."""

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, select_mrv, values_ascending
from model_answer import forward_check_once as _forward_check

WORK = 5_000_000  # additions per forward_check call on a full-size board

select_variable = select_mrv
order_values = values_ascending


def forward_check(csp, domains, assigned):
    total = 0
    for step in range(WORK if len(domains) >= 20 else 0):
        total += step
    return _forward_check(csp, domains, assigned)
