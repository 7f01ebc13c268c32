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


class Formations:
    """Future 50/50s on one view: pairs of hidden cells that no number may ever tell apart.

    For hidden, unflagged cells `a` and `b` at most two cells apart, D is the set of the
    other cells that touch exactly one of them (the only cells whose numbers could tell
    them apart). In a layout where `a` is a mine, `b` is safe and every cell of D is a mine
    (the pair's *formation*), no number shown now or later tells `a` from `b`, and as many
    layouts have `a` and `b` swapped (consistent with the view too, when no cell of D is
    revealed): whatever is played, those layouts are lost half the time. So `a`'s layouts
    in a formation are a risk the game takes anyway, and opening `a` risks nothing more in
    them. `apart(a, b)` gives the cells of D not yet certain mines (None when D holds a
    revealed cell, or more than `open_limit` such cells), and `layouts(a, b, those cells)`
    counts `a`'s layouts in the formation (one exact count with `a`, `b` and D pinned).
    """

    def __init__(self, view: View, counted: Probabilities, open_limit: int = 3) -> None:
        self.view = view
        self.counted = counted
        self.open_limit = open_limit
        self.index = {cell: var for var, cell in enumerate(counted.csp.cells)}
        self.counts = 0  # exact counts made so far

    def apart(self, a: Cell, b: Cell) -> list[Cell] | None:
        """The cells of D not yet certain mines, or None when D has a revealed cell or too many such cells."""
        view, mines, total = self.view, self.counted.mines, self.counted.total
        out = []
        for n in set(view.neighbours(a)) ^ set(view.neighbours(b)):
            if n in (a, b):
                continue
            if view[n] >= 0:
                return None
            if mines[n] != total:
                out.append(n)
        return out if len(out) <= self.open_limit else None

    def layouts(self, a: Cell, b: Cell, open_cells: list[Cell]) -> int:
        """The layouts with `a` a mine, `b` safe and every cell of `open_cells` a mine."""
        index, csp = self.index, self.counted.csp
        pinned = [Constraint((index[a],), 1), Constraint((index[b],), 0), *(Constraint((index[n],), 1) for n in open_cells)]
        self.counts += 1
        return solution_counts(CSP(csp.cells, (*pinned, *csp.constraints)), per_variable=False).total

    def partners(self, a: Cell, reach: int) -> list[Cell]:
        """Hidden, unflagged cells at most `reach` cells from `a`, row-major."""
        view = self.view
        ra, ca = a
        return [
            (r, c)
            for r in range(max(0, ra - reach), min(view.rows, ra + reach + 1))
            for c in range(max(0, ca - reach), min(view.cols, ca + reach + 1))
            if (r, c) != a and view[(r, c)] == HIDDEN
        ]

    def clued(self, cell: Cell) -> bool:
        """Next to a revealed number (a cell next to none is a mine as often whatever `a` holds)."""
        return any(self.view[n] > 0 for n in self.view.neighbours(cell))


def pseudo_cell(view: View, counted: Probabilities, limit: int = 8) -> tuple[Cell, Cell] | None:
    """A cell `a` and a partner `b` forming a *pseudo 50/50*, or None.

    A pseudo 50/50 is a pair whose formation (see `Formations`) holds in every layout in
    which `a` is a mine: then opening `a` now risks nothing the game does not risk anyway,
    and what it shows, if safe, helps every later move. A forced 50/50 (`forced_pair`) is
    the case where `a` or `b` is a mine in every layout and D already holds only mines.

    Pairs that cheap necessary conditions rule out are not counted: `a` and every cell of
    D not yet a certain mine must touch a revealed number, and every cell of D and `b` must
    be at least as often a mine as `a`; at most `limit` pairs are counted. Of several, the
    cell least often a mine is returned.
    """
    total = counted.total
    if not total:
        return None
    mines = counted.mines
    formations = Formations(view, counted)
    candidates = sorted((count, cell) for cell, count in mines.items() if 0 < count < total and view[cell] == HIDDEN and formations.clued(cell))
    for count, a in candidates:
        for b in formations.partners(a, 2):
            if mines[b] < count:
                continue
            open_cells = formations.apart(a, b)
            if open_cells is None or any(mines[n] < count or not formations.clued(n) for n in open_cells):
                continue
            if formations.counts >= limit:
                return None
            if formations.layouts(a, b, open_cells) == count:
                return a, b
    return None
