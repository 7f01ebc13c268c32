"""Where a student's search first parts from the model answer's.

While the grader searches a board with the student's hooks, every answer is compared
with what the model answer of the hooks (the handout's: one forward-checking pass, MRV,
safe first) gives on the very same input. The first difference is kept: when the board is
lost, it names the hook to look at, and where.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from grader.scoring.hookcases import handout_domain
from solvers.csp import CSP, Domains
from solvers.engine import Strategy


@dataclass(frozen=True)
class Divergence:
    """The first call where the student's hook and the model answer disagreed."""

    hook: str
    step: int  # the node being expanded (1 = the root)
    detail: str  # what the student's hook did, against the model answer

    def describe(self, board: str) -> str:
        where = "at the root" if self.step == 1 else f"at step {self.step}"
        return f"{self.hook} {self.detail} {where} of {board}"


def _forward_check_detail(got: Domains | None, expected: Domains | None) -> str:
    if got is None:
        return "returned None (a dead end) where no constraint is violated yet"
    if expected is None:
        return "missed a dead end (the model answer returns None)"
    var = next(v for v in sorted(expected) if tuple(got.get(v, ())) != tuple(expected[v]))
    return (f"gave variable {var} the domain {handout_domain(got.get(var, ()))} "
            f"where the model answer gives {handout_domain(expected[var])}")


class Watcher:
    """Wraps a strategy's hooks; after each call, compares with the model answer's."""

    def __init__(self, student: Strategy, model: Strategy):
        self.student, self.model = student, model
        self.step = 0
        self.first: Divergence | None = None

    def _note(self, hook: str, detail: Callable[[], str]) -> None:
        if self.first is None:
            self.first = Divergence(hook, self.step, detail())

    def forward_check(self, csp: CSP, domains: Domains, assigned: int | None) -> Domains | None:
        self.step += 1
        assert self.student.forward_check is not None and self.model.forward_check is not None
        got = self.student.forward_check(csp, domains, assigned)
        if self.first is None:
            expected = self.model.forward_check(csp, dict(domains), assigned)
            if got != expected:
                self._note("forward_check", lambda: _forward_check_detail(got, expected))
        return got

    def select_variable(self, csp: CSP, domains: Domains, unassigned: Any) -> int:
        got = self.student.select_variable(csp, domains, unassigned)
        if self.first is None:
            expected = self.model.select_variable(csp, dict(domains), list(unassigned))
            if got != expected:
                self._note("select_variable", lambda: f"chose variable {got} where the model answer chooses {expected}")
        return got

    def order_values(self, csp: CSP, var: int, domains: Domains) -> Any:
        got = self.student.order_values(csp, var, domains)
        if self.first is None:
            expected = list(self.model.order_values(csp, var, dict(domains)))
            if list(got) != expected:
                self._note("order_values", lambda: f"ordered {list(got)} where the model answer orders {expected}")
        return got

    def strategy(self) -> Strategy:
        return Strategy(self.student.name, self.select_variable, self.order_values, forward_check=self.forward_check)
