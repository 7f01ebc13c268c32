"""How much the agent item's points move with the private seed, under the old and the new rule.

Run from the repository root::

    python bench/agent_item_spread.py                           # 20 private seeds, 5,000 games each, --jobs 2
    python bench/agent_item_spread.py --seeds 5 --games 1000 --calibration 2000 --jobs 1   # a quick look
    python bench/agent_item_spread.py --control --pipe-games 300 --json spread.json
    python bench/agent_item_spread.py --only none --level expert --pipe-games 10     # what an Expert game costs

The agent is `bench/agents/handout_agent.py` (what a student following the handout might
write: rule (a), then exact probabilities by enumerating the frontier with the part-1
engine), played in this process one move per call, as the grader asks a student's agent.
A scenario may weaken it: with probability `blunder` per move (drawn from a hash of the
view, so the agent stays a function of what it sees) it opens a uniformly drawn hidden
cell instead.

For each scenario:

1. **calibration**: the agent's long-run win rate on `--calibration` games (the public
   default games, seeds 0, 1, ...; no private seed's games are among them);
2. the default thresholds (full points at 85%, half at 70%) are moved together so that
   this rate is exactly 1 point above the threshold under test (`upper`: full points,
   `lower`: half points);
3. for each private seed 1..`--seeds`, the grader's own functions play and score the
   item: `agent_seed` and `play_games` (the games), `games_result` and `score_agent` (the
   points). The first n games of a seed are the games an n-game config plays, so every
   row below comes from the same games: old rule (200 games, steps), each rule at 1,000,
   2,000 and `--games` games, and the new rule (`--games` games, linear).

It prints, per scenario and row, the points' min, max and spread (max - min) as a share
of the item's points over the seeds, and the CPU seconds (`time.process_time`, summed
over the workers). `--control` also plays the reference agent on the calibration games
and prints how much of the per-game variance a control variate (the reference's win and
its number of guesses, on the same boards) could remove at best. `--pipe-games K` plays
K games of the same agent file through the grader's sandbox (a worker process asked one
move at a time, `play_agent_games`), to show what a game costs when graded for real.
`--level` plays another level throughout; `--only none` skips the scenarios.
"""

from __future__ import annotations

import argparse
import json
import math
import multiprocessing
import random
import resource
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too; with `pip install -e .` it is the same code
    sys.path.insert(0, str(ROOT))
AGENT_FILE = ROOT / "bench" / "agents" / "handout_agent.py"
sys.path.insert(0, str(AGENT_FILE.parent))

from handout_agent import choose_move  # noqa: E402

from answerkey.agent.benchmark import play_reference  # noqa: E402
from grader.inputs.config import AgentGrading  # noqa: E402
from grader.sandbox.tasks import Outcome  # noqa: E402
from grader.scoring.agentplay import agent_seed, games_result, play_games, score_agent  # noqa: E402
from play.evaluate import GameResult, wilson_interval  # noqa: E402
from play.levels import LEVELS  # noqa: E402
from play.view import HIDDEN, Move, View  # noqa: E402

OLD = AgentGrading(games=200, between="steps")  # the rule before: 200 games, points by steps
PREFIXES = (200, 1000, 2000)


@dataclass(frozen=True)
class Blunderer:
    """The handout agent, except that with probability `blunder` per move (a function of
    the view) it opens a uniformly drawn hidden cell."""

    blunder: float

    def __call__(self, view: View) -> Move:
        draw = random.Random(hash(view.cells))
        if view.started and draw.random() < self.blunder:
            return Move("open", draw.choice([cell for cell in view.hidden() if view[cell] == HIDDEN]))
        return choose_move(view)


@dataclass(frozen=True)
class GamesJob:
    """A picklable 'play the configured games from this first seed': (games, CPU seconds)."""

    agent: Blunderer
    grading: AgentGrading

    def __call__(self, first_seed: int) -> tuple[list[GameResult], float]:
        started = time.process_time()
        games = play_games(self.agent, self.grading, first_seed)
        return games, time.process_time() - started


def run(job: GamesJob, first_seeds: list[int], jobs: int) -> tuple[list[list[GameResult]], float]:
    """The job from every first seed, in order, over `jobs` processes; and its CPU seconds."""
    if jobs <= 1:
        done = list(map(job, first_seeds))
    else:
        with multiprocessing.get_context("spawn").Pool(jobs) as pool:
            done = pool.map(job, first_seeds, chunksize=1)
    return [games for games, _ in done], sum(seconds for _, seconds in done)


