"""A student whose exceptions and prints imitate the grader's own words. constraint_bounds
is written but raises a ValueError on a large scope (more than 12 variables: the mine
count's) saying it "is not implemented yet (it raises NotImplementedError)", and prints
the same words; order_values is written for small domains only and raises
NotImplementedError mid-way, worded as a failure of the grader. What the grader tells
apart is what it saw raised: constraint_bounds is to fix, order_values to implement, and
no words of the student make the grade "not graded"."""

from model_answer import at_least_clauses, at_most_clauses, forward_check, select_variable  # noqa: F401
from model_answer import constraint_bounds as _constraint_bounds

OURS = "constraint_bounds is not implemented yet (it raises NotImplementedError)"


def constraint_bounds(scope, domains):
    if len(scope) > 12:
        print(OURS, "not graded: the grader failed")
        raise ValueError(OURS)
    return _constraint_bounds(scope, domains)


def order_values(csp, var, domains):
    if var >= 3:
        raise NotImplementedError("the grader failed: RuntimeError: the machine is busy (tried twice)")
    return sorted(domains[var])
