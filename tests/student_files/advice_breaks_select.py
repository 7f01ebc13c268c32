"""A student whose select_variable breaks its contract on full-size boards (with three
variables or fewer left unassigned, it returns one already assigned), and who has not begun
part 2 (the clause hooks still raise NotImplementedError): the boards that break cost
select_variable, its share of boards counts them, and the next step stays in part 1."""

from model_answer import constraint_bounds, forward_check, order_values  # noqa: F401
from model_answer import select_variable as _select_variable


def select_variable(csp, domains, unassigned):
    if len(domains) >= 20 and len(unassigned) <= 3:
        return next(var for var in sorted(domains) if var not in unassigned)
    return _select_variable(csp, domains, unassigned)


def at_least_clauses(lits, k):
    raise NotImplementedError


def at_most_clauses(lits, k):
    raise NotImplementedError
