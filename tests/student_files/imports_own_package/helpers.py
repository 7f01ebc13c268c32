"""The student's own helper module: bounds and the SAT encodings."""

from model_answer import at_least_subsets, at_most_subsets, constraint_bounds  # noqa: F401


def at_least_clauses(lits, k):
    return list(at_least_subsets(lits, k))


def at_most_clauses(lits, k):
    return list(at_most_subsets(lits, k))
