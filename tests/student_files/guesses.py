"""The same stand-in answers as peeks.py, without looking at the grader's frames."""


def constraint_bounds(scope, domains):
    return (0, 0)


def forward_check(csp, domains, assigned):
    return None


def select_variable(csp, domains, unassigned):
    return unassigned[-1]


def order_values(csp, var, domains):
    return list(reversed(domains[var]))
