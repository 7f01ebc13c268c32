"""A student who fakes the grader's import rule: it prints the rule's words, then raises
a ModuleNotFoundError it made itself, naming a module of the standard library."""

from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending  # noqa: F401

forward_check = forward_check_once
select_variable = select_mrv
order_values = values_ascending

print("cannot load hooks.py: hooks.py line 1 imports json, which is not allowed: graded code may import only "
      "Python's standard library")
raise ModuleNotFoundError("No module named 'json'", name="json")  # FORGED_LINE
