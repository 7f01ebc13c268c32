"""A student that looks for the machine's files, which would carry bits between students.

It is correct, but refuses to load when it finds, from inside its worker, any of
{{ABSENT}} (files the grader never needs to show it: other folders of /usr, libraries
Python does not load) or a standard-library file whose (device, inode) is one of the
machine's own, {{INODES}} (then its reads and lookups would be cached for everyone).
"""

import os

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, forward_check, order_values, select_variable  # noqa: F401

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
