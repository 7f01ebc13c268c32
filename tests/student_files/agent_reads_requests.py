"""An agent that, at the first move of every game, reads the worker's standard input (the
grader's questions) before it answers: no question comes while the grader waits for the
answer, so it waits for good, and the per-move limit must end the move."""

import os

from play.view import HIDDEN, Move


def choose_move(view):
    if not view.started:
        os.read(0, 1 << 16)
    return next(Move("open", cell) for cell in view.all_cells() if view[cell] == HIDDEN)
