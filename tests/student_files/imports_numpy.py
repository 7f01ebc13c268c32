"""A correct student who also imports numpy (a package outside Python's standard library)."""

import numpy  # IMPORT_LINE

from model_answer import at_least_subsets, at_most_subsets
from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending
ZERO = numpy.zeros(1)


def at_least_clauses(lits, k):
    return list(at_least_subsets(lits, k))


def at_most_clauses(lits, k):
    return list(at_most_subsets(lits, k))
