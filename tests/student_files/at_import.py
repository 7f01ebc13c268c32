"""A student file that fails while it is imported."""

from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending

raise RuntimeError("setup went wrong")
