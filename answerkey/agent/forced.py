"""Forced guesses: pairs of cells that no future information can tell apart.

Two hidden cells a and b form a *forced 50/50* when

- exactly one of them is a mine in every layout consistent with the view, and
- every other cell touching a or b touches both, or is a mine in every layout.

Then every number shown now or later counts a and b together (a cell touching only one
of them is a mine and never shows a number), and the global mine count sees only their
sum, which is always 1: each is a mine in exactly half of the layouts, now and whatever
is revealed later. The game cannot be won without opening one of them, at 50% risk, so
the best moment is now: the number it shows, if safe, is information for every later
move, and any plan that opens the pair later can be played with that information already
in hand. Such pairs show up at the board's edges and between flags.

Only pairs at most two cells apart are looked for (two cells further apart share no
neighbour, and each has one that is not a certain mine, except in corners of flags).
"""

from __future__ import annotations

from answerkey.agent.probability import Probabilities
from answerkey.components.count import solution_counts
from play.view import HIDDEN, View
from solvers.board import Cell
from solvers.csp import CSP, Constraint


def forced_pair(view: View, counted: Probabilities) -> tuple[Cell, Cell] | None:
    """A forced 50/50 pair of unflagged hidden cells (see the module docstring), or None."""
    total = counted.total
    if not total:
        return None
    mines = counted.mines
    halves = [cell for cell, count in mines.items() if 2 * count == total and view[cell] == HIDDEN]
    if len(halves) < 2:
        return None
    for a in halves:
        ra, ca = a
        for b in halves:
            if b <= a or b[0] - ra > 2 or abs(b[1] - ca) > 2:
                continue
            if symmetric(view, counted, a, b) and always_one(counted, a, b):
                return a, b
    return None


def symmetric(view: View, counted: Probabilities, a: Cell, b: Cell) -> bool:
    """Every other cell touching a or b touches both, or is a mine in every layout."""
    around_a, around_b = set(view.neighbours(a)), set(view.neighbours(b))
    for n in around_a ^ around_b:
        if n in (a, b):
            continue
        if counted.mines.get(n, -1) != counted.total:  # revealed, or hidden and not a certain mine
            return False
    return True


def always_one(counted: Probabilities, a: Cell, b: Cell) -> bool:
    """Exactly one of a and b is a mine in every layout (counted again with that constraint)."""
    csp = counted.csp
    index = {cell: var for var, cell in enumerate(csp.cells)}
    pinned = CSP(csp.cells, (Constraint((index[a], index[b]), 1), *csp.constraints))
    return solution_counts(pinned, per_variable=False).total == counted.total
