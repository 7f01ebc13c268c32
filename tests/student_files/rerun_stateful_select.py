"""A select_variable that counts each variable's constraints on its first call and keeps
the table in a global: right in any one search (one board, one table), wrong on a later
hook case whose board is another one, only because an earlier call filled the table."""

from model_answer import *  # noqa: F401,F403

_DEGREES = {}


def select_variable(csp, domains, unassigned):
    if not _DEGREES:
        _DEGREES.update({var: len(csp.constraints_of[var]) for var in domains})
    return min(unassigned, key=lambda v: (len(domains[v]), -_DEGREES.get(v, 0), v))
