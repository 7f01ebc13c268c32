"""Run `python -m play ARGS` headless in a student copy: the game as the command opens it,
then (a game started from the menu when it opens there) open a cell, press h and p, and
print the two messages. Used by test_release.py; run with the copy first on the path."""

from __future__ import annotations

import asyncio
import sys

from play import app as game
from play.cli import main
from play.levels import BEGINNER


def headless(self: game.MinesweeperApp) -> None:
    async def scenario() -> None:
        async with self.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            print("opened:", type(self.screen).__name__)
            if not isinstance(self.screen, game.GameScreen):
                self.push_screen(game.GameScreen(game.Settings(BEGINNER, "classic", 0), 0.005))
                await pilot.pause()
            screen = self.screen
            assert isinstance(screen, game.GameScreen)
            for key in ("h", "p"):
                await pilot.press("enter", key) if key == "h" else await pilot.press(key)
                await pilot.pause()
                print(f"{key}:", screen.message)

    asyncio.run(scenario())


game.MinesweeperApp.run = headless  # type: ignore[method-assign, assignment]
sys.exit(main(sys.argv[1:]))
