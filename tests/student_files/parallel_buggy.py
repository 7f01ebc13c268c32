"""A student with a different bug on different boards, to compare runs with 1 and 3 jobs.

- forward_check forgets the upper-bound half of the rule (partial hook credit, more nodes),
  and gives up at the root on boards with 49 cells that may hold a mine (status grids);
- select_variable raises on boards with 25 such cells and loops forever on boards with 3;
- order_values ends the process on boards with 6 such cells (some hook cases included).
Which problem trips which bug depends only on the board, never on timing or order.
"""

import os

from model_answer import constraint_bounds, select_mrv, values_ascending


def forward_check(csp, domains, assigned):
    if len(csp.cells) == 49:
        return None
    narrowed = dict(domains)
    for constraint in csp.constraints:
        low, high = constraint_bounds(constraint.scope, narrowed)
        if low > constraint.total or high < constraint.total:
            return None
        if low == constraint.total:
            for var in constraint.scope:
                if len(narrowed[var]) > 1:
                    narrowed[var] = (min(narrowed[var]),)
    return narrowed


def select_variable(csp, domains, unassigned):
    if len(csp.cells) == 25:
        raise ValueError("no tie-break rule for 25 cells")
    while len(csp.cells) == 3:
        pass
    return select_mrv(csp, domains, unassigned)


def order_values(csp, var, domains):
    if len(csp.cells) == 6:
        os._exit(4)
    return values_ascending(csp, var, domains)
