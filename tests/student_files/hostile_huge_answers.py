"""An attacker whose wrong answers are as large as a message may be (just under 1 MiB
each), hoping to flood the terminal, the JSON report and the feedback files with them."""

from model_answer import at_least_clauses, at_most_clauses  # noqa: F401

BIG = list(range(90_000))


def constraint_bounds(scope, domains):
    return BIG


def forward_check(csp, domains, assigned):
    return {var: BIG[:20] for var in range(4000)}


def select_variable(csp, domains, unassigned):
    return BIG


def order_values(csp, var, domains):
    return BIG
