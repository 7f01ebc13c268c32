"""How likely a guess is to lead somewhere: the chance that, if the cell is safe, the
number it shows makes a certain move available at once.

For a candidate cell c, let U be its hidden neighbours that are not known mines (flags
are trusted: the agent flags only what it proved) and k the mines among them, which is
the number c shows minus its flagged neighbours. The distribution of k is taken from the
exact mine probabilities of U's cells as if they were independent (a Poisson binomial),
then every k that contradicts a neighbouring clue is struck out and the rest scaled back
to 1. For each k left, c's new clue "U holds k mines" gives a certain move when

- k is 0 (every cell of U is safe; with no flag around, c is a 0 and opens an area);
- k is |U| and some clue that touches U is then satisfied with hidden cells left over;
- with a clue B (unknowns W, need n) that shares cells with U, the mines in U & W lie
  between max(0, k - |U - W|, n - |W - U|) and min(|U & W|, k, n); when that lower
  bound already equals k the cells of U - W are safe, when it equals n those of W - U.

This is rule (b) of `answerkey.agent.reasoning` and one step of rule (a), for the one new clue.
Progress found by the count layer or by longer chains is not seen: the estimate is a
lower bound of the real chance, computed in microseconds per cell.
"""

from __future__ import annotations

from collections.abc import Iterable

from answerkey.agent.reasoning import Clue, bits, hidden_masks, neighbour_masks, residual_clues
from play.view import View
from solvers.board import Cell


def poisson_binomial(chances: list[float]) -> list[float]:
    """P(exactly k of independent events happen), k = 0..len(chances)."""
    dist = [1.0]
    for p in chances:
        nxt = [0.0] * (len(dist) + 1)
        for k, q in enumerate(dist):
            nxt[k] += q * (1.0 - p)
            nxt[k + 1] += q * p
        dist = nxt
    return dist


class ProgressEstimator:
    """Progress chances of candidate cells on one view, given every hidden cell's mine probability."""

    def __init__(self, view: View, risk: dict[Cell, float]) -> None:
        self.risk_of = risk
        self.cols = view.cols
        self.masks = neighbour_masks(view.rows, view.cols)
        hidden, flagged = hidden_masks(view)
        self.unknown = hidden & ~flagged
        self.flagged = flagged
        self.risk = [0.0] * (view.rows * view.cols)
        for (r, c), p in risk.items():
            self.risk[r * view.cols + c] = p
        self.touching: dict[int, list[Clue]] = {}
        self.clued = 0  # cells some clue touches: every other hidden cell has one same probability
        for clue in residual_clues(view, hidden, flagged):
            self.clued |= clue.unknowns
            for i in bits(clue.unknowns):
                self.touching.setdefault(i, []).append(clue)

    def far(self, cell: Cell) -> int | None:
        """For a cell whose neighbours are all hidden, unflagged and next to no number, their
        count (such cells differ by nothing else); None for any other cell."""
        index = cell[0] * self.cols + cell[1]
        around = self.masks[index]
        return around.bit_count() if not around & ~(self.unknown & ~self.clued) else None

    def chance(self, cell: Cell) -> float:
        """The estimated chance that opening `cell`, if safe, gives a certain move next."""
        index = cell[0] * self.cols + cell[1]
        around = self.masks[index] & self.unknown
        if not around:
            return 0.0
        if not around & self.clued:  # no clue nearby: progress only from a 0
            return (1.0 - self.risk[around.bit_length() - 1]) ** around.bit_count()
        clues: dict[int, Clue] = {}
        for i in bits(around):
            for clue in self.touching.get(i, ()):
                clues[clue.index] = clue
        size = around.bit_count()
        dist = poisson_binomial([self.risk[i] for i in bits(around)])
        feasible = [0.0] * (size + 1)
        progress = 0.0
        for k, p in enumerate(dist):
            if p <= 0.0:
                continue
            verdict = self.outcome(around, size, k, clues.values(), 1 << index)
            if verdict is None:
                continue
            feasible[k] = p
            if verdict:
                progress += p
        total = sum(feasible)
        return progress / total if total > 0.0 else 0.0

    @staticmethod
    def outcome(around: int, size: int, k: int, clues: Iterable[Clue], opened: int) -> bool | None:
        """None when "`around` holds k mines" contradicts a clue; else whether a certain move
        follows. `opened`: the guessed cell's bit, safe from then on (not a move to find)."""
        found = k == 0
        for clue in clues:
            shared = around & clue.unknowns
            mine_side = size - shared.bit_count()  # |U - W|
            other_side = (clue.unknowns & ~around & ~opened).bit_count()  # |W - U|, the guessed cell left out
            low = max(0, k - mine_side, clue.need - other_side)
            high = min(shared.bit_count(), k, clue.need)
            if low > high:
                return None
            if found:
                continue
            if mine_side and low >= k:
                found = True
            elif other_side and low >= clue.need:
                found = True
        return found