def calibrate(agent: Blunderer, level: str, games: int, jobs: int, control: bool) -> dict[str, Any]:
    """The agent's long-run win rate on the public default games (seeds 0, 1, ...); with
    `control`, the reference's results on the same games and what they could explain."""
    chunk = max(1, -(-games // (4 * jobs)))
    public = AgentGrading(level=level, games=chunk)
    first = agent_seed(public)
    chunks, cpu = run(GamesJob(agent, public), list(range(first, first + games, chunk)), jobs)
    results = [game for part in chunks for game in part][:games]
    wins = sum(game.won for game in results)
    out: dict[str, Any] = {"games": games, "wins": wins, "win_rate": wins / games, "ci95": list(wilson_interval(wins, games)), "cpu_seconds": cpu}
    if control:
        reference = [play_reference(LEVELS[level], game.seed) for game in results]
        out["control"] = control_variate([g.won for g in results], [r.won for r in reference], [r.guesses for r in reference])
    return out


def correlation(xs: list[float], ys: list[float]) -> float:
    """Pearson's correlation (0 when either side is constant)."""
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys))
    sxx, syy = sum((x - mx) ** 2 for x in xs), sum((y - my) ** 2 for y in ys)
    return sxy / math.sqrt(sxx * syy) if sxx and syy else 0.0


def control_variate(agent: list[bool], reference: list[bool], guesses: list[int]) -> dict[str, float]:
    """Correlations of the agent's wins with the reference's wins and guesses on the same
    boards, and R^2 of both: the share of the variance a control variate could remove."""
    x, y, g = ([float(v) for v in vs] for vs in (agent, reference, guesses))
    rxy, rxg, ryg = correlation(x, y), correlation(x, g), correlation(y, g)
    both = (rxy * rxy + rxg * rxg - 2 * rxy * rxg * ryg) / (1 - ryg * ryg)
    p, q = sum(x) / len(x), sum(y) / len(y)
    low, high = min(p, q), max(p, q)
    bound = math.sqrt(low * (1 - high) / (high * (1 - low))) if 0 < low and high < 1 else 1.0
    return {"reference_win_rate": q, "r_wins": rxy, "r_wins_bound": bound, "r_guesses": rxg, "r2_both": both}


def moved(rate: float, which: str) -> tuple[tuple[float, float], ...]:
    """The default thresholds moved together so that `rate` is 1 point above the one under test."""
    defaults = AgentGrading().thresholds
    target = max(least for least, _ in defaults) if which == "upper" else min(least for least, _ in defaults)
    shift = rate - 0.01 - target
    return tuple((round(least + shift, 6), share) for least, share in defaults)


def spread(scores: list[float], points: float) -> dict[str, float]:
    """Min, max and max - min of the points, the last as a share of the item's points."""
    return {"min": min(scores), "max": max(scores), "spread": (max(scores) - min(scores)) / points, "mean": sum(scores) / len(scores)}


def rows(per_seed: list[list[GameResult]], new: AgentGrading) -> list[dict[str, Any]]:
    """Points over the seeds for each (games, rule), every score by `score_agent`."""
    out = []
    for games in sorted({*PREFIXES, new.games}):
        for rule in ("steps", "linear") if games <= new.games else ():
            label = {(OLD.games, OLD.between): "old rule", (new.games, new.between): "new rule"}.get((games, rule), "")
            grading = replace(new, games=games, between=rule)
            scores = [score_agent(grading, Outcome("ok", games_result(seed_games[:games]))).score for seed_games in per_seed]
            out.append({"games": games, "between": rule, "label": label, **spread(scores, grading.points)})
    return out


