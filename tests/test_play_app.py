"""The Textual game (play/app.py), driven headless with Textual's Pilot.

pytest-asyncio is not a dependency: each test runs its coroutine with `asyncio.run`.
"""

from __future__ import annotations

import asyncio
import re

import pytest
from textual import events
from textual.errors import NoWidget
from textual.widgets import Button, Input, Select

from play.app import BoardWidget, EndScreen, GameScreen, MenuScreen, MinesweeperApp, PauseScreen, Settings, cell_glyph, probability_text
from play.levels import BEGINNER, EXPERT, custom_level
from play.view import FLAGGED, HIDDEN

SIZE = (120, 40)
SIZES = [(80, 24), (120, 40)]


def run(coroutine_function) -> None:
    asyncio.run(coroutine_function())


def beginner_app(seed: int = 3) -> MinesweeperApp:
    return MinesweeperApp(Settings(BEGINNER, "classic", seed), auto_delay=0.005)


def test_open_a_cell_with_the_keyboard_and_the_mouse():
    async def scenario():
        app = beginner_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            assert isinstance(screen, GameScreen) and screen.game.status == "ready"
            await pilot.press("right", "down", "enter")  # keyboard: cursor to (1, 1), open
            await pilot.pause()
            assert screen.cursor == (1, 1) and screen.game.shown((1, 1)) >= 0
            hidden = next(cell for cell in screen.game.view().hidden() if not screen.game.is_mine(cell))
            await pilot.click(BoardWidget, offset=(hidden[1] * 3 + 1, hidden[0]))  # mouse: 3 columns per cell
            await pilot.pause()
            assert screen.game.shown(hidden) >= 0

    run(scenario)


def test_flag_a_cell_with_f_and_with_a_right_click():
    async def scenario():
        app = beginner_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("down", "down", "f")
            await pilot.pause()
            assert screen.game.shown((2, 0)) == FLAGGED and screen.game.mines_left == 9
            assert "mines left 9 " in str(screen.query_one("#status").render())
            assert cell_glyph(screen.game, (2, 0), None)[0] == " F "  # a symbol, not only a colour
            await pilot.click(BoardWidget, offset=(4 * 3 + 1, 4), button=3)
            await pilot.pause()
            assert screen.game.shown((4, 4)) == FLAGGED
            await pilot.press("f")  # the cursor followed the click: unflag
            await pilot.pause()
            assert screen.game.shown((4, 4)) == HIDDEN

    run(scenario)


def test_hint_shows_the_move_and_its_reason_and_the_overlay_shows_probabilities():
    async def scenario():
        app = beginner_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("h")
            await pilot.pause()
            assert screen.hint is not None and "first click" in screen.message
            await pilot.press("enter")
            await pilot.pause()
            await pilot.press("h")
            await pilot.pause()
            message = str(screen.query_one("#message").render())
            assert message.startswith("hint: ") and screen.hint is not None
            # seed 3 after the first click: no cell is safe for sure, so the hint is the safest guess
            assert message.startswith("hint: open r1c9 -- (d) safest guess: no safe cell: mine probability 11.7%"), message
            await pilot.press("p")
            await pilot.pause()
            assert screen.overlay and all(cell in screen.overlay for cell in screen.game.view().hidden())
            board = str(screen.query_one(BoardWidget).render())
            drawn = {probability_text(p) for p in screen.overlay.values()}
            assert drawn == {"12%", "33%"}  # seed 3 after the hinted move: no hidden cell is certain yet
            assert all(text in board for text in drawn) and " S " not in board and " M " not in board, board

    run(scenario)


def test_auto_play_a_seeded_game_to_its_end_screen():
    async def scenario():
        app = beginner_app(seed=11)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("a")
            for _ in range(400):
                await pilot.pause(0.01)
                if isinstance(app.screen, EndScreen):
                    break
            assert isinstance(app.screen, EndScreen)
            assert app.screen.id == ("won" if screen.game.status == "won" else "lost")
            assert screen.game.over and screen.auto_timer is None
            await pilot.press("n")  # a new game, next seed
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and app.screen.game.seed == 12

    run(scenario)


