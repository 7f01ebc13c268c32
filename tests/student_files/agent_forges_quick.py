"""An agent that forges replies in the worker's own compact form (the form the grader reads
without a parse of JSON) and in near misses of it: at every move it writes, on the worker's
reply descriptor, one line chosen by how many cells are revealed (a move on an open cell,
a number past the bound, a number with a leading zero, an action that is none, a cell off
the board, or nothing), then returns its real move, which the worker sends as well. The
grader reads one reply per move, in order, each as it reads any reply."""

import os
import sys

from play.view import HIDDEN, Move

FORGED = (
    '{{"value":{{"move":["open",[{row},{col}]]}}}}',
    '{{"value":{{"move":["open",[1234567890123456789,{col}]]}}}}',
    '{{"value":{{"move":["open",[0{row},{col}]]}}}}',
    '{{"value":{{"move":["dig",[{row},{col}]]}}}}',
    '{{"value":{{"move":["flag",[-1,{col}]]}}}}',
    "",
)


def choose_move(view):
    revealed = [cell for cell in view.all_cells() if view[cell] >= 0]
    if revealed:
        row, col = revealed[0]
        line = FORGED[len(revealed) % len(FORGED)].format(row=row, col=col)
        if line:
            os.write(int(sys.argv[3]), line.encode() + b"\n")  # the reply descriptor: python -c BOOTSTRAP VIEW SOURCE REPLY_FD ...
    return next(Move("open", cell) for cell in view.all_cells() if view[cell] == HIDDEN)
