"""An agent that opens the first hidden cell in row-major order: legal, but loses."""

from play.view import HIDDEN, Move


def choose_move(view):
    for r in range(view.rows):
        for c in range(view.cols):
            if view[(r, c)] == HIDDEN:
                return Move("open", (r, c))
    raise RuntimeError("no hidden cell left")