def test_loss_screen_after_opening_a_mine_and_pause():
    async def scenario():
        app = beginner_app(seed=2)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, PauseScreen) and screen.paused
            await pilot.press("escape")
            await pilot.pause()
            assert app.screen is screen and not screen.paused
            await pilot.press("enter")
            await pilot.pause()
            mine = screen.game.mine_cells()[0]
            screen.act("open", mine)
            await pilot.pause()
            assert isinstance(app.screen, EndScreen) and app.screen.id == "lost"
            assert cell_glyph(screen.game, mine, None)[0] == " X "

    run(scenario)


def test_menu_starts_a_custom_game_and_rejects_a_bad_size():
    async def scenario():
        app = MinesweeperApp(auto_delay=0.005)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            menu = app.screen
            assert isinstance(menu, MenuScreen)
            menu.query_one("#level", Select).value = "custom"
            menu.query_one("#rows", Input).value = "5"
            menu.query_one("#cols", Input).value = "5"
            menu.query_one("#mines", Input).value = "30"
            menu.query_one("#seed", Input).value = "7"
            menu.query_one("#start", Button).press()
            await pilot.pause()
            assert isinstance(app.screen, MenuScreen) and "do not fit" in str(menu.query_one("#error").render())
            menu.query_one("#mines", Input).value = "5"
            menu.query_one("#start", Button).press()
            await pilot.pause()
            game = app.screen.game
            assert game.level == custom_level(5, 5, 5) and game.seed == 7

    run(scenario)


def test_expert_board_fits_a_wide_terminal():
    async def scenario():
        app = MinesweeperApp(Settings(EXPERT, "classic", 1))
        async with app.run_test(size=(110, 30)) as pilot:
            await pilot.pause()
            board = app.screen.query_one(BoardWidget)
            assert board.size.width == 30 * 3 and board.size.height == 16

    run(scenario)


class FakeClock:
    """Stands in for the `time` module in play.app: the test moves the clock by hand."""

    def __init__(self) -> None:
        self.now = 1000.0

    def monotonic(self) -> float:
        return self.now


