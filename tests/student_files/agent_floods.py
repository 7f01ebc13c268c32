"""An agent that opens the first hidden cell in row-major order, but on its first move of
a game prints without end: one move past any output cap."""

from play.view import HIDDEN, Move


def choose_move(view):
    if len(view.hidden()) == view.rows * view.cols:
        while True:
            print("x" * 4096)
    for r in range(view.rows):
        for c in range(view.cols):
            if view[(r, c)] == HIDDEN:
                return Move("open", (r, c))
    raise RuntimeError("no hidden cell left")
