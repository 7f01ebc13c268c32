"""A student file that raises while being imported, from a helper."""

from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending


def _build_table():
    return {"weights": [1, 2, 3]}["weight"]  # IMPORT_RAISE_LINE


TABLE = _build_table()
