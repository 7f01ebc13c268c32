"""The reference answers, which the student copy of the kit (`python -m grader release`) leaves out.

Everything in the grader that needs them asks here, so a student copy fails with one
clear sentence instead of an ImportError.
"""

from __future__ import annotations

from types import ModuleType

from .errors import UserError


class ReferenceUnavailable(UserError):
    """The reference strategies are not installed (a student copy of the kit)."""


def reference_strategies() -> ModuleType:
    """`solvers.strategies`, or ReferenceUnavailable in a student copy."""
    try:
        from solvers import strategies
    except ImportError:
        raise ReferenceUnavailable("the reference solution is not part of the student copy of the kit (this command "
                                   "belongs to the instructor's kit)") from None
    return strategies
