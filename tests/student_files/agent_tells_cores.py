"""An agent that prints the cores it may run on at the first move of every game, tries to
run anywhere (a worker may not: the seccomp filter refuses), then crashes its process at
the second move: every game starts a fresh worker, which tells its cores again."""

import os

from play.view import HIDDEN, Move


def choose_move(view):
    if not view.started:
        print("cores", sorted(os.sched_getaffinity(0)))
        try:
            os.sched_setaffinity(0, set(range(os.cpu_count() or 1)))
        except OSError:
            print("refused")
    else:
        os._exit(3)
    return next(Move("open", cell) for cell in view.all_cells() if view[cell] == HIDDEN)
