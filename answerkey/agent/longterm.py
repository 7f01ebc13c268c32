"""Long-term risk: the 50/50s a guess pre-empts, as a credit on the lookahead's value.

A pair of hidden cells `a` and `b` next to each other is in *formation* in a layout where
one of them is a mine, the other safe, and every other cell touching only one of them a
mine (`answerkey.agent.forced.Formations`): in such a layout no number, now or later, can
tell `a` from `b`, and the mirror layout (`a` and `b` swapped) is as likely. So, whatever
is played, those layouts hold a coin flip the game cannot avoid: of the layouts where the
pair is in formation, half are lost, unless the pair is settled by opening `a` or `b`
itself.

Opening `a` now risks `a`'s mine layouts as any guess does, but in the formation layouts
where `a` is safe it settles the pair, which any other guess leaves for later. Relative
to another guess, opening `a` is worth about F(a) more, where F(a) is the share of the
view's layouts in which `a` is a mine with the pair in formation (the coin flip the other
guesses still face, counted on the mirror layouts, which are as many). The lookahead
sees two moves ahead and no further, so it misses this: the credit adds
`credit` x F(a) to the value of each counted cell (`credit` below 1 discounts the games
lost before the pair would have come up).

The pseudo 50/50 (`answerkey.agent.forced.pseudo_cell`) is the case F(a) = p(a); this
module gives partial credit for the partial cases, and brings the cells that have some
into the lookahead's comparison (the cells it would otherwise compare rarely have any).
"""

from __future__ import annotations

from answerkey.agent.forced import Formations
from answerkey.agent.probability import Probabilities
from play.view import HIDDEN, View
from solvers.board import Cell


def formation_shares(view: View, counted: Probabilities, ceiling: float, limit: int = 6, open_limit: int = 2) -> dict[Cell, float]:
    """F(a) (see the module docstring) for the hidden cells `a` whose mine probability is
    at most `ceiling`, with a partner `b` next to them (sharing a side) for which at most
    `open_limit` cells tell them apart and none of them is revealed; only cells with F > 0.

    Cheap necessary conditions are checked before any count: `b` is sometimes a mine and
    sometimes not, and no cell that tells the two apart is revealed or more than
    `open_limit` of them are not yet certain mines. At
    most `limit` exact counts are made (one per pair, the safest cells first); F(a) is the
    largest over `a`'s partners.
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
