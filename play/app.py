"""The game in the terminal (Textual): menu, board, hints, probabilities and auto-play.

Keys on the board (the footer lists all but the arrows and c):

- arrows move the cursor; space or enter opens, f flags, c chords (opens the other
  neighbours of a number that has as many flags around it; space or enter on a number
  does the same);
- h: hint, the reference agent's next move and why (the rule, or the probability);
- p: overlay every hidden cell's exact mine probability (layer (c) of the agent);
- a: auto-play on/off (the agent plays one move per tick); s: one agent step;
- escape: pause; n: new game (next seed); m: menu; q: quit.

Mouse: left click opens (or chords on a number), right click flags. A board larger than
the terminal scrolls so that the cursor stays in view.

Every state has a symbol as well as a colour: `.` hidden, `F` flag, digits, `*` mine,
`X` the mine that went off, `x` a wrong flag; the cursor is drawn as `[ ]` and the
hinted cell as `< >`. Probabilities read `S` (certainly safe), `M` (certainly a mine)
or a percentage; with the overlay on, every cell gets one more column so that the
percentages stay apart, and a percentage under the cursor reads `[33%` (`<33%` hinted).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass
from fractions import Fraction

from rich.text import Text
from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, ScrollableContainer, Vertical
from textual.geometry import Region, Size, Spacing
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, Label, Select, Static

from solvers.board import Cell, cell_name
from solvers.errortext import describe_exception

from .advisor import Advice, load_advisor, load_probabilities
from .game import Game
from .levels import LEVELS, Level, RuleSet, check_mines, custom_level
from .view import FLAGGED, HIDDEN, Move

CELL_WIDTH = 3
NO_ADVISOR = "no agent to ask: write choose_move in assignment/agent.py (the student copy has no reference agent)"
#: With the overlay on, each cell gets a leading space so that percentages stay apart ("  5% 33%").
OVERLAY_CELL_WIDTH = 4
NUMBER_STYLES = {
    1: "bold blue",
    2: "bold green",
    3: "bold red",
    4: "bold magenta",
    5: "bold dark_red",
    6: "bold cyan",
    7: "bold white",
    8: "bold grey50",
}


class Stopwatch:
    """Seconds of play: runs from the first move, stops while paused and when the game ends."""

    def __init__(self) -> None:
        self.banked = 0.0
        self.since: float | None = None

    @property
    def running(self) -> bool:
        return self.since is not None

    def start(self) -> None:
        if self.since is None:
            self.since = time.monotonic()

    def stop(self) -> None:
        if self.since is not None:
            self.banked += time.monotonic() - self.since
            self.since = None

    def seconds(self) -> int:
        """Whole seconds so far (the status line and the end screen show the same number)."""
        return int(self.banked + (time.monotonic() - self.since if self.since is not None else 0.0))


def random_seed() -> int:
    """A seed from the system's randomness, for a game the player did not seed."""
    return random.SystemRandom().randrange(10**6)


@dataclass(frozen=True)
class Settings:
    """What the menu chooses: a level, a rule set and the seed of the first game."""

    level: Level
    rules: RuleSet
    seed: int


def probability_text(p: Fraction) -> str:
    """A probability in three characters: ' S ' safe, ' M ' mine, else a percentage (1-99)."""
    if p == 0:
        return " S "
    if p == 1:
        return " M "
    return f"{min(99, max(1, round(float(p) * 100))):2d}%"


def probability_style(p: Fraction) -> str:
    if p == 0:
        return "bold green"
    if p == 1:
        return "bold red"
    return "yellow" if p < Fraction(1, 2) else "red"


def cell_glyph(game: Game, cell: Cell, overlay: dict[Cell, Fraction] | None) -> tuple[str, str]:
    """The three characters and the style of one cell."""
    value = game.shown(cell)
    if game.status == "lost":
        if cell == game.exploded:
            return " X ", "bold white on red"
        if value == FLAGGED and not game.is_mine(cell):
            return " x ", "bold red"
        if value == HIDDEN and game.is_mine(cell):
            return " * ", "bold"
    if value == FLAGGED:
        return " F ", "bold red"
    if value == HIDDEN:
        if overlay is not None and cell in overlay:
            return probability_text(overlay[cell]), probability_style(overlay[cell])
        return " . ", "grey70"
    if value == 0:
        return "   ", ""
    return f" {value} ", NUMBER_STYLES[value]


