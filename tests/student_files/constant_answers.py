"""A student who answers without looking: constants, None, the first variable, [0, 1]."""


def constraint_bounds(scope, domains):
    return (0, 0)


def forward_check(csp, domains, assigned):
    return None


def select_variable(csp, domains, unassigned):
    return unassigned[0]


def order_values(csp, var, domains):
    return [0, 1]
