"""A correct student whose hooks are slow: every call burns a fixed amount of CPU (a loop
of pure arithmetic, no sleeping), well inside the time limit on any machine, so that its
grade must not depend on how busy the machine is."""

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, select_mrv, values_ascending
from model_answer import forward_check_once as _forward_check

WORK = 20_000  # additions per call: about a millisecond


def _burn() -> int:
    total = 0
    for step in range(WORK):
        total += step
    return total


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
