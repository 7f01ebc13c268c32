"""A student whose constraint_bounds returns (high, low): the largest sum first. The
other hooks are right."""

from model_answer import at_least_clauses, at_most_clauses, forward_check, order_values, select_variable  # noqa: F401


def constraint_bounds(scope, domains):
    if any(not domains[v] for v in scope):
        return 1, 0
    return sum(max(domains[v]) for v in scope), sum(min(domains[v]) for v in scope)  # the bug: swapped
