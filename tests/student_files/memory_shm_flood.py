"""An attacker that keeps {{FILES}} empty files in /dev/shm (named after its own file)
from the moment its file loads; its hooks are the model answer's."""

import os

from model_answer import (  # noqa: F401
    at_least_clauses,
    at_most_clauses,
    constraint_bounds,
    forward_check,
    order_values,
    select_variable,
)

_TAG = os.path.splitext(os.path.basename(__file__))[0]
for _number in range(int("{{FILES}}")):
    try:
        os.close(os.open(f"/dev/shm/{_TAG}-{_number}", os.O_CREAT | os.O_WRONLY, 0o600))
    except OSError:
        break
