"""A student whose constraint_bounds starts a child process that sleeps, then loops (or returns).
The test writes the sleep argument (unique per run) and the mode ("loop" or "return") into
its copy of this file.
"""

import subprocess

from model_answer import forward_check_once, select_mrv, values_ascending
from model_answer import constraint_bounds as _bounds

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending
_started = []


def constraint_bounds(scope, domains):
    if not _started:
        _started.append(subprocess.Popen(["sleep", "{{SLEEP}}"], start_new_session=True))
    if "{{MODE}}" == "loop":
        while True:
            pass
    return _bounds(scope, domains)


# Part 2 (the SAT exercise): the subset encodings, re-exported.
from model_answer import at_least_clauses, at_most_clauses  # noqa: E402,F401
