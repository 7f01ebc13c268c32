"""A student whose forward_check is right on small inputs (the hook tests pass) but on a
full-size board (20 variables or more) spins on CPU time for far longer than any item's
limit, whatever the machine's speed: on a file of several boards, two run out of time in
forward_check and the file's later boards are not run."""

import time

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, select_mrv, values_ascending  # noqa: F401
from model_answer import forward_check_once

select_variable = select_mrv
order_values = values_ascending
SPIN_SECONDS = 3600  # of CPU: no item's limit is near it


def forward_check(csp, domains, assigned):
    if len(domains) >= 20:
        started = time.process_time()
        while time.process_time() - started < SPIN_SECONDS:
            pass
    return forward_check_once(csp, domains, assigned)
