"""A student whose select_variable divides by zero; the other hooks are correct."""

from model_answer import constraint_bounds, forward_check_once, values_ascending

forward_check = forward_check_once
order_values = values_ascending


def select_variable(csp, domains, unassigned):
    smallest = min(len(domains[v]) for v in unassigned)
    return unassigned[0] // (smallest - smallest)  # CRASH_LINE
