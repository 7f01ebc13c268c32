"""A student that prints in every fork (at import, and in the worker's own search) and
makes the worker's search go another way ({{PART}}: "yes"), so each board is searched
again in a fresh process: only what the graded process printed may be shown, once. Its
select_variable prints and raises, so each board fails and shows what was printed."""

import solvers.engine
from solvers.engine import SearchResult, SearchStats

from model_answer import *  # noqa: F401,F403

print("loaded")


def select_variable(csp, domains, unassigned):
    print("select_variable asked")
    raise ValueError("so that the item fails and its output is shown")
_search = solvers.engine.search


def _parted(csp, strategy, mode="all", observer=None, domains=None):
    print("the worker's own search, parted")
    return SearchResult([], 0, SearchStats())


if "{{PART}}" == "yes":
    solvers.engine.search = _parted
