"""An agent with the one-clue rule only: it opens the neighbours of a number whose mines
are all flagged and flags the hidden neighbours of a number that needs them all; when no
number settles anything it guesses the first hidden cell. It wins some Beginner games."""

from play.view import FLAGGED, HIDDEN, Move


def choose_move(view):
    for cell in view.all_cells():
        number = view[cell]
        if number <= 0:
            continue
        around = view.neighbours(cell)
        hidden = [n for n in around if view[n] == HIDDEN]
        flagged = sum(view[n] == FLAGGED for n in around)
        if hidden and flagged == number:
            return Move("open", hidden[0])
        if hidden and flagged + len(hidden) == number:
            return Move("flag", hidden[0])
    if not view.started:
        return Move("open", (0, 0))
    return Move("open", next(cell for cell in view.all_cells() if view[cell] == HIDDEN))
