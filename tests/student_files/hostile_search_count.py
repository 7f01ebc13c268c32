"""Hostile: hidden clue values through the visible hook items. The grader grades each hook
on its calls in its own searches of every board, hidden ones included. On a hidden board
(no mine count in hidden_set) this student answers exactly v calls otherwise than the rule,
v = clue number INDEX of that board (forward_check on the board whose top-left cell is a
clue, order_values on the other), and is right everywhere else. Two copies that differ
only in INDEX ({{INDEX}}, filled in by the test) must be told the same of their searches.
"""

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, select_variable  # noqa: F401
from model_answer import forward_check as _model_fc
from model_answer import order_values as _model_order

# ---- the attack
INDEX = {{INDEX}}
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
