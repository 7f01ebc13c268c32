"""A student that looks for the machine's files, which would carry bits between students.

It is correct, but refuses to load when it finds, from inside its worker, any of
{{ABSENT}} (files the grader never needs to show it: other folders of /usr, libraries
Python does not load) or a standard-library file whose (device, inode) is one of the
machine's own, {{INODES}} (then its reads and lookups would be cached for everyone).
"""

import os

from model_answer import at_least_subsets, at_most_subsets
from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

ABSENT = {{ABSENT}}
INODES = {{INODES}}


def _seen() -> list:
    found = [path for path in ABSENT if os.path.lexists(path)]
    for path, inode in INODES.items():
        try:
            status = os.stat(path)
        except OSError:
            found.append("no " + path)
            continue
        if status.st_ino == inode:
            found.append("the machine's " + path)
    return found


SEEN = _seen()
if SEEN:
    raise RuntimeError(f"the worker sees {SEEN}")

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending


def at_least_clauses(lits, k):
    return list(at_least_subsets(lits, k))


def at_most_clauses(lits, k):
    return list(at_most_subsets(lits, k))
