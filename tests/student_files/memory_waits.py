"""The model answer, except that its first forward_check call waits {{SECONDS}} seconds
(while a test looks at the worker's processes from outside)."""

import time

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, order_values, select_variable  # noqa: F401
from model_answer import forward_check as _forward_check

_waited = []


def forward_check(csp, domains, assigned):
    if not _waited:
        _waited.append(True)
        time.sleep(float("{{SECONDS}}"))
    return _forward_check(csp, domains, assigned)
