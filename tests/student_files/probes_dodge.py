"""A constraint_bounds that sums over every variable of `domains`, not only the scope's:
right whenever the domains hold the scope alone (every named and random hook case), wrong
when the grader asks it about a real search, whose domains hold every variable of the
board. Its forward_check and the rest are right (they use a right constraint_bounds).

With DODGE "yes" it never answers such a call: it sleeps, a second at a time, until the
grader gives up on it, hoping that a question left unanswered costs less than a wrong answer.
"""

import time

from model_answer import at_least_clauses, at_most_clauses, forward_check, order_values, select_variable  # noqa: F401

DODGE = "{{DODGE}}" == "yes"


def constraint_bounds(scope, domains):
    if any(not domains[v] for v in scope):
        return 1, 0
    if DODGE and set(domains) != set(scope):  # more than its scope: the grader's probe of a real board
        while True:
            time.sleep(1)
    return sum(min(d) for d in domains.values()), sum(max(d) for d in domains.values())  # BUG: not the scope's
