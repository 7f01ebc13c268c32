"""Your Minesweeper playing agent: implement `choose_move` below.

The grader plays seeded games with it (`play.evaluate.evaluate_agent`) and scores its
win rate. Try it yourself with

    python -m play bench --level beginner --games 100

which plays it on the games with seeds 0..99, prints its win rate as a table and names
the games it lost. Edit only this file.
"""

from __future__ import annotations

from play.view import FLAGGED, HIDDEN, Move, View

__all__ = ["choose_move", "Move", "View", "HIDDEN", "FLAGGED"]


def choose_move(view: View) -> Move:
    """Choose the next move from what the player can see.

    The game calls this once per move until the game is won or lost.

    What you get, `view` (a `play.view.View`, read-only):

    - `view.rows`, `view.cols`: the board size; a cell is a (row, col) pair counted from 0
      (messages write the cell (3, 2) as r4c3, counting from 1);
    - `view.mines`: how many mines the board holds in total;
    - `view.cells[r][c]` (or `view[(r, c)]`): 0..8 for a revealed cell (how many of its up
      to 8 neighbours are mines), `HIDDEN` (-1) for a cell not revealed yet, `FLAGGED` (-2)
      for a hidden cell you flagged;
    - helpers: `view.neighbours(cell)`, `view.hidden()` (every cell not revealed, the
      flagged ones included), `view.flags()`, `view.started`
      (False before the first move), and `view.to_board()`, the `solvers.board.Board` of
      what is visible (a clue per revealed cell, None for hidden and flagged cells, the
      mine count), whose CSP (`solvers.csp.build_csp`) your search can solve.

    What you return: `Move("open", (r, c))` to open a cell or `Move("flag", (r, c))` to
    flag it. The cell must be on the board, hidden and not flagged. Flags are only notes
    for yourself: the game is won when every safe cell is open, flagged or not.

    The rules: under `classic` rules (the default) the first cell you open is never a
    mine; opening a 0 opens its neighbours for you; opening a mine loses the game.
    Every mine layout that agrees with what you see is equally likely.

    An exception, an illegal move (a revealed or flagged cell, a cell off the board,
    anything but a Move) or running out of time loses that game, and the grader reports
    why. Use no randomness, or a `random.Random` with a fixed seed, so that your results
    can be reproduced.

    Example: on this 1 x 3 board with 1 mine, the 1 has a single hidden neighbour, so
    (0, 1) is the mine and (0, 2) is safe. Opening (0, 2) wins the game; flagging (0, 1)
    is also a fine move.

        >>> from play.view import view_from_text
        >>> view = view_from_text("1 . .", mines=1)
        >>> view[(0, 0)], view[(0, 1)]
        (1, -1)
        >>> choose_move(view)  # a good agent answers:
        Move(action='open', cell=(0, 2))
    """
    raise NotImplementedError("choose_move")
