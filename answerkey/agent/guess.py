"""Layer (d) of the agent: which cell to open when no cell is certain.

1. Endgame: when at most `endgame_layouts` (1,000) layouts remain, list them and search the
   game tree exactly (`answerkey.agent.endgame`, at most `endgame_budget` nodes): open the
   cell that wins the most layouts.
2. Forced 50/50 (policy `lookahead`, `forced`): two cells, exactly one a mine, that no
   number can ever tell apart (`answerkey.agent.forced`): one is opened now, since the game cannot
   be won without that guess and what it shows helps every later move.
   Pseudo 50/50 (`pseudo`): a cell that, whenever it is a mine, forms such a pair with a
   cell at most two away (`answerkey.agent.forced.pseudo_cell`): opening it risks only what
   the game risks anyway, so it is opened now too.
3. Otherwise (policy `lookahead`, the default) a one-move lookahead on a few cells:
   `lookahead_cells` (3) when the safest cell is far from every number (early in a game,
   or after a guess that opened nothing), `frontier_cells` (6) when it touches one (0: every
   ranked cell):
   - the safest cell, ties to the likeliest safe 0 (`safest` below);
   - the best others by a cheap ranking: among the cells at least `cutoff` (90%)
     as likely to be safe as the safest, the highest (1 - p) * (1 + 0.1 * progress),
     where progress is `answerkey.agent.progress`'s estimate of the chance that the number the
     cell shows settles a neighbour at once. Cells far from every number differ only by
     their count of neighbours: at most `far_cells` (3) of each count are ranked, and
     none with the safest cell's count (`distinct`: they would score as it does).
   Why two widths: measured on the same games, comparing more cells while the safest is
   a far cell lost games on Intermediate (a cell next to a lone number settles a
   neighbour more often than a far corner, but the corner is likelier to be a 0 and open
   an area, which two-move survival does not see), while comparing more cells along the
   frontier won games on Expert.
   For each, every number the cell can show is counted exactly (`answerkey.agent.lookahead`): the
   chance of surviving this guess and the next, where a certain move next counts as
   survived and otherwise the next guess is the safest cell then. The highest wins; a
   tie keeps the safest cell. A *dead* cell (`avoid_dead`: counted in full, it can show
   only one number) is never chosen while a counted cell can show more, and when every
   counted cell is dead up to `dead_extra` more of the ranking are counted: opening a
   dead cell risks a mine to learn nothing, and it can always be opened later instead.
4. Policy `safest` (the agent before the lookahead, kept as the benchmarks' baseline):
   the safest cell with the likeliest-0 tie-break: among the cells whose mine
   probability is within `margin` of the lowest, the one most likely to be safe *and* a
   0, estimated as (1 - p(cell)) times the product of (1 - p(n)) over its hidden
   neighbours n (as if they were independent). Remaining ties: row-major.

Every parameter was chosen by paired runs of `bench/play_paired.py` (the same seeds for
both settings); `bench/README.md` has the figures and the commands.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from answerkey.agent.decision import Decision, percent, place
from answerkey.agent.endgame import endgame_plan
from answerkey.agent.forced import forced_pair, pseudo_cell
from answerkey.agent.lookahead import Lookahead
from answerkey.agent.pocket import pocket_plan
from answerkey.agent.probability import Probabilities, neighbour_indices
from answerkey.agent.progress import ProgressEstimator
from play.view import HIDDEN, Move, View
from solvers.board import Cell

Policy = Literal["safest", "lookahead"]


@dataclass(frozen=True)
class Comparison:
    """What `Guesser.compare` found: the safest cell's decision `first`, the `best` cell (None:
    `first`), the two-move `values` of the cells counted, the `dead` ones, and how many cells were
    `counted`."""

    first: Decision
    best: Cell | None
    values: dict[Cell, float]
    dead: set[Cell]
    counted: int


@dataclass(frozen=True)
class Guesser:
    """The guessing policy. `margin`: how much riskier than the safest cell a candidate
    may be; `endgame_layouts`: largest number of layouts searched exactly;
    `endgame_budget`: most game-tree nodes one search may visit; `tie_break=False`
    (with `endgame_layouts=0`: the plain published policy) takes the first safest cell, row-major.
    `policy`: "lookahead" (default) or "safest" (the agent before it); for the lookahead,
    `cutoff` (how safe a ranked cell must be, relative to the safest), `progress_weight`
    (the ranking's weight of progress), `lookahead_cells` and `frontier_cells` (cells
    counted ahead when the safest is far from every number, and when it is not),
    `far_cells` (far cells ranked per count of neighbours), `forced`
    (forced 50/50s first), `avoid_dead` and `dead_extra` (no dead cell while another can
    tell something; how many more cells to count when all are dead), `distinct` (no
    cell that only repeats the safest one's score), `pseudo` (pseudo 50/50s first) and
    `pockets` and `pocket_layouts` (isolated pockets of at most so many layouts searched
    exactly first). The experiments measured and not kept are `bench/agent_experiments.py`'s."""

    margin: float = 0.0
    endgame_layouts: int = 1000
    endgame_budget: int = 200_000
    tie_break: bool = True
    policy: Policy = "lookahead"
    cutoff: float = 0.9
    progress_weight: float = 0.1
    lookahead_cells: int = 3
    far_cells: int = 3
    forced: bool = True
    avoid_dead: bool = True
    dead_extra: int = 4
    distinct: bool = True
    frontier_cells: int = 6
    pseudo: bool = True
    pockets: bool = True
    pocket_layouts: int = 1000

    def guess(self, view: View, counted: Probabilities) -> Decision:
        """The guess for a view on which no cell is certain."""
        if counted.total <= self.endgame_layouts:
            plan = endgame_plan(view, counted.csp, self.endgame_budget)
            if plan is not None:
                p = counted[plan.cell]
                reason = (
                    f"exact lookahead over the {plan.layouts} remaining layouts: opening it wins "
                    f"{plan.wins} of them ({plan.wins / plan.layouts:.1%}); mine probability {percent(p)}"
                )
                return Decision(Move("open", plan.cell), "endgame", reason, p)
        if self.policy == "lookahead":
            if self.pockets:
                plan = pocket_plan(view, counted, self.pocket_layouts, self.endgame_budget)
                if plan is not None:
                    p = counted[plan.cell]
                    reason = (
                        f"an isolated pocket (no cell outside it can ever inform it) with {plan.layouts} layouts of its own, "
                        f"searched exactly: opening it wins {plan.wins} of them ({plan.wins / plan.layouts:.1%}); "
                        f"mine probability {percent(p)}"
                    )
                    return Decision(Move("open", plan.cell), "endgame", reason, p)
            if self.forced:
                pair = forced_pair(view, counted)
                if pair is not None:
                    a, b = pair
                    reason = (
                        f"no safe cell: a forced 50/50 with {place(b)} (exactly one of the two is a mine and no number "
                        "can ever tell them apart): guessed now, so that what it shows helps every later move"
                    )
                    return Decision(Move("open", a), "guess", reason, counted[a])
            if self.pseudo:
                pair = pseudo_cell(view, counted)
                if pair is not None:
                    a, b = pair
                    reason = (
                        f"no safe cell: a pseudo 50/50 with {place(b)}: whenever this cell is a mine, no number can ever "
                        f"tell the two apart, so that risk ({percent(counted[a])}) is taken whatever is played; taken now, "
                        "so that what it shows helps every later move"
                    )
                    return Decision(Move("open", a), "guess", reason, counted[a])
            return self.lookahead(view, counted)
        return self.safest(view, counted)

    def lookahead(self, view: View, counted: Probabilities) -> Decision:
        """The best cell of `compare`, with the reason in words."""
        return self.explain(self.compare(view, counted), counted)

    def explain(self, found: Comparison, counted: Probabilities) -> Decision:
        """The decision `found` stands for: the safest cell's, or its best cell's with the reason in words."""
        first, best, values = found.first, found.best, found.values
        if best is None or best == first.move.cell:
            return first
        p = counted[best]
        if first.move.cell in found.dead:
            reason = (
                f"no safe cell: mine probability {percent(p)}; the safest cell can show only one number (it would tell "
                f"nothing), so the best of the others one move ahead ({values[best]:.1%} to survive this guess and the next)"
            )
        else:
            reason = (
                f"no safe cell: mine probability {percent(p)}; of {found.counted} cells looked at one move ahead, the likeliest "
                f"to survive this guess and the next ({values[best]:.1%}, against {values[first.move.cell]:.1%} for the safest)"
            )
        return Decision(Move("open", best), "guess", reason, p)

    def compare(self, view: View, counted: Probabilities) -> Comparison:
        """Two-move survival, counted exactly (`answerkey.agent.lookahead`) for the `candidates`: the
        safest cell (as `safest` picks it) and the best others by `ranking`. A cell's value is the sum
        over the numbers it can show of P(safe and shows v) times 1 when a certain move follows, else
        1 - the risk of the next guess. The highest value wins (`survey`); when every cell counted is
        dead, the first of the spare cells that can show more than one number."""
        first = self.safest(view, counted)
        risk = {cell: mines / counted.total for cell, mines in counted.mines.items()}
        cells, spare = self.candidates(view, counted, ProgressEstimator(view, risk), first.move.cell)
        if len(cells) + len(spare) < 2:
            return Comparison(first, None, {first.move.cell: 1.0 - risk[first.move.cell]}, set(), 1)
        values, dead, best = self.survey(self.ahead(view, cells, risk), cells, counted.total)
        if best is None and spare:  # every cell counted was dead: the next ones in the ranking
            best = self.first_alive(self.ahead(view, spare, risk), spare, counted.total, values)
        return Comparison(first, best, values, dead, len(cells))

    def candidates(self, view: View, counted: Probabilities, estimator: ProgressEstimator, first: Cell) -> tuple[list[Cell], list[Cell]]:
        """The cells to count, `first` (the safest) then the ranking's best: `lookahead_cells` of them
        when `first` is far from every number, else `frontier_cells` (0: every ranked cell); and the
        spare cells counted when all of those are dead (`dead_extra` more of the ranking)."""
        others = [cell for cell in self.ranking(view, counted, estimator, first) if cell != first]
        count = self.lookahead_cells if estimator.far(first) is not None else self.frontier_cells
        width = count - 1 if count else len(others)
        spare = others[width:][: self.dead_extra] if self.avoid_dead else []
        return [first, *others[:width]], spare

    def ahead(self, view: View, cells: list[Cell], risk: dict[Cell, float]) -> Lookahead:
        """The what-if counter for `cells` on `view`."""
        return Lookahead(view, cells, risk)

    def survey(self, ahead: Lookahead, cells: list[Cell], total: int) -> tuple[dict[Cell, float], set[Cell], Cell | None]:
        """(each cell's two-move value, the dead cells, the best live cell): the highest value, ties to the
        earlier cell. A cell that cannot beat the best value so far is not counted in full."""
        values: dict[Cell, float] = {}
        dead: set[Cell] = set()
        best: Cell | None = None
        for cell in cells:
            values[cell], shown, complete = ahead.survey(cell, total, values[best] if best is not None else 0.0)
            if self.avoid_dead and complete and shown <= 1:
                dead.add(cell)
            elif best is None or values[cell] > values[best]:
                best = cell
        return values, dead, best

    @staticmethod
    def first_alive(ahead: Lookahead, cells: list[Cell], total: int, values: dict[Cell, float]) -> Cell | None:
        """The first of `cells` that can show more than one number (None: none), each cell counted
        on the way entered in `values`."""
        for cell in cells:
            values[cell], shown, _ = ahead.survey(cell, total)
            if shown > 1:
                return cell
        return None

    def ranking(self, view: View, counted: Probabilities, estimator: ProgressEstimator, first: Cell | None = None) -> list[Cell]:
        """Cells at least `cutoff` times as likely to be safe as the safest, best first by
        (1 - p) * (1 + progress_weight * progress) (progress: `answerkey.agent.progress`), then by the
        likeliest 0, then row-major. Of the cells far from every number, which differ only by
        their count of hidden neighbours, only the first `far_cells` of each count."""
        pool = [cell for cell in counted.mines if view[cell] == HIDDEN] or list(counted.mines)
        risk = estimator.risk_of
        floor = self.cutoff * (1.0 - min(risk[cell] for cell in pool)) - 1e-12
        kept: dict[int, int] = {}
        if self.distinct and first is not None and (twin := estimator.far(first)) is not None:
            kept[twin] = self.far_cells  # cells like `first`: they would only score as it does
        scored = []
        for cell in pool:
            if 1.0 - risk[cell] < floor:
                continue
            far = estimator.far(cell)
            if far is not None:
                kept[far] = kept.get(far, 0) + 1
                if kept[far] > self.far_cells:
                    continue
            chance = estimator.chance(cell)
            scored.append(((1.0 - risk[cell]) * (1.0 + self.progress_weight * chance), zero_chance(view, risk, cell), cell))
        scored.sort(key=lambda item: (-item[0], -item[1]))
        return [cell for _, _, cell in scored]

    def safest(self, view: View, counted: Probabilities) -> Decision:
        """The safest cell, ties (within `margin`) to the likeliest safe 0.

        Flagged cells are candidates only when nothing else is hidden (a player's flags
        may be wrong; the agent's own flags are certain mines and never the safest).
        """
        pool = [cell for cell in counted.mines if view[cell] == HIDDEN] or list(counted.mines)
        mines = counted.mines
        risk = {cell: count / counted.total for cell, count in mines.items()}  # every hidden cell
        lowest = min(risk[cell] for cell in pool)
        candidates = [cell for cell in pool if risk[cell] <= lowest + self.margin + 1e-12]
        if not self.tie_break:
            best = min(candidates, key=lambda cell: mines[cell])
            return Decision(Move("open", best), "guess", f"no safe cell: lowest mine probability {percent(counted[best])}", counted[best])
        best = max(representatives(view, candidates), key=lambda cell: (zero_chance(view, risk, cell), -risk[cell]))
        p = counted[best]
        lowest_text = "the lowest" if mines[best] == min(mines[cell] for cell in pool) else f"within {self.margin:.0%} of the lowest"
        reason = f"no safe cell: mine probability {percent(p)}, {lowest_text}"
        if len(candidates) > 1:
            reason += f"; of the {len(candidates)} cells this safe, the likeliest to be a 0 ({zero_chance(view, risk, best):.0%})"
        return Decision(Move("open", best), "guess", reason, p)


def representatives(view: View, cells: list[Cell]) -> list[Cell]:
    """`cells` without those far from every number (every neighbour hidden, unflagged and
    next to no number) whose count of neighbours an earlier such cell already had: all
    hidden cells next to no number have one same probability, so such a cell scores
    exactly as the earlier one and loses the tie to it."""
    cols = view.cols
    flat = [value for row in view.cells for value in row]
    table = neighbour_indices(view.rows, cols)
    blocked = bytearray(len(flat))  # 1: revealed, flagged, or next to a number
    for i, value in enumerate(flat):
        if value != HIDDEN:
            blocked[i] = 1
            if value >= 0:
                for j in table[i]:
                    blocked[j] = 1
    seen: set[int] = set()
    kept = []
    for cell in cells:
        i = cell[0] * cols + cell[1]
        around = table[i]
        if not blocked[i] and not any(blocked[j] for j in around):
            if len(around) in seen:
                continue
            seen.add(len(around))
        kept.append(cell)
    return kept


def zero_chance(view: View, risk: dict[Cell, float], cell: Cell) -> float:
    """(1 - p(cell)) times the product of (1 - p(n)) over its hidden neighbours n: the
    chance it is safe and a 0 if the neighbours were independent."""
    chance = 1.0 - risk[cell]
    for n in view.neighbours(cell):
        if n in risk:
            chance *= 1.0 - risk[n]
    return chance
