"""An agent that opens the first hidden cell in row-major order, but thinks forever (on
CPU time, far past any per-move limit) on the boards where fewer than SLOW_BELOW cells
are still hidden: a few of the games, found from the view alone."""

import time

from play.view import HIDDEN, Move

SLOW_BELOW = 44  # hidden cells
SPIN_SECONDS = 60.0  # of CPU time: a multiple of any per-move limit a test sets


def slow_here(view):
    return len(view.hidden()) < SLOW_BELOW


def choose_move(view):
    if slow_here(view):
        started = time.process_time()
        while time.process_time() - started < SPIN_SECONDS:
            pass
    for r in range(view.rows):
        for c in range(view.cols):
            if view[(r, c)] == HIDDEN:
                return Move("open", (r, c))
    raise RuntimeError("no hidden cell left")
