"""The guessing experiments measured and not kept (`bench/README.md` has their figures).

`ExperimentalGuesser` is the reference agent's `Guesser` with three more options, each off
by default (so that, left at their defaults, it plays exactly as `Guesser`):

- `blend`: an outcome without a certain move is worth 1 - ((1 - blend) x the next guess's
  risk + blend x the second safest cell's), as if a second good option were worth something;
- `deeper_margin` and `deeper_cells`: at most `deeper_cells` cells within `deeper_margin` of
  the best two-move value, the best included, are compared one guess deeper (`deeper_value`);
- `formation_credit` and `formation_counts`: that weight times F(a), the share of layouts in
  which a cell is a mine in a 50/50 formation it would settle (`formation_shares`), is added
  to its two-move value, and such cells join the comparison (at most `formation_counts`
  exact counts a guess).

The benchmark scripts take these fields as they take `Guesser`'s
(`play_paired.py --new blend=0.2`, `play_jsms.py --agent formation_credit=0.9`).
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too; with `pip install -e .` it is the same code
    sys.path.insert(0, str(ROOT))

from answerkey.agent.decision import Decision  # noqa: E402
from answerkey.agent.forced import Formations  # noqa: E402
from answerkey.agent.guess import Comparison, Guesser  # noqa: E402
from answerkey.agent.lookahead import Lookahead, Outcome  # noqa: E402
from answerkey.agent.probability import Probabilities, probabilities  # noqa: E402
from answerkey.agent.progress import ProgressEstimator  # noqa: E402
from play.view import HIDDEN, View  # noqa: E402
from solvers.board import Cell  # noqa: E402


class BlendedLookahead(Lookahead):
    """The lookahead with the second safest cell weighed `blend` in an outcome's next guess."""

    def __init__(self, view: View, candidates: list[Cell], risk: dict[Cell, float], blend: float) -> None:
        super().__init__(view, candidates, risk)
        self.blend = blend

    def worth(self, outcome: Outcome) -> float:
        """1 with progress, else 1 - the next guess's risk blended with the second safest cell's."""
        if outcome.progress:
            return 1.0
        return 1.0 - (1.0 - self.blend) * outcome.next_risk - self.blend * outcome.second_risk


@dataclass(frozen=True)
class ExperimentalComparison(Comparison):
    """A comparison with the close calls' values one guess `deeper` and the formation `credit` added."""

    deeper: dict[Cell, float] = field(default_factory=dict)
    credit: dict[Cell, float] = field(default_factory=dict)


@dataclass(frozen=True)
class ExperimentalGuesser(Guesser):
    """`Guesser` with the experiments of the module docstring (all off by default)."""

    blend: float = 0.0
    deeper_margin: float = 0.0
    deeper_cells: int = 2
    formation_credit: float = 0.0
    formation_counts: int = 6

    def ahead(self, view: View, cells: list[Cell], risk: dict[Cell, float]) -> Lookahead:
        """The what-if counter, blended."""
        return BlendedLookahead(view, cells, risk, self.blend)

    def compare(self, view: View, counted: Probabilities) -> ExperimentalComparison:
        """`Guesser.compare` with the formation credit in the scores, then the close calls one guess deeper."""
        first = self.safest(view, counted)
        risk = {cell: mines / counted.total for cell, mines in counted.mines.items()}
        cells, spare = self.candidates(view, counted, ProgressEstimator(view, risk), first.move.cell)
        credit: dict[Cell, float] = {}
        if self.formation_credit > 0:
            ceiling = 1.0 - self.cutoff * (1.0 - risk[first.move.cell])
            shares = formation_shares(view, counted, ceiling, self.formation_counts)
            credit = {cell: self.formation_credit * share for cell, share in shares.items()}
            cells += [cell for cell in sorted(credit, key=lambda cell: -credit[cell]) if cell not in cells]
            spare = [cell for cell in spare if cell not in cells]
        if len(cells) + len(spare) < 2:
            return ExperimentalComparison(first, None, {first.move.cell: 1.0 - risk[first.move.cell]}, set(), 1)
        ahead = self.ahead(view, cells, risk)
        values, dead, best = self.credited_survey(ahead, cells, counted.total, credit)
        deeper: dict[Cell, float] = {}
        if best is not None and self.deeper_margin > 0:
            close = [cell for cell in cells if cell not in dead and cell != best and values[cell] >= values[best] - self.deeper_margin]
            close = sorted(close, key=lambda cell: -values[cell])[: self.deeper_cells - 1]
            if close:
                plain = replace(self, deeper_margin=0.0)
                deeper = {cell: deeper_value(view, ahead, cell, counted.total, plain.best_value) for cell in [best, *close]}
                best = max(deeper, key=deeper.__getitem__)  # ties keep the lookahead's choice
        if best is None and spare:  # every cell counted was dead: the next ones in the ranking
            best = self.first_alive(self.ahead(view, spare, risk), spare, counted.total, values)
        kept = {cell: x for cell, x in credit.items() if cell in values}
        return ExperimentalComparison(first, best, values, dead, len(cells), deeper, kept)

    def credited_survey(
        self, ahead: Lookahead, cells: list[Cell], total: int, credit: dict[Cell, float]
    ) -> tuple[dict[Cell, float], set[Cell], Cell | None]:
        """`Guesser.survey` with each cell's `credit` added to its value before the values are compared."""
        values: dict[Cell, float] = {}
        score: dict[Cell, float] = {}
        dead: set[Cell] = set()
        best: Cell | None = None
        for cell in cells:
            extra = credit.get(cell, 0.0)
            values[cell], shown, complete = ahead.survey(cell, total, score[best] - extra if best is not None else 0.0)
            score[cell] = values[cell] + extra
            if self.avoid_dead and complete and shown <= 1:
                dead.add(cell)
            elif best is None or score[cell] > score[best]:
                best = cell
        return values, dead, best

    def explain(self, found: Comparison, counted: Probabilities) -> Decision:
        """`Guesser.explain`, saying what the credit and the deeper look added."""
        decision = super().explain(found, counted)
        if decision is found.first or not isinstance(found, ExperimentalComparison):
            return decision
        reason = decision.reason
        best = decision.move.cell
        if best in found.credit:
            reason += f"; counted with {found.credit[best]:.1%} added for the 50/50 formations it would settle"
        if found.deeper:
            close = f"{len(found.deeper)} cells within {self.deeper_margin:.1%} of the best"
            reason += f"; of the {close}, the likeliest to survive two more guesses after it ({found.deeper[best]:.1%})"
        return replace(decision, reason=reason)

    def best_value(self, view: View, counted: Probabilities) -> float:
        """The two-move survival of the cell `compare` picks on `view`."""
        found = self.compare(view, counted)
        return found.values[found.best or found.first.move.cell]


