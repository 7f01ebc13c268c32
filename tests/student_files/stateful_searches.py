"""Hooks whose answers depend on the calls before them in the item, and on what they are
given: select_variable takes the model answer's choice for its first 25 calls, then the
last unassigned variable; order_values puts the mine first on every third call; and
forward_check remembers every input it was given, answering the domains unchanged (no
narrowing) for an input it saw before in the item. Whether a board is solved, and how,
depends on each call's input and on the exact order of the calls.

{{SEARCH}}: "kept" leaves the kit alone; "none" replaces, in its own process, the engine's
search with one that makes no call at all, "other" with one that starts from other domains
(variable 0 a mine), so every search the worker runs itself goes another way than the
grader's (and "other" replies to calls the grader did not make), and every board is asked
call by call instead. All must get the same grade, item by item."""

import solvers.engine
from solvers.engine import SearchResult, SearchStats

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds  # noqa: F401
from model_answer import forward_check as _model_fc
from model_answer import order_values as _model_order
from model_answer import select_variable as _model_select

_calls = {"select": 0, "order": 0}
_seen = set()


def forward_check(csp, domains, assigned):
    key = (tuple(sorted((var, tuple(values)) for var, values in domains.items())), assigned)
    if key in _seen:
        return dict(domains)
    _seen.add(key)
    return _model_fc(csp, domains, assigned)


def select_variable(csp, domains, unassigned):
    _calls["select"] += 1
    return _model_select(csp, domains, unassigned) if _calls["select"] <= 25 else unassigned[-1]


def order_values(csp, var, domains):
    _calls["order"] += 1
    values = list(_model_order(csp, var, domains))
    return sorted(values, reverse=True) if _calls["order"] % 3 == 0 else values


_search = solvers.engine.search


def _no_search(csp, strategy, mode="all", observer=None, domains=None):
    return SearchResult([], 0, SearchStats())


def _other_search(csp, strategy, mode="all", observer=None, domains=None):
    return _search(csp, strategy, mode, observer, {**csp.initial_domains(), 0: (1,)})


solvers.engine.search = {"none": _no_search, "other": _other_search}.get("{{SEARCH}}", _search)
