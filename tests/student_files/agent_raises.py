"""An agent that opens the first hidden cell in row-major order, but raises ValueError on
a board with a revealed 3, and makes an illegal move (opening a revealed cell) on a board
with a revealed 2 next to the corner."""

from play.view import HIDDEN, Move


def choose_move(view):
    cells = [view[cell] for cell in view.all_cells()]
    if 3 in cells:
        raise ValueError("a three")
    if view[(0, 1)] == 2:
        return Move("open", (0, 1))
    for r in range(view.rows):
        for c in range(view.cols):
            if view[(r, c)] == HIDDEN:
                return Move("open", (r, c))
    raise RuntimeError("no hidden cell left")
