"""A student who tries to use the grader's own checker."""

from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

import grader.scoring.layouts  # IMPORT_LINE

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending
