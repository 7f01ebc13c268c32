"""Common mistake: skipping the last constraint (the mine count, or a real hint)."""

from model_answer import *  # noqa: F401,F403
from model_answer import constraint_bounds


def forward_check(csp, domains, assigned):
    narrowed = dict(domains)
    for constraint in csp.constraints[:-1]:  # the bug
        low, high = constraint_bounds(constraint.scope, narrowed)
        if low > constraint.total or high < constraint.total:
            return None
        if low == constraint.total or high == constraint.total:
            pick = min if low == constraint.total else max
            for var in constraint.scope:
                if len(narrowed[var]) > 1:
                    narrowed[var] = (pick(narrowed[var]),)
    return narrowed
