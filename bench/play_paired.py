"""The playing agent against its previous guessing policy, on the same games, and its speed.

Run from the repository root::

    python bench/play_paired.py --level expert --games 2000            # new vs baseline, paired
    python bench/play_paired.py --level expert --games 20000 --only new --jobs 1
    python bench/play_paired.py --new progress_weight=0.3,cutoff=0.85 --games 500
    python bench/play_paired.py --baseline policy=lookahead --baseline-book off --games 1000

Game i uses seed --seed + i (classic rules, first click in the top-left corner). Each
seed is played by both agents in the same worker, one after the other:

- `new`: `answerkey.agent.agent.Agent` with its default guesser (`answerkey.agent.guess.Guesser()`), or with
  the fields given by --new (KEY=VALUE,... of `Guesser`, or of `bench.agent_experiments.ExperimentalGuesser`);
- `baseline`: the agent before the progress guesses, `Guesser(policy="safest",
  endgame_layouts=200, endgame_budget=20_000)` (the safest cell, likeliest-0 tie-break,
  exact endgame under 200 layouts), or --baseline.

It prints each agent's wins, win rate and 95% Wilson interval, the paired difference
(new - baseline) with its 95% interval (normal approximation on the per-game
differences, which are -1, 0 or 1), the games only one of them won, and each agent's
speed in games per CPU-second: `time.process_time` around each game, summed over the
workers, so the figure is one core's rate whatever --jobs is. `--only new` skips the
baseline (for the long runs). Both agents use the opening book (`answerkey.agent.agent`);
`--baseline-book off` turns it off for the baseline, so that the same guesser on both
sides measures what the book saves. `--json FILE` writes the same figures.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import sys
import time
from collections.abc import Iterator
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too; with `pip install -e .` it is the same code
    sys.path.insert(0, str(ROOT))

from answerkey.agent.agent import Agent  # noqa: E402
from answerkey.agent.benchmark import play_reference  # noqa: E402
from answerkey.agent.guess import Guesser  # noqa: E402
from bench.agent_experiments import ExperimentalGuesser  # noqa: E402
from play.evaluate import Z95, GameResult, wilson_interval  # noqa: E402
from play.levels import LEVELS, Level  # noqa: E402

BASELINE = Guesser(policy="safest", endgame_layouts=200, endgame_budget=20_000)


def parse_guesser(text: str, base: Guesser) -> Guesser:
    """`base` with the fields of KEY=VALUE,... replaced (values typed as the field's default); an
    `ExperimentalGuesser` when a field is one of its experiments'."""
    if not text:
        return base
    kinds = {f.name: type(getattr(ExperimentalGuesser(), f.name)) for f in fields(ExperimentalGuesser)}
    changes: dict[str, Any] = {}
    for item in text.split(","):
        key, _, value = item.partition("=")
        key = key.strip()
        if key not in kinds:
            raise SystemExit(f"error: Guesser has no field {key!r} (fields: {', '.join(kinds)})")
        kind = kinds[key]
        changes[key] = value.strip().lower() in ("1", "true", "yes") if kind is bool else kind(value.strip())
    kind = type(base) if set(changes) <= {f.name for f in fields(base)} else ExperimentalGuesser
    return kind(**{**{f.name: getattr(base, f.name) for f in fields(base)}, **changes})


@dataclass(frozen=True)
class PairedJob:
    """A picklable 'play this seed with each guesser': (result, CPU seconds) per guesser."""

    level: Level
    guessers: tuple[Guesser, ...]
    books: tuple[bool, ...]

    def __call__(self, seed: int) -> list[tuple[GameResult, float]]:
        out = []
        for guesser, book in zip(self.guessers, self.books):
            started = time.process_time()
            result = play_reference(self.level, seed, "classic", Agent("classic", guesser=guesser, book=book))
            out.append((result, time.process_time() - started))
        return out


def run(job: PairedJob, seeds: range, jobs: int) -> Iterator[list[tuple[GameResult, float]]]:
    """The job on every seed, in order, over `jobs` processes."""
    if jobs <= 1:
        yield from map(job, seeds)
        return
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(job, seeds, chunksize=8)


def paired_difference(new: list[bool], old: list[bool]) -> dict[str, Any]:
    """Mean of new - old per game with its 95% normal interval; games only one side won."""
    n = len(new)
    diffs = [int(a) - int(b) for a, b in zip(new, old)]
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1) if n > 1 else 0.0
    half = Z95 * math.sqrt(var / n)
    return {"difference": mean, "ci95": [mean - half, mean + half], "only_new": diffs.count(1), "only_baseline": diffs.count(-1)}