def scenario(name: str, blunder: float, args: argparse.Namespace) -> dict[str, Any]:
    """Calibrate the agent, move the thresholds, play every private seed's games, score."""
    agent = Blunderer(blunder)
    print(f"\n{name}: handout agent, {args.level}, blunder {blunder:g} per move", flush=True)
    calibration = calibrate(agent, args.level, args.calibration, args.jobs, args.control)
    rate = calibration["win_rate"]
    low, high = calibration["ci95"]
    print(
        f"  long-run rate: {calibration['wins']}/{args.calibration} = {rate:.2%} (95% CI {low:.2%}-{high:.2%}), "
        f"{calibration['cpu_seconds']:.0f} CPU s"
    )
    if "control" in calibration:
        c = calibration["control"]
        print(
            f"  control variate on the same boards: r(agent, reference wins) {c['r_wins']:.3f} (at most {c['r_wins_bound']:.3f} "
            f"for these rates), r(agent, reference guesses) {c['r_guesses']:.3f}; both together remove {c['r2_both']:.1%} of the variance"
        )
    new = AgentGrading(level=args.level, games=args.games, thresholds=moved(rate, name))
    print(f"  thresholds {[list(t) for t in new.thresholds]}: {new.describe()}")
    seeds = range(1, args.seeds + 1)
    per_seed, cpu = run(GamesJob(agent, new), [agent_seed(replace(new, seed=seed)) for seed in seeds], args.jobs)
    table = rows(per_seed, new)
    print(f"  {len(seeds)} private seeds, {args.games} games each: {cpu:.0f} CPU s")
    print(f"  {'games':>6} {'rule':>7} {'min':>6} {'max':>6} {'spread':>7} {'mean':>6}")
    for row in table:
        print(
            f"  {row['games']:>6} {row['between']:>7} {row['min']:>6.2f} {row['max']:>6.2f} {row['spread']:>7.1%} {row['mean']:>6.2f}  {row['label']}"
        )
    return {
        "scenario": name,
        "blunder": blunder,
        "calibration": calibration,
        "thresholds": new.thresholds,
        "seeds": len(seeds),
        "cpu_seconds": cpu,
        "rows": table,
    }


def pipe_cost(level: str, games: int) -> dict[str, Any]:
    """Wall and CPU seconds per game of the agent file graded for real: in a sandboxed
    worker (isolation auto), one move per question (`play_agent_games`)."""
    from grader.sandbox.host import Limits
    from grader.sandbox.isolation import open_sandbox
    from grader.scoring.agentplay import play_agent_games

    sandbox = open_sandbox("auto", [], 1)
    grading = AgentGrading(level=level, games=games, seed=1)
    before, started = _cpu(), time.perf_counter()
    try:
        outcome = play_agent_games(str(AGENT_FILE), grading, agent_seed(grading), Limits(), sandbox, "file")
    finally:
        sandbox.close()
    wall, cpu = time.perf_counter() - started, _cpu() - before
    result = outcome.answered
    return {"isolation": sandbox.mode, "games": games, "wins": result.wins, "wall_per_game": wall / games, "grader_cpu_per_game": cpu / games}


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=20, help="private seeds 1..N")
    parser.add_argument("--games", type=int, default=AgentGrading().games, help="games of the new rule")
    parser.add_argument("--calibration", type=int, default=20_000, help="games that measure the agent's long-run rate")
    parser.add_argument("--upper-blunder", type=float, default=0.012, help="the agent 1 point above the full-points threshold")
    parser.add_argument("--lower-blunder", type=float, default=0.048, help="the agent 1 point above the half-points threshold")
    parser.add_argument("--level", default="beginner", choices=sorted(LEVELS))
    parser.add_argument("--only", choices=("upper", "lower", "none"), help="one scenario, or none (--pipe-games alone)")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--control", action="store_true", help="also measure what a control variate could remove")
    parser.add_argument("--pipe-games", type=int, default=0, help="also time this many games through the sandbox")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    started = time.process_time()
    blunders = {"upper": args.upper_blunder, "lower": args.lower_blunder}
    report: dict[str, Any] = {"scenarios": [scenario(name, blunder, args) for name, blunder in blunders.items() if args.only in (None, name)]}
    if args.pipe_games:
        cost = pipe_cost(args.level, args.pipe_games)
        report["pipe"] = cost
        print(
            f"\nthrough the sandbox ({cost['isolation']}): {cost['wins']}/{cost['games']} won, {cost['wall_per_game'] * 1000:.1f} ms "
            f"a game (wall), the grader's own CPU {cost['grader_cpu_per_game'] * 1000:.1f} ms a game; "
            f"{args.games} games: about {cost['wall_per_game'] * args.games:.0f} s"
        )
    report["cpu_seconds_here"] = time.process_time() - started
    print(f"\nCPU seconds in this process: {report['cpu_seconds_here']:.0f} (the workers' are in each scenario's figure)")
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
