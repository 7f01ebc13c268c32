"""A student whose order_values shuffles the values with a seeded random stream: right
on some cases, reversed on others, which is no one mistake."""

import random

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, forward_check, select_variable  # noqa: F401

_STREAM = random.Random(7)


def order_values(csp, var, domains):
    values = list(domains[var])
    _STREAM.shuffle(values)
    return values
