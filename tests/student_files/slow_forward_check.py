"""A correct student whose forward_check is far too slow on full-size boards: each call with
20 variables or more burns CPU until three times the test's 2 s limit has passed (a loop on
`time.process_time()`, so no machine is fast enough to finish it), then answers right; the
small boards of the hook tests are quick, and the other hooks too. Boards that need such a
call run out of time on every machine, and the next step must name forward_check."""

import time

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, select_mrv, values_ascending
from model_answer import forward_check_once as _forward_check

LIMIT = 2.0  # seconds of CPU an item has in tests/test_misbehaving_students.py (--timeout 2)
BURN = 3 * LIMIT  # seconds of CPU one call on a full-size board takes: well past the limit

select_variable = select_mrv
order_values = values_ascending


def forward_check(csp, domains, assigned):
    if len(domains) >= 20:
        started = time.process_time()
        while time.process_time() - started < BURN:
            pass
    return _forward_check(csp, domains, assigned)


__all__ = ["at_least_clauses", "at_most_clauses", "constraint_bounds", "forward_check", "order_values", "select_variable"]
