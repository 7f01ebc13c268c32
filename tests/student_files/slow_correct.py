"""A correct student whose hooks are slow: every call burns a fixed amount of CPU time (a
loop on `time.process_time()`, no sleeping, the same time on a fast machine as on a slow
one), well inside the time limit, so that its grade must not depend on how busy or how fast
the machine is."""

import time

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, select_mrv, values_ascending
from model_answer import forward_check_once as _forward_check

BURN = 0.001  # seconds of CPU per call


def _burn() -> None:
    started = time.process_time()
    while time.process_time() - started < BURN:
        pass


def forward_check(csp, domains, assigned):
    _burn()
    return _forward_check(csp, domains, assigned)


def select_variable(csp, domains, unassigned):
    _burn()
    return select_mrv(csp, domains, unassigned)


def order_values(csp, var, domains):
    _burn()
    return values_ascending(csp, var, domains)


__all__ = ["at_least_clauses", "at_most_clauses", "constraint_bounds", "forward_check", "order_values", "select_variable"]
