"""An agent that forges its answers: at every move after a cell is open it writes, on the
worker's own reply descriptor, a reply claiming a move on an open cell (the first one),
then returns its real move (the first hidden cell), which the worker sends as well. The
grader reads one reply per move, in order: the forged one is the answer to that move (an
illegal move: the cell is already revealed), and every later answer is one move late."""

import json
import os
import sys

from play.view import HIDDEN, Move


def forged(view):
    """The forged move for this view (an open cell), or None before any cell is open."""
    return next((("open", cell) for cell in view.all_cells() if view[cell] >= 0), None)


def honest(view):
    return next(Move("open", cell) for cell in view.all_cells() if view[cell] == HIDDEN)


def choose_move(view):
    claim = forged(view)
    if claim is not None:
        replies = int(sys.argv[3])  # the worker's reply descriptor: python -c BOOTSTRAP VIEW SOURCE REPLY_FD ...
        os.write(replies, json.dumps({"value": {"move": [claim[0], list(claim[1])]}}).encode() + b"\n")
    return honest(view)
