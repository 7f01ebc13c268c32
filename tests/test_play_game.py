"""The game rules (play/game.py, play/levels.py) and the visible board (play/view.py)."""

from __future__ import annotations

from collections import Counter

import pytest

from play.game import Game
from play.levels import BEGINNER, EXPERT, INTERMEDIATE, LEVELS, Level, custom_level, parse_level
from play.view import FLAGGED, HIDDEN, Move, View, view_from_text
from solvers.board import clues_for_layout, neighbours
from solvers.csp import build_csp


def numbers(game: Game) -> list[list[int]]:
    return clues_for_layout(game.mine_cells(), game.rows, game.cols, "classic")


def first_mine_free_cell(game: Game) -> tuple[int, int]:
    return next(cell for cell in ((r, c) for r in range(game.rows) for c in range(game.cols)) if not game.is_mine(cell))


# --- levels ----------------------------------------------------------------------------


def test_standard_levels():
    assert (BEGINNER.rows, BEGINNER.cols, BEGINNER.mines) == (9, 9, 10)
    assert (INTERMEDIATE.rows, INTERMEDIATE.cols, INTERMEDIATE.mines) == (16, 16, 40)
    assert (EXPERT.rows, EXPERT.cols, EXPERT.mines) == (16, 30, 99)  # 30 columns, 16 rows
    assert set(LEVELS) == {"beginner", "intermediate", "expert"}


def test_parse_level_names_and_custom_sizes():
    assert parse_level("Expert") is EXPERT
    assert parse_level("30x16x99") == Level("custom", 16, 30, 99)
    with pytest.raises(ValueError, match="unknown level"):
        parse_level("hard")
    with pytest.raises(ValueError, match="do not fit"):
        parse_level("3x3x9")
    with pytest.raises(ValueError, match="do not fit"):
        parse_level("3x3x1", "opening")  # the 3x3 block of the first click must stay free


def test_custom_level_bounds():
    assert custom_level(5, 7, 34).cells == 35
    with pytest.raises(ValueError):
        custom_level(0, 5, 1)
    with pytest.raises(ValueError):
        custom_level(5, 5, -1)
    with pytest.raises(ValueError, match="unknown rules"):
        custom_level(5, 5, 1, "easy")


# --- the layout and the first click -------------------------------------------------------


def test_same_seed_same_game_and_mine_count():
    a, b = Game(EXPERT, seed=7), Game(EXPERT, seed=7)
    assert a.mine_cells() == b.mine_cells() and len(a.mine_cells()) == 99
    assert Game(EXPERT, seed=8).mine_cells() != a.mine_cells()


@pytest.mark.parametrize("seed", range(40))
def test_classic_first_click_is_safe_even_on_a_mine(seed):
    game = Game(custom_level(4, 4, 10), "classic", seed)
    target = game.mine_cells()[0]  # click where a mine was drawn
    game.open(target)
    assert game.status == ("won" if game.revealed == 16 - 10 else "playing")  # never lost
    assert not game.is_mine(target)
    assert len(game.mine_cells()) == 10


@pytest.mark.parametrize("seed", range(40))
def test_opening_first_click_is_a_zero(seed):
    game = Game(custom_level(6, 6, 20), "opening", seed)
    game.open((2, 3))
    assert game.shown((2, 3)) == 0
    assert all(not game.is_mine(cell) for cell in neighbours((2, 3), 6, 6) + ((2, 3),))
    assert len(game.mine_cells()) == 20


def test_moved_mine_lands_uniformly():
    """2x2 board, 2 mines, first click on (0, 0): the three layouts avoiding it are equally likely."""
    level = custom_level(2, 2, 2)
    seen = Counter()
    for seed in range(3000):
        game = Game(level, "classic", seed)
        game.open((0, 0))
        seen[tuple(game.mine_cells())] += 1
    assert len(seen) == 3
    assert all(900 < count < 1100 for count in seen.values()), seen


# --- opening, flood fill, flags, chords, the end ----------------------------------------


def test_numbers_are_the_clues_of_the_layout_and_flood_fill_stops_at_numbers():
    game = Game(INTERMEDIATE, seed=3)
    game.open((0, 0))
    truth = numbers(game)
    view = game.view()
    revealed = [cell for cell in view.all_cells() if view[cell] >= 0]
    assert len(revealed) == game.revealed > 0
    for r, c in revealed:
        assert view[(r, c)] == truth[r][c]
        assert not game.is_mine((r, c))
        if truth[r][c] == 0:  # a 0 opens every neighbour
            assert all(view[n] >= 0 for n in neighbours((r, c), game.rows, game.cols))
    # every revealed cell other than the click touches a revealed 0
    for cell in revealed:
        if cell != (0, 0):
            assert any(view[n] == 0 for n in neighbours(cell, game.rows, game.cols))


