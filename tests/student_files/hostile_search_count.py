"""Hostile: hidden clue values through the visible hook items. The grader grades each hook
on its calls in its own searches of every board, hidden ones included. On a hidden board
(no mine count in hidden_set) this student answers exactly v calls otherwise than the rule,
v = clue number INDEX of that board (forward_check on the board whose top-left cell is a
clue, order_values on the other), and is right everywhere else. Two copies that differ
only in INDEX must get the same visible report.
"""

from itertools import combinations


def constraint_bounds(scope, domains):
    if any(not domains[v] for v in scope):
        return 1, 0
    return sum(min(domains[v]) for v in scope), sum(max(domains[v]) for v in scope)


def forward_check(csp, domains, assigned):
    narrowed = dict(domains)
    for constraint in csp.constraints:
        low, high = constraint_bounds(constraint.scope, narrowed)
        if low > constraint.total or high < constraint.total:
            return None
        if low == constraint.total or high == constraint.total:
            pick = min if low == constraint.total else max
            for var in constraint.scope:
                if len(narrowed[var]) > 1:
                    narrowed[var] = (pick(narrowed[var]),)
    return narrowed


def select_variable(csp, domains, unassigned):
    return min(unassigned, key=lambda v: (len(domains[v]), -len(csp.constraints_of[v]), v))


def order_values(csp, var, domains):
    return sorted(domains[var])


def at_least_clauses(lits, k):
    if k <= 0:
        return []
    if k > len(lits):
        return [[]]
    return [list(group) for group in combinations(lits, len(lits) - k + 1)]


def at_most_clauses(lits, k):
    if k < 0:
        return [[]]
    return [[-lit for lit in group] for group in combinations(lits, k + 1)]


# The names some test students import these under.
forward_check_once, select_mrv, values_ascending = forward_check, select_variable, order_values
at_least_subsets, at_most_subsets = at_least_clauses, at_most_clauses


# ---- the attack
INDEX = 0
_model_fc, _model_order = forward_check, order_values
_WRONG = {}


def _hidden_value(csp):
    if any(c.cell is None for c in csp.constraints):
        return None  # a board with a mine count: a public one here
    clues = sorted((c for c in csp.constraints), key=lambda c: c.cell)
    return clues[INDEX].total if INDEX < len(clues) else 9, clues[0].cell == (0, 0)


def forward_check(csp, domains, assigned):
    right = _model_fc(csp, domains, assigned)
    hidden = _hidden_value(csp)
    if hidden and hidden[1] and right is not None and right != dict(domains):
        done = _WRONG.setdefault(("fc", id(csp)), [0])
        if done[0] < hidden[0]:
            done[0] += 1
            return dict(domains)  # sound, but narrows less than the rule: "otherwise than the rule"
    return right


def order_values(csp, var, domains):
    right = _model_order(csp, var, domains)
    hidden = _hidden_value(csp)
    if hidden and not hidden[1] and len(right) > 1:
        done = _WRONG.setdefault(("ov", id(csp)), [0])
        if done[0] < hidden[0]:
            done[0] += 1
            return list(reversed(right))
    return right
