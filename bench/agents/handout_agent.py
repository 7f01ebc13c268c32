"""A student-style playing agent, to measure what grading an agent costs (bench/agent_item_spread.py).

What a student who follows the handout's part 3 might write, and no faster: rule (a),
one number at a time; otherwise exact probabilities, enumerating every layout of the
hidden cells next to a number with the part-1 engine (one-pass forward checking, MRV),
each layout weighted by the ways to place the other mines on the remaining cells; then
it opens the safest cell. It imports only what student code may (the view, the CSP and
the engine), so the grader can run it in its sandbox.
"""

from __future__ import annotations

from math import comb

from play.view import FLAGGED, HIDDEN, Move, View
from solvers.board import Cell
from solvers.csp import CSP, Constraint, Domains
from solvers.engine import Strategy, search


def _forward_check(csp: CSP, domains: Domains, assigned: int | None) -> Domains | None:
    """One pass of the bound rule over every constraint."""
    narrowed = dict(domains)
    for constraint in csp.constraints:
        low = sum(min(narrowed[v]) for v in constraint.scope)
        high = sum(max(narrowed[v]) for v in constraint.scope)
        if low > constraint.total or high < constraint.total:
            return None
        if low == constraint.total or high == constraint.total:
            pick = min if low == constraint.total else max
            for var in constraint.scope:
                narrowed[var] = (pick(narrowed[var]),)
    return narrowed


STRATEGY = Strategy(
    "student",
    select_variable=lambda csp, domains, unassigned: min(unassigned, key=lambda v: (len(domains[v]), v)),
    order_values=lambda csp, var, domains: sorted(domains[var]),
    forward_check=_forward_check,
)


def _certain(view: View) -> Move | None:
    """Rule (a): a number whose hidden neighbours are all safe, or all mines."""
    for cell in view.all_cells():
        number = view[cell]
        if number <= 0:
            continue
        around = view.neighbours(cell)
        hidden = [c for c in around if view[c] == HIDDEN]
        flagged = sum(view[c] == FLAGGED for c in around)
        if hidden and flagged == number:
            return Move("open", hidden[0])
        if hidden and flagged + len(hidden) == number:
            return Move("flag", hidden[0])
    return None


def _safest(view: View) -> Cell:
    """The hidden cell least likely to be a mine, counted exactly over every layout (the
    scores are mine counts summed over the weighted layouts: their common total cancels)."""
    hidden = [c for c in view.all_cells() if view[c] == HIDDEN]
    numbers = [c for c in view.all_cells() if view[c] > 0]
    frontier = sorted({c for n in numbers for c in view.neighbours(n) if view[c] == HIDDEN})
    index = {cell: i for i, cell in enumerate(frontier)}
    constraints = tuple(
        Constraint(tuple(index[c] for c in view.neighbours(n) if c in index), view[n] - sum(view[c] == FLAGGED for c in view.neighbours(n)), n)
        for n in numbers
        if any(c in index for c in view.neighbours(n))
    )
    others = [c for c in hidden if c not in index]
    left = view.mines - len(view.flags())
    mines = [0] * len(frontier)
    other_mines = 0
    for values in search(CSP(tuple(frontier), constraints), STRATEGY, "all").solutions:
        k = sum(values)
        ways = comb(len(others), left - k) if 0 <= left - k <= len(others) else 0
        for var, value in enumerate(values):
            mines[var] += ways * value
        other_mines += ways * (left - k)
    scores: dict[Cell, float] = {cell: mines[i] for i, cell in enumerate(frontier)}
    if others:
        scores[others[0]] = other_mines / len(others)
    return min(scores, key=lambda cell: scores[cell])


def choose_move(view: View) -> Move:
    """Rule (a) when it applies, else the safest cell; the corner first."""
    if not view.started:
        return Move("open", (0, 0))
    return _certain(view) or Move("open", _safest(view))