@pytest.mark.parametrize("size", SIZES)
def test_pause_keeps_the_elapsed_time(size, monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr("play.app.time", clock)

    async def scenario():
        app = beginner_app()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("enter")  # the first move starts the clock
            clock.now += 5
            await pilot.press("escape")
            await pilot.pause()
            assert isinstance(app.screen, PauseScreen)
            clock.now += 100  # paused: does not count
            await pilot.press("escape")
            await pilot.pause()
            clock.now += 2
            screen.refresh_status()
            assert "| 7 s |" in str(screen.query_one("#status").render())

    run(scenario)


def cell_width(board: BoardWidget) -> int:
    """Columns per cell, as drawn."""
    return board.size.width // board.play.game.cols


def cursor_in_view(screen: GameScreen, cell: tuple[int, int] | None = None) -> bool:
    """Whether both ends of the cursor's cell (or `cell`) are drawn on the screen (not scrolled or clipped away)."""
    board = screen.query_one(BoardWidget)
    width = cell_width(board)
    row, col = cell or screen.cursor
    left = board.region.x + col * width
    try:
        ends = [screen.get_widget_at(x, board.region.y + row)[0] for x in (left, left + width - 1)]
    except NoWidget:
        return False
    return ends == [board, board]


async def press_together(pilot, *keys: str) -> None:
    """Send `keys` to the app as the terminal does, one Key event each in order, without
    Pilot.press's wait for the app to go idle after every key (on the expert board that
    wait, and a redraw per key, cost most of a test's time)."""
    for key in keys:
        pilot.app.post_message(events.Key(key, key if len(key) == 1 else None))
    await pilot.pause()


async def until(pilot, condition, tries: int = 100) -> None:
    """Give the app time (one Pilot pause at a time, at most `tries`) until `condition()`
    holds; the test then asserts it, so a condition that never holds still fails."""
    for _ in range(tries):
        if condition():
            return
        await pilot.pause()


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("overlay", [False, True])
def test_expert_board_keeps_the_cursor_in_view(size, overlay):
    async def scenario():
        app = MinesweeperApp(Settings(EXPERT, "opening", 7))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("enter", *(["p"] if overlay else []))
            await pilot.pause()
            assert (screen.overlay is not None) == overlay
            for keys, corner in ((["right"] * 29, (0, 29)), (["down"] * 15, (15, 29)), (["left"] * 29, (15, 0)), (["up"] * 15, (0, 0))):
                await press_together(pilot, *keys)
                await until(pilot, lambda corner=corner: screen.cursor == corner and cursor_in_view(screen))
                assert screen.cursor == corner and cursor_in_view(screen), corner

    run(scenario)


@pytest.mark.parametrize("size", SIZES)
def test_overlay_columns_are_aligned_and_apart(size):
    async def scenario():
        app = MinesweeperApp(Settings(EXPERT, "opening", 7))
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("enter", "p")
            await press_together(pilot, *["down"] * 5, *["right"] * 5)
            await until(pilot, lambda: screen.cursor == (5, 5))
            await pilot.pause()
            board = screen.query_one(BoardWidget)
            width = cell_width(board)
            lines = str(board.render()).split("\n")
            assert len(lines) == 16 and {len(line) for line in lines} == {30 * width}
            assert "%" in lines[5] and not any(re.search(r"%[^ [<]", line) for line in lines)  # "21% 21%", never "21%21%"
            cells = [line[i : i + width] for line in lines for i in range(0, len(line), width)]
            assert all(cell.startswith(" ") for cell in cells if cell.strip() and "[" not in cell)
            assert re.fullmatch(r"\[[ \d]\d%", cells[5 * 30 + 5])  # the cursor on a percentage, marked by a symbol

    run(scenario)


def test_clicks_find_their_cell_with_the_overlay_on():
    async def scenario():
        app = beginner_app()
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("enter", "p")
            await pilot.pause()
            hidden = next(iter(screen.game.view().hidden()))
            width = cell_width(screen.query_one(BoardWidget))
            await pilot.click(BoardWidget, offset=(hidden[1] * width + width - 2, hidden[0]), button=3)
            await pilot.pause()
            assert screen.game.shown(hidden) == FLAGGED

    run(scenario)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("field", ["rows", "cols", "mines", "seed"])
def test_enter_in_a_menu_field_starts_the_game(size, field, monkeypatch):
    monkeypatch.setattr("play.app.random_seed", lambda: 7)  # what a blank seed field gets

    async def scenario():
        app = MinesweeperApp(auto_delay=0.005)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            menu = app.screen
            menu.query_one("#level", Select).value = "custom"
            for name, value in (("rows", "6"), ("cols", "7"), ("mines", "5")):
                menu.query_one(f"#{name}", Input).value = value
            menu.query_one(f"#{field}", Input).focus()
            await pilot.press(*(["4", "2"] if field == "seed" else []), "enter")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and app.screen.game.level == custom_level(6, 7, 5)
            assert app.screen.game.seed == (42 if field == "seed" else 7)

    run(scenario)


@pytest.mark.parametrize("size", SIZES)
def test_hints_and_agent_moves_name_their_layer_once(size):
    async def scenario():
        app = beginner_app()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("h")
            await pilot.pause()
            assert screen.message.startswith("hint: open r1c1 -- first click: ") and screen.message.count("first click") == 1
            await pilot.press("s")
            await pilot.pause()
            assert screen.message.startswith("agent: open r1c1 -- first click: ") and screen.message.count("first click") == 1

    run(scenario)


@pytest.mark.parametrize("size", SIZES)
def test_footer_shows_every_key_within_the_screen(size):
    async def scenario():
        app = beginner_app()
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            keys = {key.key: key for key in app.screen.query("FooterKey")}  # type: ignore[attr-defined]
            assert {"escape", "n", "m", "q"} <= set(keys)
            assert all(key.region.right <= size[0] for key in keys.values())

    run(scenario)


def test_a_hint_off_screen_scrolls_into_view_with_the_cursor():
    async def scenario():
        app = MinesweeperApp(Settings(EXPERT, "opening", 7))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            await press_together(pilot, *["right"] * 14, *["down"] * 8)
            await until(pilot, lambda: screen.cursor == (8, 14))
            await pilot.press("enter", "p", "h")  # today's hint: row 4, col 20, off-screen
            await pilot.pause()
            assert screen.hint is not None
            assert cursor_in_view(screen, screen.hint.move.cell) and cursor_in_view(screen)

    run(scenario)


def test_the_end_screen_and_the_status_line_show_the_same_seconds(monkeypatch):
    clock = FakeClock()
    monkeypatch.setattr("play.app.time", clock)

    async def scenario():
        app = beginner_app(seed=2)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("enter")
            clock.now += 44.6
            screen.act("open", screen.game.mine_cells()[0])
            await pilot.pause()
            assert isinstance(app.screen, EndScreen)
            assert str(app.screen.query_one("#end-score").render()).startswith("44 s,")
            assert "| 44 s |" in str(screen.query_one("#status").render())

    run(scenario)


def test_a_long_menu_error_is_shown_whole_at_80x24():
    async def scenario():
        app = MinesweeperApp(auto_delay=0.005)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            menu = app.screen
            menu.query_one("#level", Select).value = "custom"
            for name, value in (("rows", "60"), ("cols", "60"), ("mines", "9999")):
                menu.query_one(f"#{name}", Input).value = value
            menu.query_one("#start", Button).press()
            await pilot.pause()
            error = menu.query_one("#error")
            assert str(error.render()).endswith("under 'classic' rules")  # the whole sentence...
            assert error.region.height == 2 and error.region.bottom <= 24  # ...on two lines, on the screen

    run(scenario)


def test_without_the_reference_agent_the_game_still_plays_and_says_why_there_is_no_hint(monkeypatch):
    """The student copy: no reference agent and no counter. Hints and the overlay explain
    themselves; with the student's own agent written, h and s use it."""
    import play.app
    from play.advisor import StudentAdvisor
    from play.view import Move

    monkeypatch.setattr(play.app, "load_advisor", lambda rules: None)
    monkeypatch.setattr(play.app, "load_probabilities", lambda: None)

    async def scenario():
        app = beginner_app()
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            screen = app.screen
            await pilot.press("enter", "h")
            assert "write choose_move in assignment/agent.py" in screen.message
            await pilot.press("p")
            assert "instructor's kit only" in screen.message
            screen.advisor = StudentAdvisor(lambda view: Move("open", next(iter(view.hidden()))))
            await pilot.press("h")
            assert screen.message.startswith("hint: open r") and "your agent" in screen.message

    run(scenario)


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("field", ["level", "rules"])
def test_enter_on_a_closed_drop_down_starts_the_game(size, field):
    async def scenario():
        app = MinesweeperApp(auto_delay=0.005)
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            menu = app.screen
            menu.query_one(f"#{field}", Select).focus()
            await pilot.press("enter")
            await pilot.pause()
            assert isinstance(app.screen, GameScreen) and app.screen.game.level == BEGINNER

    run(scenario)


def test_space_still_opens_a_drop_down():
    async def scenario():
        app = MinesweeperApp(auto_delay=0.005)
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            select = app.screen.query_one("#level", Select)
            select.focus()
            await pilot.press("space")
            await pilot.pause()
            assert select.expanded and isinstance(app.screen, MenuScreen)

    run(scenario)