def side(name: str, results: list[tuple[GameResult, float]]) -> dict[str, Any]:
    """Wins, win rate, Wilson interval, guesses per game and games per CPU-second of one agent."""
    games = len(results)
    wins = sum(r.won for r, _ in results)
    cpu = sum(s for _, s in results)
    low, high = wilson_interval(wins, games)
    return {
        "agent": name,
        "games": games,
        "wins": wins,
        "win_rate": wins / games,
        "ci95": [low, high],
        "guesses_per_game": sum(r.guesses for r, _ in results) / games,
        "cpu_seconds": cpu,
        "games_per_cpu_second": games / cpu if cpu > 0 else 0.0,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--level", default="expert", choices=sorted(LEVELS))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--new", default="", help="Guesser fields for the new agent, KEY=VALUE,...")
    parser.add_argument("--baseline", default="", help="Guesser fields for the baseline, KEY=VALUE,...")
    parser.add_argument("--only", choices=("new", "both"), default="both")
    parser.add_argument(
        "--baseline-book", choices=("on", "off"), default="on", help="off: the baseline computes every view (the opening book's speed-up)"
    )
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    new = parse_guesser(args.new, Guesser())
    guessers = (new,) if args.only == "new" else (new, parse_guesser(args.baseline, BASELINE))
    job = PairedJob(LEVELS[args.level], guessers, (True, args.baseline_book == "on"))
    seeds = range(args.seed, args.seed + args.games)
    print(f"{args.level}, classic rules, corner first click, seeds {seeds.start}..{seeds.stop - 1}, {args.jobs} job(s)")
    print(f"new: {new}")
    if len(guessers) > 1:
        print(f"baseline: {guessers[1]}, opening book {args.baseline_book}")
    rows: list[list[tuple[GameResult, float]]] = []
    started = time.perf_counter()
    for i, row in enumerate(run(job, seeds, args.jobs), 1):
        rows.append(row)
        if i % max(1, args.games // 20) == 0:
            won = [sum(r[k][0].won for r in rows) for k in range(len(guessers))]
            print(f"  {i} games, wins {' / '.join(map(str, won))}, {time.perf_counter() - started:.0f} s", flush=True)
    sides = [side(name, [r[k] for r in rows]) for k, name in enumerate(("new", "baseline")[: len(guessers)])]
    for s in sides:
        low, high = s["ci95"]
        print(
            f"{s['agent']:>8}: {s['wins']}/{s['games']} won, {s['win_rate']:.2%} (95% Wilson {low:.2%} - {high:.2%}), "
            f"{s['guesses_per_game']:.2f} guesses/game, {s['games_per_cpu_second']:.1f} games per CPU-second"
        )
    report: dict[str, Any] = {"level": args.level, "seed": args.seed, "games": args.games, "agents": sides}
    if len(guessers) > 1:
        diff = paired_difference([r[0][0].won for r in rows], [r[1][0].won for r in rows])
        low, high = diff["ci95"]
        print(
            f"paired difference new - baseline: {diff['difference']:+.2%} (95% CI {low:+.2%} to {high:+.2%}); "
            f"won by new only {diff['only_new']}, by baseline only {diff['only_baseline']}"
        )
        report["paired"] = diff
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
