"""A correct student that prints every board and every argument it is given, hoping the
hidden problems show up in a visible test's output."""

import model_answer as _m


def _show(*args):
    print("SEEN", *args)


def constraint_bounds(scope, domains):
    _show("bounds", scope, domains)
    return _m.constraint_bounds(scope, domains)


def forward_check(csp, domains, assigned):
    _show("fc", csp, domains)
    return _m.forward_check(csp, domains, assigned)


def select_variable(csp, domains, unassigned):
    _show("select", csp)
    return _m.select_variable(csp, domains, unassigned)


def order_values(csp, var, domains):
    return _m.order_values(csp, var, domains)


def at_least_clauses(lits, k):
    _show("at_least", lits, k)
    return _m.at_least_clauses(lits, k)


def at_most_clauses(lits, k):
    _show("at_most", lits, k)
    return _m.at_most_clauses(lits, k)
