"""A folder submission whose hooks come from its own files: a module beside it
(`helpers.py`) and a package without an `__init__.py` (`tools/`)."""

from helpers import at_least_clauses, at_most_clauses, constraint_bounds  # noqa: F401
from tools.choices import forward_check, order_values, select_variable  # noqa: F401
