"""One guess deeper: the lookahead's close calls, looked at one more guess ahead.

The lookahead (`answerkey.agent.lookahead`) values a guess by the chance of surviving it
and the next one. When two cells come out within a small margin of each other, that
horizon cannot tell them apart; this module plays each of them one guess further: for
every number n the cell can show that leaves no certain move, the position "the cell
shows n" is counted again and the lookahead's own best value there (two more guesses)
replaces "1 - the next guess's risk". An outcome with a certain move still counts as
survived, as in the lookahead.
"""

from __future__ import annotations

from collections.abc import Callable

from answerkey.agent.lookahead import Lookahead
from answerkey.agent.probability import Probabilities, probabilities
from play.view import View
from solvers.board import Cell

#: The best two-move value a guesser finds on a view (no cell of it certain).
ValueOf = Callable[[View, Probabilities], float]


def shown(view: View, cell: Cell, value: int) -> View:
    """`view` with `cell` revealed, showing `value`."""
    r, c = cell
    row = view.cells[r]
    cells = (*view.cells[:r], (*row[:c], value, *row[c + 1 :]), *view.cells[r + 1 :])
    return View(view.rows, view.cols, view.mines, cells)


def deeper_value(view: View, ahead: Lookahead, cell: Cell, total: int, value_of: ValueOf) -> float:
    """The chance of surviving a guess at `cell` and the two guesses after it (see the module docstring)."""
    value = 0.0
    for outcome in ahead.outcomes(cell):
        share = outcome.layouts / total
        if outcome.progress:
            value += share
            continue
        after = shown(view, cell, outcome.value)
        counted = probabilities(after)
        value += share * (1.0 if counted.safe() else value_of(after, counted))
    return value