# --- one guess deeper ------------------------------------------------------------------------
# The lookahead values a guess by the chance of surviving it and the next one. When two
# cells come out within a small margin of each other, that horizon cannot tell them apart;
# here each of them is played one guess further: for every number n the cell can show that
# leaves no certain move, the position "the cell shows n" is counted again and the
# lookahead's own best value there (two more guesses) replaces "1 - the next guess's risk".
# An outcome with a certain move still counts as survived, as in the lookahead.

#: The best two-move value a guesser finds on a view (no cell of it certain).
ValueOf = Callable[[View, Probabilities], float]


def shown(view: View, cell: Cell, value: int) -> View:
    """`view` with `cell` revealed, showing `value`."""
    r, c = cell
    row = view.cells[r]
    cells = (*view.cells[:r], (*row[:c], value, *row[c + 1 :]), *view.cells[r + 1 :])
    return View(view.rows, view.cols, view.mines, cells)


def deeper_value(view: View, ahead: Lookahead, cell: Cell, total: int, value_of: ValueOf) -> float:
    """The chance of surviving a guess at `cell` and the two guesses after it (see above);
    `value_of(view, counted)`: the best two-move value a guesser finds on a view with no certain cell."""
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


# --- long-term risk: 50/50 formations --------------------------------------------------------
# A pair of hidden cells `a` and `b` next to each other is in *formation* in a layout where
# one of them is a mine, the other safe, and every other cell touching only one of them a
# mine (`answerkey.agent.forced.Formations`): no number, now or later, can tell `a` from `b`,
# and the mirror layout is as likely, so half of those layouts are lost whatever is played,
# unless the pair is settled by opening `a` or `b` itself. Opening `a` now is worth about
# F(a) more than another guess, F(a) being the share of the view's layouts in which `a` is a
# mine with the pair in formation; the lookahead sees two moves ahead and misses this. The
# pseudo 50/50 (`answerkey.agent.forced.pseudo_cell`) is the case F(a) = p(a).


def formation_shares(view: View, counted: Probabilities, ceiling: float, limit: int = 6, open_limit: int = 2) -> dict[Cell, float]:
    """F(a) (see above) for the hidden cells `a` whose mine probability is at most `ceiling`,
    with a partner `b` next to them (sharing a side) for which at most `open_limit` cells tell
    them apart and none of them is revealed; only cells with F > 0.

    Cheap necessary conditions are checked before any count: `b` is sometimes a mine and
    sometimes not, and no cell that tells the two apart is revealed or more than
    `open_limit` of them are not yet certain mines. At most `limit` exact counts are made
    (one per pair, the safest cells first); F(a) is the largest over `a`'s partners.
    """
    total = counted.total
    if not total:
        return {}
    mines = counted.mines
    formations = Formations(view, counted, open_limit)
    top = ceiling * total
    candidates = sorted((count, cell) for cell, count in mines.items() if 0 < count <= top and count < total and view[cell] == HIDDEN)
    shares: dict[Cell, float] = {}
    for _, a in candidates:
        ra, ca = a
        for b in ((ra - 1, ca), (ra + 1, ca), (ra, ca - 1), (ra, ca + 1)):
            if not (0 <= b[0] < view.rows and 0 <= b[1] < view.cols) or view[b] != HIDDEN:
                continue
            if not 0 < mines[b] < total:
                continue
            open_cells = formations.apart(a, b)
            if open_cells is None:
                continue
            if formations.counts >= limit:
                return shares
            found = formations.layouts(a, b, open_cells)
            if found:
                shares[a] = max(shares.get(a, 0.0), found / total)
    return shares
