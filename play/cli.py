"""`python -m play`: the game in the terminal, or the agent's win-rate benchmark.

    python -m play                                          # the Textual game, from its menu
    python -m play --level expert --seed 7 --rules opening  # straight into one game
    python -m play bench --level expert --games 1000 --seed 0 --rules classic [--jobs 2] [--json out.json]

`bench` plays the reference agent on games with seeds S, S+1, ..., S+N-1 and prints the
wins, the win rate with its 95% Wilson interval, games per second and guesses per game.
In the student copy (no reference agent) it plays the student's `choose_move` instead,
and says how its games were lost; its guesses are not counted there (that takes the
exact counter of the answer key).
Both take `--help` and `--version`; a bad argument prints one line and exits with status 2.
"""

from __future__ import annotations

import json
import sys
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path

from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from solvers.cliargs import (
    OneLineParser,
    UsageError,
    add_version,
    output_problem,
    positive_int,
    print_error,
    read_options,
    whole,
)

from .evaluate import GameResult, Summary, describe_losses, first_lost_ways, summarise
from .levels import RULE_SETS, Level, RuleSet, parse_level


@dataclass(frozen=True)
class GameOptions:
    """`python -m play`'s options (see `game_parser`)."""

    level: str | None
    seed: int | None
    rules: RuleSet | None


@dataclass(frozen=True)
class BenchOptions:
    """`python -m play bench`'s options (see `bench_parser`)."""

    level: str
    games: int
    seed: int
    rules: RuleSet
    jobs: int
    json: Path | None


def game_parser() -> OneLineParser:
    parser = OneLineParser(
        prog="python -m play",
        description="Minesweeper in the terminal, with an agent that explains its moves. "
        "With no option the menu opens; with any of --level, --seed, --rules a game starts directly.",
        epilog="Also: 'python -m play bench --help' for the agent's win-rate benchmark.",
    )
    parser.add_argument("--level", help="beginner, intermediate, expert or COLSxROWSxMINES (default: beginner)")
    parser.add_argument("--seed", type=whole, help="seed of the game; n plays the next one (default: from the clock)")
    parser.add_argument("--rules", choices=RULE_SETS, help="first-click rule (default: classic)")
    add_version(parser)
    return parser


def bench_parser() -> OneLineParser:
    parser = OneLineParser(
        prog="python -m play bench",
        description="Win rate of an agent on seeded games: yours "
        "(assignment/agent.py) in a student copy, the reference agent in the instructor's kit.",
    )
    add_version(parser)
    parser.add_argument("--level", default="expert", help="beginner, intermediate, expert or COLSxROWSxMINES (default: expert)")
    parser.add_argument("--games", type=positive_int, default=100, help="number of games (default: 100)")
    parser.add_argument("--seed", type=whole, default=0, help="seed of the first game; game i uses seed+i (default: 0)")
    parser.add_argument("--rules", default="classic", choices=RULE_SETS, help="first-click rule (default: classic)")
    parser.add_argument("--jobs", type=positive_int, default=1, help="worker processes (default: 1)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the summary as JSON")
    return parser


def bench_games(level: Level, args: BenchOptions) -> Iterator[GameResult]:
    """The reference agent's games; in the student copy (no reference agent), the
    student's own agent's, from assignment/agent.py."""
    from .advisor import load_reference_games, written_agent

    reference_games = load_reference_games()
    if reference_games is not None:
        return reference_games(level, args.games, args.seed, args.rules, args.jobs)
    from .evaluate import play_agent

    choose_move = written_agent()
    if choose_move is None:
        raise UsageError("this copy has no reference agent, and yours is not written yet: implement choose_move in assignment/agent.py")
    return (play_agent(choose_move, level, args.seed + index, args.rules) for index in range(args.games))


