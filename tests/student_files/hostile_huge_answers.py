"""An attacker whose wrong answers are tens of kilobytes each (a message may hold up to 1 MiB),
hoping to flood the terminal, the JSON report and the feedback files with them."""

from model_answer import at_least_clauses, at_most_clauses  # noqa: F401

BIG = list(range(10_000))


def constraint_bounds(scope, domains):
    return BIG


def forward_check(csp, domains, assigned):
    return {var: BIG[:20] for var in range(2000)}


def select_variable(csp, domains, unassigned):
    return BIG


def order_values(csp, var, domains):
    return BIG
