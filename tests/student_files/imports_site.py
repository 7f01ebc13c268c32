"""A correct student who reaches for installed packages anyway: it puts the folders where
Python keeps them (the grader's own, the worker interpreter's, the system's) on
`sys.path`, then imports PyYAML (installed wherever the kit is) from there."""

import sys
import sysconfig

sys.path += ["{{SITE}}", sysconfig.get_paths()["purelib"], "/usr/lib/python3/dist-packages"]

import yaml  # noqa: E402  # IMPORT_LINE

from model_answer import at_least_subsets, at_most_subsets  # noqa: E402
from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending  # noqa: E402, F401

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending
LOADER = yaml.SafeLoader


def at_least_clauses(lits, k):
    return list(at_least_subsets(lits, k))


def at_most_clauses(lits, k):
    return list(at_most_subsets(lits, k))
