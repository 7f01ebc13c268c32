"""An attacker whose clause hooks return one clause of 20,000 copies of one literal (about
140 KB, under the 1 MiB a message may hold): a check quadratic in a clause's length would
keep the grader busy for many minutes per call, outside every time limit."""

from model_answer import constraint_bounds, forward_check, order_values, select_variable  # noqa: F401


def at_least_clauses(lits, k):
    return [[lits[0] if lits else 1] * 20_000]


def at_most_clauses(lits, k):
    return [[-(lits[0] if lits else 1)] * 20_000]
