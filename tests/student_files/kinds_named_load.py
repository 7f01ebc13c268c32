"""Every hook raises an exception whose class is named like the loader's reason for a
file that does not load ("cannot load hooks.py"), of a kind that ends the item, so that
every item is an error whose reason begins like the loader's. The old grader read that
prefix back from the reasons and told PrairieLearn the submission was not gradable (no
attempt charged): a free yes/no question about hidden boards when raised only on some of
them. It is an exception raised by loaded code: graded like any other."""

NAME = "cannot load hooks.py"
Forged = type(NAME, (KeyboardInterrupt,), {})  # one the worker counts as fatal: it ends the item, an error


def _raises(*args):
    raise Forged("SyntaxError: invalid syntax (hooks.py, line 1)")


constraint_bounds = forward_check = select_variable = order_values = at_least_clauses = at_most_clauses = _raises