def mark(glyph: str, gap: str, brackets: str) -> str:
    """Frame a cell: a one-symbol glyph in brackets (' 3 ' -> '[3]'); a percentage in the
    overlay gets the opening bracket in its gap column ('[33%'), without the overlay it
    keeps its digits (the style marks it)."""
    if glyph[0] == glyph[2] == " ":
        return gap + brackets[0] + glyph[1] + brackets[1]
    return (brackets[0] if gap else "") + glyph


class BoardBox(ScrollableContainer, can_focus=False):
    """The board's frame: scrolls when the board is larger than the terminal (the cursor keys stay the game's)."""


class BoardWidget(Widget):
    """Draws the board of the screen's game; clicks become open/flag/chord."""

    DEFAULT_CSS = """
    BoardWidget { width: auto; height: auto; }
    """

    def __init__(self, play: GameScreen) -> None:
        super().__init__(id="board")
        self.play = play

    def get_content_width(self, container: Size, viewport: Size) -> int:
        return self.play.game.cols * self.play.cell_width

    def get_content_height(self, container: Size, viewport: Size, width: int) -> int:
        return self.play.game.rows

    def render(self) -> Text:
        play = self.play
        game = play.game
        gap = " " * (play.cell_width - CELL_WIDTH)
        text = Text()
        for r in range(game.rows):
            for c in range(game.cols):
                glyph, style = cell_glyph(game, (r, c), play.overlay)
                drawn = gap + glyph
                if (r, c) == play.cursor:
                    drawn, style = mark(glyph, gap, "[]"), f"{style} reverse".strip()
                elif play.hint is not None and (r, c) == play.hint.move.cell:
                    drawn, style = mark(glyph, gap, "<>"), f"{style} underline".strip()
                text.append(drawn, style)
            if r < game.rows - 1:
                text.append("\n")
        return text

    def on_click(self, event: events.Click) -> None:
        offset = event.get_content_offset(self)
        if offset is None:
            return
        cell = (offset.y, offset.x // self.play.cell_width)
        if 0 <= cell[0] < self.play.game.rows and 0 <= cell[1] < self.play.game.cols:
            self.play.cursor = cell
            self.play.act("flag" if event.button == 3 else "open", cell)


class GameScreen(Screen):
    """One game: the board, the counters and the agent's help."""

    BINDINGS = [
        Binding("up", "move(-1, 0)", "up", show=False),
        Binding("down", "move(1, 0)", "down", show=False),
        Binding("left", "move(0, -1)", "left", show=False),
        Binding("right", "move(0, 1)", "right", show=False),
        Binding("space,enter", "act('open')", "open"),
        Binding("f", "act('flag')", "flag"),
        Binding("c", "act('chord')", "chord", show=False),  # open on a number chords too
        Binding("h", "hint", "hint"),
        Binding("p", "overlay", "mine%"),
        Binding("a", "auto", "auto"),
        Binding("s", "step", "step"),
        Binding("escape", "pause", "pause"),
        Binding("n", "new_game", "new"),
        Binding("m", "menu", "menu"),
        Binding("q", "app.quit", "quit"),
    ]

    DEFAULT_CSS = """
    GameScreen { align: center top; }
    #status { dock: top; height: auto; padding: 0 1; }
    #bottom { dock: bottom; height: auto; }
    #message { height: auto; min-height: 2; padding: 0 1; }
    #board-box {
        width: auto; height: auto; max-width: 100%; max-height: 100%;
        border: round $accent; padding: 0 1; scrollbar-size: 1 1;
    }
    """

    def __init__(self, settings: Settings, auto_delay: float = 0.15) -> None:
        super().__init__()
        self.settings = settings
        self.auto_delay = auto_delay
        self.game = Game(settings.level, settings.rules, settings.seed)
        self.advisor = load_advisor(settings.rules)
        self.probabilities = load_probabilities()
        self.cursor: Cell = (0, 0)
        self.hint: Advice | None = None
        self.overlay: dict[Cell, Fraction] | None = None
        self.message = "Open a cell: space/enter or click. h: hint, p: probabilities, a: auto-play."
        self.clock = Stopwatch()
        self.paused = False
        self.resume_clock = False
        self.auto_timer: Timer | None = None

    def compose(self) -> ComposeResult:
        yield Static(id="status")
        with Vertical(id="bottom"):
            yield Static(id="message")
            yield Footer(compact=True)
        with BoardBox(id="board-box"):
            yield BoardWidget(self)

    def on_mount(self) -> None:
        self.set_interval(0.5, self.refresh_status)
        self.refresh_all()

    # --- drawing ----------------------------------------------------------------------

    @property
    def cell_width(self) -> int:
        return CELL_WIDTH if self.overlay is None else OVERLAY_CELL_WIDTH

    def show_cursor(self) -> None:
        """Scroll the board as little as needed to show the hinted cell, if any, then the
        cursor, each with a cell around it: the cursor is always in view."""
        board = self.query_one(BoardWidget)
        width = self.cell_width
        origin = board.virtual_region.offset
        for row, col in ([self.hint.move.cell] if self.hint else []) + [self.cursor]:
            cell = Region(origin.x + col * width, origin.y + row, width, 1)
            self.query_one(BoardBox).scroll_to_region(cell, spacing=Spacing(1, width, 1, width), animate=False, immediate=True)

    def refresh_status(self) -> None:
        game = self.game
        state = {"ready": "ready", "playing": "playing", "won": "WON :)", "lost": "LOST X"}[game.status]
        auto = ", auto" if self.auto_timer is not None else ""
        level = f"{game.level.name} {game.cols}x{game.rows}/{game.level.mines}"
        self.query_one("#status", Static).update(
            Text(
                f"{level} {game.rules} seed {game.seed} | mines left {game.mines_left} | {self.clock.seconds()} s | "
                f"{state}{auto} | cursor {cell_name(self.cursor)}"
            )
        )

    def update_overlay(self) -> None:
        """Recount the probabilities shown by the overlay (after a move, or when it is turned on)."""
        if self.overlay is not None:
            view = self.game.view()
            counted = view.started and not self.game.over and self.probabilities is not None
            self.overlay = self.probabilities(view) if counted and self.probabilities else None

    def refresh_all(self) -> None:
        self.query_one("#message", Static).update(Text(self.message))
        self.query_one(BoardWidget).refresh(layout=True)
        self.refresh_status()
        self.call_after_refresh(self.show_cursor)

    # --- playing ----------------------------------------------------------------------

    def act(self, action: str, cell: Cell | None = None) -> None:
        """Open, flag or chord `cell` (default: the cursor); a click on a number chords."""
        game = self.game
        if game.over or self.paused:
            return
        cell = cell or self.cursor
        value = game.shown(cell)
        if action == "open" and value > 0:
            action = "chord"
        if action in ("open", "chord"):
            self.clock.start()
        if action == "open":
            game.open(cell)
        elif action == "flag":
            game.toggle_flag(cell)
        else:
            game.chord(cell)
        self.hint = None
        self.message = ""
        self.after_move()

    def after_move(self) -> None:
        self.update_overlay()
        if self.game.over:
            self.stop_auto()
            self.clock.stop()
            self.refresh_all()
            won = self.game.status == "won"
            self.app.push_screen(EndScreen(won, self.clock.seconds(), self.game.moves), self.after_end)
        else:
            self.refresh_all()

    def after_end(self, choice: str | None) -> None:
        if choice == "new":
            self.action_new_game()
        elif choice == "menu":
            self.action_menu()

    def advice(self) -> Advice | None:
        """The advisor's next move, or None (and why, in the status line)."""
        if self.advisor is None:
            self.message = NO_ADVISOR
            return None
        try:
            return self.advisor.advise(self.game.view())
        except Exception as error:  # the student's agent may fail: say so, keep the game
            self.message = f"your agent failed: {describe_exception(error)}"[:200]
            self.stop_auto()
            return None

    def agent_move(self) -> Advice | None:
        """Play the agent's next move (unflagging first when it opens a flagged cell)."""
        if self.game.over:
            return None
        decision = self.advice()
        if decision is None:
            self.refresh_all()
            return None
        move: Move = decision.move
        self.clock.start()
        if move.action == "open" and self.game.shown(move.cell) == FLAGGED:
            self.game.toggle_flag(move.cell)
        self.game.apply(move)
        self.cursor = move.cell
        self.hint = None
        self.message = f"agent: {decision.text}"
        self.after_move()
        return decision

    # --- actions ----------------------------------------------------------------------

    def action_move(self, dr: int, dc: int) -> None:
        r, c = self.cursor
        self.cursor = (min(max(r + dr, 0), self.game.rows - 1), min(max(c + dc, 0), self.game.cols - 1))
        self.refresh_all()

    def action_act(self, action: str) -> None:
        self.act(action)

    def action_hint(self) -> None:
        if self.game.over or self.paused:
            return
        self.hint = self.advice()
        if self.hint is not None:
            self.message = f"hint: {self.hint.text}"
        self.refresh_all()

    def action_overlay(self) -> None:
        if self.probabilities is None:
            self.message = "exact probabilities are instructor's kit only (this student copy has no exact counter)"
        elif self.overlay is not None:
            self.overlay = None
            self.message = "probabilities hidden"
        elif self.game.view().started:
            self.overlay = {}
            self.update_overlay()
            self.message = "probabilities: S certainly safe, M certainly a mine, else the exact chance of a mine"
        else:
            self.message = "probabilities appear once a cell is open"
        self.refresh_all()

    def action_step(self) -> None:
        if not self.paused:
            self.agent_move()

    def action_auto(self) -> None:
        if self.auto_timer is not None:
            self.stop_auto()
            self.message = "auto-play off"
            self.refresh_all()
        elif not self.game.over:
            self.auto_timer = self.set_interval(max(self.auto_delay, 0.001), self.auto_tick)
            self.message = "auto-play on: the agent plays step by step (a to stop)"
            self.refresh_all()

    def auto_tick(self) -> None:
        if not self.paused:
            self.agent_move()

    def stop_auto(self) -> None:
        if self.auto_timer is not None:
            self.auto_timer.stop()
            self.auto_timer = None

    def action_pause(self) -> None:
        if self.game.over:
            return
        self.paused = True
        self.resume_clock = self.clock.running
        self.clock.stop()
        self.app.push_screen(PauseScreen(), self.resume)

    def resume(self, _result: object = None) -> None:
        self.paused = False
        if self.resume_clock:
            self.clock.start()
        self.refresh_all()

    def action_new_game(self) -> None:
        self.stop_auto()
        settings = Settings(self.settings.level, self.settings.rules, self.settings.seed + 1)
        self.app.switch_screen(GameScreen(settings, self.auto_delay))

    def action_menu(self) -> None:
        self.stop_auto()
        self.app.switch_screen(MenuScreen())


class EndScreen(ModalScreen[str]):
    """Won or lost: the time, and what next."""

    BINDINGS = [
        Binding("n", "choose('new')", "new game"),
        Binding("m", "choose('menu')", "menu"),
        Binding("escape,b", "choose('board')", "see the board"),
    ]
    DEFAULT_CSS = """
    EndScreen { align: center middle; }
    #end { width: 50; height: auto; border: heavy $accent; padding: 1 2; background: $surface; }
    #end Horizontal { height: auto; }
    """

    def __init__(self, won: bool, seconds: int, moves: int) -> None:
        super().__init__(id="won" if won else "lost")
        self.won, self.seconds, self.moves = won, seconds, moves

    def compose(self) -> ComposeResult:
        title = ":) You won! Every safe cell is open." if self.won else "X  Boom! You opened a mine: game lost."
        with Vertical(id="end"):
            yield Label(title, id="end-title")
            yield Label(f"{self.seconds} s, {self.moves} moves", id="end-score")
            with Horizontal():
                yield Button("New game (n)", id="new", variant="primary")
                yield Button("Menu (m)", id="menu")
                yield Button("Board (b)", id="board")

    def on_button_pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id)

    def action_choose(self, choice: str) -> None:
        self.dismiss(choice)