def test_flags_toggle_and_count_and_block_opening():
    game = Game(BEGINNER, seed=1)
    assert game.toggle_flag((4, 4)) is True
    assert game.mines_left == 9 and game.view()[(4, 4)] == FLAGGED
    assert game.open((4, 4)) == [] and game.status == "ready"
    assert game.toggle_flag((4, 4)) is False
    assert game.mines_left == 10 and game.view()[(4, 4)] == HIDDEN


def chord_position(level: Level) -> tuple[int, tuple[int, int]]:
    """A seed and a revealed number, after opening the first safe cell, whose hidden
    neighbours include at least as many safe cells as mines."""
    for seed in range(500):
        game = Game(level, seed=seed)
        game.open(first_mine_free_cell(game))
        view = game.view()
        for cell in view.all_cells():
            hidden = [n for n in view.neighbours(cell) if view[n] == HIDDEN]
            mines = sum(game.is_mine(n) for n in hidden)
            if view[cell] > 0 and len(hidden) - mines >= mines:
                return seed, cell
    raise AssertionError("no position found")


def test_chord_opens_the_rest_when_flags_match_and_loses_on_a_wrong_flag():
    level = custom_level(5, 5, 4)
    seed, cell = chord_position(level)
    right, wrong = Game(level, seed=seed), Game(level, seed=seed)
    for game in (right, wrong):
        game.open(first_mine_free_cell(game))
    assert right.chord(cell) == []  # no flags yet: nothing happens
    around = neighbours(cell, 5, 5)
    for n in around:
        if right.is_mine(n):
            right.toggle_flag(n)
    assert right.chord(cell) and right.status == ("won" if right.revealed == 25 - 4 else "playing")
    assert all(right.shown(n) == FLAGGED if right.is_mine(n) else right.shown(n) >= 0 for n in around)  # flags stay
    # as many flags, on safe cells: the chord opens a mine
    mines = [n for n in around if wrong.is_mine(n)]
    for n in [n for n in around if wrong.shown(n) == HIDDEN and not wrong.is_mine(n)][: len(mines)]:
        wrong.toggle_flag(n)
    wrong.chord(cell)
    assert wrong.status == "lost" and wrong.exploded in mines


def test_win_when_every_safe_cell_is_open_and_loss_on_a_mine():
    game = Game(BEGINNER, seed=5)
    game.open((0, 0))
    for cell in [(r, c) for r in range(9) for c in range(9)]:
        if not game.is_mine(cell):
            game.open(cell)
    assert game.status == "won" and game.revealed == 71
    assert game.open((1, 1)) == []  # nothing happens once over
    lost = Game(BEGINNER, seed=5)
    lost.open((0, 0))
    mine = lost.mine_cells()[0]
    lost.open(mine)
    assert lost.status == "lost" and lost.exploded == mine


def test_illegal_moves_are_named():
    game = Game(BEGINNER, seed=0)
    game.open((0, 0))
    assert game.illegal(Move("open", (0, 0))) is not None and "revealed" in game.illegal(Move("open", (0, 0)))
    assert "outside" in game.illegal(Move("open", (9, 0)))
    assert "pair" in game.illegal(Move("open", [1, 1]))  # type: ignore[arg-type]
    assert "not a Move" in game.illegal("open")  # type: ignore[arg-type]
    hidden = game.view().hidden()[0]
    game.toggle_flag(hidden)
    assert "flagged" in game.illegal(Move("flag", hidden))
    assert game.illegal(Move("flag", game.view().hidden()[1])) is None


# --- the view and its Board ---------------------------------------------------------------


def test_view_to_board_reuses_the_csp_model():
    view = view_from_text(
        """
        1 F .
        1 . .
        """,
        mines=2,
    )
    board = view.to_board()
    assert board.rule == "classic" and board.mines == 2
    assert board.clues == ((1, None, None), (1, None, None))
    csp = build_csp(board)
    assert csp.cells == ((0, 1), (0, 2), (1, 1), (1, 2))  # flagged cells stay variables
    assert csp.constraints[-1].scope == (0, 1, 2, 3) and csp.constraints[-1].total == 2
    assert view.hidden() == [(0, 1), (0, 2), (1, 1), (1, 2)] and view.flags() == [(0, 1)]
    assert view.text() == "1 F .\n1 . ."


def test_view_is_what_the_player_sees():
    game = Game(EXPERT, seed=2)
    assert not game.view().started and game.view().mines == 99
    game.open((0, 0))
    view = game.view()
    assert isinstance(view, View) and (view.rows, view.cols) == (16, 30)
    hidden = set(view.hidden())
    assert all(view[cell] == HIDDEN for cell in hidden)
    assert all(0 <= view[cell] <= 8 for cell in view.all_cells() if cell not in hidden)  # no flags: the rest are clues
    assert sum(view[cell] >= 0 for cell in view.all_cells()) == game.revealed
