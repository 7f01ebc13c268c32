"""An agent whose process ends itself at every move (os._exit): no move, no exception."""

import os


def choose_move(view):
    os._exit(3)