class PauseScreen(ModalScreen[None]):
    """The board is hidden while the clock is stopped."""

    BINDINGS = [Binding("escape,space,enter", "resume", "resume")]
    DEFAULT_CSS = """
    PauseScreen { align: center middle; background: $background; }
    #pause { width: 40; height: auto; border: heavy $accent; padding: 1 2; }
    """

    def compose(self) -> ComposeResult:
        with Vertical(id="pause"):
            yield Label("|| Paused: the clock is stopped.")
            yield Button("Resume (escape)", id="resume", variant="primary")

    def on_button_pressed(self, _event: Button.Pressed) -> None:
        self.dismiss(None)

    def action_resume(self) -> None:
        self.dismiss(None)


class MenuScreen(Screen):
    """Choose a level (or a custom size), the rule set and the seed."""

    BINDINGS = [Binding("q", "app.quit", "quit")]
    DEFAULT_CSS = """
    MenuScreen { align: center middle; }
    #menu { width: 64; height: auto; border: heavy $accent; padding: 0 2; }
    #menu Horizontal { height: auto; }
    #menu Input { width: 1fr; }
    #error { color: $error; width: 100%; height: auto; }
    """

    CUSTOM = "custom"

    def compose(self) -> ComposeResult:
        levels = [(level.label.capitalize(), level.name) for level in LEVELS.values()]
        with Vertical(id="menu"):
            yield Label("MINESWEEPER -- with an agent that explains its moves")
            yield Label("Level")
            yield Select([*levels, ("Custom size: rows, cols, mines below", self.CUSTOM)], value="beginner", allow_blank=False, id="level")
            with Horizontal():
                yield Input(placeholder="rows", id="rows", type="integer")
                yield Input(placeholder="cols", id="cols", type="integer")
                yield Input(placeholder="mines", id="mines", type="integer")
            yield Label("Rules")
            yield Select(
                [("classic: the first click is safe", "classic"), ("opening: the first click is a 0", "opening")],
                value="classic",
                allow_blank=False,
                id="rules",
            )
            yield Input(placeholder="seed (blank: from the clock)", id="seed", type="integer")
            yield Button("Start (enter)", id="start", variant="primary")
            yield Label("", id="error")

    def settings(self) -> Settings:
        """The chosen settings; ValueError with a message when the custom size is wrong."""
        rules: RuleSet = self.query_one("#rules", Select).value  # type: ignore[assignment]
        choice = self.query_one("#level", Select).value
        if choice != self.CUSTOM:
            level = LEVELS[str(choice)]
        else:
            values = [self.query_one(f"#{name}", Input).value.strip() for name in ("rows", "cols", "mines")]
            if not all(v.isdigit() for v in values):
                raise ValueError("a custom size needs whole numbers for rows, cols and mines")
            rows, cols, mines = (int(value) for value in values)
            level = custom_level(rows, cols, mines, rules)
        check_mines(level.cells, level.mines, rules)
        seed_text = self.query_one("#seed", Input).value.strip()
        seed = int(seed_text) if seed_text.lstrip("-").isdigit() else random_seed()
        return Settings(level, rules, seed)

    def on_button_pressed(self, _event: Button.Pressed) -> None:
        self.start()

    def on_input_submitted(self, _event: Input.Submitted) -> None:
        """Enter in a text field (rows, cols, mines, seed) starts the game, as the Start button does."""
        self.start()

    def on_key(self, event: events.Key) -> None:
        """Enter on a closed drop-down (level, rules) starts the game too; space or the
        arrow keys open it."""
        focused = self.focused
        if event.key == "enter" and isinstance(focused, Select) and not focused.expanded:
            event.stop()
            event.prevent_default()
            self.start()

    def start(self) -> None:
        """Start the chosen game, or say in one line what is wrong with the choice."""
        try:
            settings = self.settings()
        except ValueError as error:
            self.query_one("#error", Label).update(f"! {error}")
            return
        self.app.switch_screen(GameScreen(settings, getattr(self.app, "auto_delay", 0.15)))


class MinesweeperApp(App):
    """`python -m play`. With `settings`, start straight on that game (tests do)."""

    TITLE = "Minesweeper"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, settings: Settings | None = None, auto_delay: float = 0.15) -> None:
        super().__init__()
        self.start_with = settings
        self.auto_delay = auto_delay

    def on_mount(self) -> None:
        self.push_screen(GameScreen(self.start_with, self.auto_delay) if self.start_with else MenuScreen())