def run_bench(level: Level, args: BenchOptions, console: Console) -> tuple[Summary, list[GameResult]]:
    """Play the games with a progress bar; the summary, and every game's result."""
    results: list[GameResult] = []
    columns = (
        TextColumn("[bold]{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TextColumn("{task.fields[wins]} won"),
        TimeElapsedColumn(),
        TimeRemainingColumn(),
    )
    started, cpu = time.perf_counter(), cpu_time()
    games = bench_games(level, args)
    with Progress(*columns, console=console, transient=False) as progress:
        task = progress.add_task(f"{level.label} ({args.rules})", total=args.games, wins=0)
        for result in games:
            results.append(result)
            progress.update(task, advance=1, wins=sum(r.won for r in results))
    summary = summarise(results, level, args.rules, args.seed, time.perf_counter() - started, args.jobs, cpu_time() - cpu)
    return summary, results


def cpu_time() -> float:
    """CPU seconds used so far by this process and its finished children (the workers of
    --jobs, counted once their pool has closed)."""
    import resource

    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def show(summary: Summary, console: Console) -> None:
    low, high = summary.ci95
    from .advisor import has_reference_agent

    whose = "Reference agent" if has_reference_agent() else "Your agent (assignment/agent.py)"
    table = Table(title=f"{whose}: {summary.level}, {summary.rules} rules, seeds {summary.seed}..{summary.seed + summary.games - 1}")
    table.add_column("games", justify="right")
    table.add_column("wins", justify="right")
    table.add_column("win rate", justify="right")
    table.add_column("95% CI (Wilson)", justify="right")
    table.add_column("games/s", justify="right")
    table.add_column("games/CPU-s", justify="right")
    table.add_column("guesses/game", justify="right")
    table.add_row(
        str(summary.games),
        str(summary.wins),
        f"{summary.win_rate:.2%}",
        f"{low:.2%} - {high:.2%}",
        f"{summary.games_per_second:.2f} ({summary.jobs} job{'s' if summary.jobs > 1 else ''})",
        f"{summary.games_per_cpu_second:.2f}",
        "not counted" if summary.guesses_per_game is None else f"{summary.guesses_per_game:.2f}",
    )
    console.print(table)


#: Why a student's agent's guesses are not counted in the student copy.
GUESSES_NOT_COUNTED = (
    "guesses: not counted for your agent (telling a guess from a certain move takes the exact counter, which stays in the instructor's kit)"
)


def show_losses(results: list[GameResult], summary: Summary, console: Console) -> None:
    """How your agent lost its games, the first ways by game and seed, and how to replay one."""

    def say(text: str) -> None:
        console.print(text, markup=False, highlight=False, soft_wrap=True)

    say(describe_losses(results))
    ways = first_lost_ways(results)
    for way in ways:
        say(f"  game {way.game + 1} (seed {way.result.seed}) {way.at()}")
    if ways:
        say(
            f"  replay one in the game, your agent on the h key: python -m play --level {summary.level} "
            f"--rules {summary.rules} --seed {ways[0].result.seed}"
        )
    if summary.guesses_per_game is None:
        say(GUESSES_NOT_COUNTED)


def bench_main(argv: Sequence[str], console: Console) -> int:
    args = read_options(BenchOptions, bench_parser().parse_args(argv))
    try:
        level = parse_level(args.level, args.rules)
    except ValueError as error:
        raise UsageError(str(error)) from None
    if args.json and (why := output_problem(args.json)):
        raise UsageError(f"--json {args.json}: {why}")
    summary, results = run_bench(level, args, console)
    show(summary, console)
    from .advisor import has_reference_agent

    if not has_reference_agent():
        show_losses(results, summary, console)
    if args.json:
        args.json.write_text(json.dumps(summary.as_dict(), indent=2) + "\n")
        console.print(f"wrote {args.json}", highlight=False)
    return 0


def game_main(argv: Sequence[str]) -> int:
    """The game: the menu, or straight into the game that --level, --seed or --rules name."""
    args = read_options(GameOptions, game_parser().parse_args(argv))
    from .app import (  # Textual loads only for the game
        MinesweeperApp,
        Settings,
        random_seed,
    )

    settings = None
    if argv:
        rules: RuleSet = args.rules or "classic"
        try:
            level = parse_level(args.level or "beginner", rules)
        except ValueError as error:
            raise UsageError(str(error)) from None
        seed = random_seed() if args.seed is None else args.seed
        settings = Settings(level, rules, seed)
    MinesweeperApp(settings).run()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    console = Console()
    try:
        if argv and argv[0] == "bench":
            return bench_main(argv[1:], console)
        if argv and not argv[0].startswith("-"):
            raise UsageError(f"unknown command {argv[0]!r}: run 'python -m play' for the game or 'python -m play bench --help'")
        return game_main(argv)
    except (UsageError, OSError) as error:
        return print_error(str(error))
    except KeyboardInterrupt:
        Console(stderr=True).print("interrupted", style="red")
        return 130
