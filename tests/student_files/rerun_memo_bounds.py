"""Common mistake: constraint_bounds remembers each scope's bounds in a global, as if the
domains never changed: right the first time a search asks about a constraint, wrong when
it asks again after the domains narrowed."""

from model_answer import *  # noqa: F401,F403
from model_answer import constraint_bounds as _bounds

_SEEN = {}


def constraint_bounds(scope, domains):
    key = tuple(scope)
    if key not in _SEEN:
        _SEEN[key] = _bounds(scope, domains)
    return _SEEN[key]
