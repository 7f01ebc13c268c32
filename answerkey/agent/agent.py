"""The reference agent: certain moves first, then the best guess, each with its reason.

Layers, tried in order; the first that finds something gives the moves:

- first click: under `classic` rules a corner (row 1, col 1), under `opening` the centre;
- (a) single clue and (b) subset of two clues (`answerkey.agent.reasoning`), to closure;
- (c) exact mine probabilities of every hidden cell (`answerkey.agent.probability`): a cell with
  probability 0 is opened, 1 flagged;
- (d) a guess when nothing is certain (`answerkey.agent.guess`): exact endgame search when few
  layouts remain (at most 1,000); else the exact search of an isolated pocket (a closed
  group of frontier cells with a fixed number of mines, a game of its own); else a forced
  50/50 (two cells no number can ever tell apart) at once, or a pseudo 50/50 (a cell that forms such a pair whenever it is a mine);
  otherwise an exact one-move lookahead between the safest cell and the two likeliest to
  make progress (five when the safest cell touches a number): the one likeliest to
  survive this guess and the next, never a dead cell (one that can show only one
  number) while another can tell something.

`decisions(view)` returns every certain move a layer found (a batch: they stay certain
whatever order they are played in) or one guess. `decide(view)` is the first of them,
which is what a hint shows, and `choose_move(view)` its bare Move.

Decisions are a function of the view alone, and the first views of a game repeat from
game to game (on Expert, with the first click in the corner, half of all games start
from one of three views: the corner shows 1, 2 or 3). Views with at most `BOOK_REVEALED`
revealed cells are kept in an opening book, `opening_decisions`, and looked up when met
again (`book=False` turns it off).
"""

from __future__ import annotations

from fractions import Fraction
from functools import lru_cache

from answerkey.agent.decision import Decision, place
from answerkey.agent.guess import Guesser
from answerkey.agent.probability import Probabilities, probabilities
from answerkey.agent.reasoning import Deduction, deduce
from play.view import FLAGGED, HIDDEN, Action, Move, View
from solvers.board import Cell

#: Views with at most this many revealed cells go to the opening book (on Expert, 400 games
#: met 3 distinct views with one revealed cell in 199 decisions, 13 with three in 106).
BOOK_REVEALED = 3


def explain(view: View, found: Deduction) -> Decision:
    """The Decision for a cell settled by rule (a) or (b)."""
    action: Action = "flag" if found.mine else "open"
    what = "mines" if found.mine else "safe"
    if found.rule == "single":
        (clue,) = found.clues
        number = view[clue]
        if found.mine:
            reason = f"the {number} at {place(clue)} has as many hidden neighbours as missing mines: all are {what}"
        else:
            reason = f"the {number} at {place(clue)} already touches its {number} mine(s): its other neighbours are {what}"
    else:
        a, b = found.clues
        reason = (
            f"the hidden neighbours of the {view[a]} at {place(a)} are all neighbours of the {view[b]} at {place(b)}; "
            f"the cells only the second touches are all {what}"
        )
    return Decision(Move(action, found.cell), found.rule, reason)


class Agent:
    """The reference agent. `trust_flags`: flagged cells are taken as mines by rules (a)/(b)
    (right when the agent placed them itself; the UI's hints turn it off). `book`: look up
    the decisions of views with few revealed cells in the opening book."""

    def __init__(
        self,
        rules: str = "classic",
        trust_flags: bool = True,
        guesser: Guesser | None = None,
        first: Cell | None = None,
        book: bool = True,
    ) -> None:
        self.rules = rules
        self.trust_flags = trust_flags
        self.guesser = guesser or Guesser()
        self.first = first
        self.book = book

    def first_click(self, view: View) -> Decision:
        """The first cell to open: `first` when given, else by rule set.

        `classic`: the corner (row 1, col 1), the cell most likely to be a 0 (it has only 3
        neighbours), and a 0 opens an area instead of showing a lone number.
        `opening`: the first cell is a 0 anyway, so the centre, whose opening is the
        largest (on Expert, 1,500 games: 51% won from the centre, 45% from a corner).
        """
        if self.first is not None:
            return Decision(Move("open", self.first), "first", "first click: the cell chosen for the first move")
        if self.rules == "opening":
            centre = (view.rows // 2, view.cols // 2)
            return Decision(Move("open", centre), "first", "first click: the centre, whose guaranteed 0 opens the most")
        return Decision(Move("open", (0, 0)), "first", "first click: a corner, the likeliest cell to be a 0")

    def decisions(self, view: View) -> list[Decision]:
        """Every certain move of the first layer that finds one, or a single guess."""
        if self.book and view.started and revealed(view) <= BOOK_REVEALED:
            return list(opening_decisions(self.rules, self.trust_flags, self.guesser, self.first, view))
        return self.think(view)

    def think(self, view: View) -> list[Decision]:
        """`decisions`, computed."""
        if not view.started:
            return [self.first_click(view)]
        certain = [explain(view, found) for found in deduce(view, self.trust_flags)]
        certain = [d for d in certain if self.playable(view, d.move)]
        if certain:
            return certain
        counted = probabilities(view)
        certain = [d for d in self.certain_from_count(counted) if self.playable(view, d.move)]
        if certain:
            return certain
        return [self.guesser.guess(view, counted)]

    def playable(self, view: View, move: Move) -> bool:
        """Flag only hidden cells; open flagged ones only when flags are not trusted (the UI unflags first)."""
        value = view[move.cell]
        return value == HIDDEN or (value == FLAGGED and move.action == "open" and not self.trust_flags)

    @staticmethod
    def certain_from_count(counted: Probabilities) -> list[Decision]:
        """Cells that (a) and (b) missed but every consistent layout agrees on."""
        total = counted.total
        safe = [
            Decision(Move("open", cell), "count", f"safe in all {total:,} layouts consistent with the board", Fraction(0)) for cell in counted.safe()
        ]
        mines = [
            Decision(Move("flag", cell), "count", f"a mine in all {total:,} layouts consistent with the board", Fraction(1))
            for cell in counted.certain_mines()
        ]
        return safe + mines

    def decide(self, view: View) -> Decision:
        """The agent's next move and why."""
        return self.decisions(view)[0]

    def choose_move(self, view: View) -> Move:
        """The next move alone (the student hook's signature)."""
        return self.decide(view).move


def revealed(view: View) -> int:
    """How many cells of `view` are revealed."""
    return sum(len(row) - row.count(HIDDEN) - row.count(FLAGGED) for row in view.cells)


@lru_cache(maxsize=4096)
def opening_decisions(rules: str, trust_flags: bool, guesser: Guesser, first: Cell | None, view: View) -> tuple[Decision, ...]:
    """The opening book: the decisions of an agent so configured on `view`, computed once."""
    return tuple(Agent(rules, trust_flags, guesser, first, book=False).think(view))
