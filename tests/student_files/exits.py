"""A student whose select_variable ends the process."""

import os

from model_answer import constraint_bounds, forward_check_once, values_ascending

forward_check = forward_check_once
order_values = values_ascending


def select_variable(csp, domains, unassigned):
    os._exit(3)
