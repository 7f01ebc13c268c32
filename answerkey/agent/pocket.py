"""Isolated pockets: closed regions no move elsewhere can inform, solved exactly.

A *pocket* is a component of the view's constraints (hidden cells linked by the revealed
numbers, `answerkey.components.split`) that

- is *closed*: every hidden neighbour of its cells is in it or a mine in every layout, so
  no cell outside it can ever show a number that touches it, and
- holds the same number of mines in every one of its layouts, so the global mine count
  does not tie it to the rest of the board either.

Then every layout of the pocket goes with the same layouts of the rest: the pocket is a
game of its own, won or lost whatever is played elsewhere and in whatever order. Its best
chance is the exact game-tree search of `answerkey.agent.endgame` over its own layouts,
however many layouts the whole board still has. So when no cell is certain and a pocket
is small enough to search, its best cell is opened: that risk is taken whatever the
order, and this way it is taken at its least.
"""

from __future__ import annotations

from answerkey.agent.endgame import EndgamePlan, endgame_plan
from answerkey.agent.probability import Probabilities
from answerkey.components.count import ComponentCounter
from answerkey.components.split import Part, decompose
from play.view import View


def pockets(view: View, counted: Probabilities, limit: int) -> list[Part]:
    """The pockets of `view` with at most `limit` layouts (and at least two), smallest first."""
    csp = counted.csp
    dec = decompose(csp)
    if dec is None:
        return []
    index = {cell: var for var, cell in enumerate(csp.cells)}
    counter = ComponentCounter(per_variable=False)
    found = []
    for part in dec.components:
        members = set(part.origin)
        around = {index[n] for var in part.origin for n in view.neighbours(csp.cells[var]) if n in index}
        if any(var not in members and dec.decided.get(var) != 1 for var in around):
            continue  # a cell outside may yet show a number that touches it
        ways = counter.component(part).ways
        if sum(1 for x in ways if x) == 1 and 2 <= sum(ways) <= limit:
            found.append(part)
    return sorted(found, key=lambda part: len(part.origin))


def pocket_plan(view: View, counted: Probabilities, limit: int, budget: int) -> EndgamePlan | None:
    """The best cell of the smallest pocket whose exact search fits in `budget` nodes; None without one."""
    for part in pockets(view, counted, limit):
        plan = endgame_plan(view, part.csp, budget)
        if plan is not None:
            return plan
    return None
