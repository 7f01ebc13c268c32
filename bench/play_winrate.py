"""The playing agent's win rates and speed, against a plain peer measured in the same run.

Run from the repository root::

    python bench/play_winrate.py                     # 5,000 games per level, --jobs 2
    python bench/play_winrate.py --games 500 --peer-games 500 --levels expert
    python bench/play_winrate.py --json play-winrate.json

For each level (classic rules: the first click is safe; the agent's first click is a
corner), games use seeds S..S+N-1. Two agents play the same seeds:

- `reference`: the agent of `answerkey.agent.agent` (rules (a)/(b), exact probabilities (c), guesses
  (d): the exact endgame search, else the one-move lookahead of `answerkey.agent.guess`);
- `plain` (the peer): the same certain layers, but guesses take the first cell of lowest
  probability and nothing else (the original playing agent's policy), on the first --peer-games seeds.

The paired comparison with the previous guessing policy, and the speed in games per
CPU-second, are in `bench/play_paired.py`.

The ratio is reference win rate / plain win rate on the games both played. Then one
core's speed on Expert: --speed-games games played in this process, --jobs ignored.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too; with `pip install -e .` it is the same code
    sys.path.insert(0, str(ROOT))

from rich.console import Console  # noqa: E402
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn  # noqa: E402
from rich.table import Table  # noqa: E402

from answerkey.agent.benchmark import reference_games  # noqa: E402
from answerkey.agent.guess import Guesser  # noqa: E402
from play.evaluate import GameResult, Summary, summarise  # noqa: E402
from play.levels import EXPERT, LEVELS, Level  # noqa: E402

#: The targets of issue 15 (win rate per level, Expert games per second on one core).
TARGETS = {"beginner": 0.92, "intermediate": 0.795, "expert": 0.41}
TARGET_SPEED = 30.0
#: For context: the original playing agent (centre first click) and the best published solvers.
SEED_003 = {"beginner": 0.95, "intermediate": 0.60, "expert": 0.18}
PUBLISHED = {"beginner": 0.915, "intermediate": 0.78, "expert": 0.41}
PLAIN = Guesser(policy="safest", endgame_layouts=0, tie_break=False)


@dataclass
class LevelResult:
    level: str
    reference: Summary
    plain: Summary | None
    reference_on_peer_seeds: float | None


def play(console: Console, label: str, level: Level, games: int, seed: int, jobs: int, guesser: Guesser | None) -> tuple[Summary, list[GameResult]]:
    """Play with a progress bar; the summary and the games."""
    results: list[GameResult] = []
    started = time.perf_counter()
    with Progress(TextColumn(label), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(), console=console) as progress:
        task = progress.add_task(label, total=games)
        for result in reference_games(level, games, seed, "classic", jobs, guesser):
            results.append(result)
            progress.advance(task)
    return summarise(results, level, "classic", seed, time.perf_counter() - started, jobs), results


def results_table(rows: list[LevelResult]) -> Table:
    table = Table(title="Reference agent, classic rules, first click in a corner")
    for column in ("level", "games", "wins", "win rate", "95% CI (Wilson)", "target", "guesses/game", "games/s"):
        table.add_column(column, justify="left" if column == "level" else "right")
    for row in rows:
        ref = row.reference
        low, high = ref.ci95
        target = TARGETS[row.level]
        table.add_row(
            row.level,
            str(ref.games),
            str(ref.wins),
            f"{ref.win_rate:.2%}",
            f"{low:.2%} - {high:.2%}",
            f">= {target:.1%} {'met' if ref.win_rate >= target else 'MISSED'}",
            f"{ref.guesses_per_game:.2f}",
            f"{ref.games_per_second:.1f} ({ref.jobs} jobs)",
        )
    return table


def peer_table(rows: list[LevelResult]) -> Table:
    table = Table(title="Against the plain peer (same seeds) and published figures")
    for column in ("level", "peer games", "reference", "plain", "ratio", "original agent", "best published"):
        table.add_column(column, justify="left" if column == "level" else "right")
    for row in rows:
        if row.plain is None or row.reference_on_peer_seeds is None:
            continue
        ratio = row.reference_on_peer_seeds / row.plain.win_rate if row.plain.win_rate else float("nan")
        table.add_row(
            row.level,
            str(row.plain.games),
            f"{row.reference_on_peer_seeds:.2%}",
            f"{row.plain.win_rate:.2%}",
            f"{ratio:.3f}",
            f"{SEED_003[row.level]:.0%}",
            f"{PUBLISHED[row.level]:.1%}",
        )
    return table


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=5000, help="games per level for the reference agent (default 5000)")
    parser.add_argument("--peer-games", type=int, default=1000, help="games per level for the plain peer (default 1000, 0: skip)")
    parser.add_argument("--speed-games", type=int, default=300, help="Expert games timed on one core (default 300, 0: skip)")
    parser.add_argument("--levels", default="beginner,intermediate,expert", help="comma-separated levels")
    parser.add_argument("--seed", type=int, default=0, help="seed of game 0 (default 0)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes for the win rates (default 2)")
    parser.add_argument("--json", type=Path, help="write the figures as JSON")
    args = parser.parse_args(argv)
    console = Console()
    if not console.is_terminal:  # a log file: room for the whole table
        console = Console(width=120)
    names = [name.strip() for name in args.levels.split(",") if name.strip()]
    unknown = [name for name in names if name not in LEVELS]
    if unknown:
        console.print(f"error: unknown level(s) {', '.join(unknown)}", style="red", markup=False)
        return 2

    rows: list[LevelResult] = []
    for name in names:
        level = LEVELS[name]
        reference, games = play(console, f"{name} reference", level, args.games, args.seed, args.jobs, None)
        plain, on_peer = None, None
        if args.peer_games > 0:
            plain, _ = play(console, f"{name} plain", level, args.peer_games, args.seed, args.jobs, PLAIN)
            shared = games[: args.peer_games]
            on_peer = sum(r.won for r in shared) / len(shared)
        rows.append(LevelResult(name, reference, plain, on_peer))

    speed = None
    if args.speed_games > 0:
        speed, _ = play(console, "expert, one core", EXPERT, args.speed_games, args.seed, 1, None)

    console.print(results_table(rows))
    if any(row.plain is not None for row in rows):
        console.print(peer_table(rows))
    if speed is not None:
        verdict = "meets" if speed.games_per_second >= TARGET_SPEED else "MISSES"
        console.print(
            f"Expert on one core: {speed.games_per_second:.1f} games/s over {speed.games} games ({verdict} the target of {TARGET_SPEED:.0f} games/s)"
        )
    if args.json:
        data = {
            "levels": [
                {
                    "reference": row.reference.as_dict(),
                    "plain": row.plain.as_dict() if row.plain else None,
                    "reference_on_peer_seeds": row.reference_on_peer_seeds,
                    "target": TARGETS[row.level],
                }
                for row in rows
            ],
            "expert_one_core": speed.as_dict() if speed else None,
        }
        args.json.write_text(json.dumps(data, indent=2) + "\n")
        console.print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
