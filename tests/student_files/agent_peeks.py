"""Tries to read the mine layout from the game object in the calling frames (a cheat)."""

import sys
from play.view import Move
def choose_move(view):
    f = sys._getframe(1)
    while "game" not in f.f_locals:
        f = f.f_back
    game = f.f_locals["game"]
    if game.status == "ready":   # first click is always protected
        return Move("open", (0, 0))
    for r in range(view.rows):
        for c in range(view.cols):
            if view.cells[r][c] == -1 and not game.is_mine((r, c)):
                return Move("open", (r, c))
