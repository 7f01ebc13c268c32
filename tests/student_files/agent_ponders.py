"""An agent that opens the first hidden cell in row-major order after thinking THINK_SECONDS
of CPU time at every move: each move within a per-move limit, the games together slow."""

import time

from play.view import HIDDEN, Move

THINK_SECONDS = 0.2


def choose_move(view):
    started = time.process_time()
    while time.process_time() - started < THINK_SECONDS:
        pass
    for r in range(view.rows):
        for c in range(view.cols):
            if view[(r, c)] == HIDDEN:
                return Move("open", (r, c))
    raise RuntimeError("no hidden cell left")
