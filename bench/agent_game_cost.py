"""What one graded agent game costs: the same games played by the same agent in a process
of its own and through the sandbox, as peers in one run, in CPU per game and as a ratio.

    python bench/agent_game_cost.py                                  # 500 Beginner games, bwrap and user, 3 rounds
    python bench/agent_game_cost.py --games 200 --modes bwrap none --repeats 5
    python bench/agent_game_cost.py --before /tmp/main-checkout      # also an older checkout's grader, taking turns
    python bench/agent_game_cost.py --free-cores                     # also rows with the worker's core left to the scheduler

The agent is bench/agents/handout_agent.py (what a student following the handout writes).
Every row is a process of its own, started by this script, that imports the grader of
one checkout (this one, or `--before`'s) and plays the games:

- **in-process**: its `choose_move` called directly (`play_games`), no worker;
- **MODE**: graded as the grader grades it (`play_agent_games`: the games here, one
  `choose_move` question per move to a sandboxed worker, the item's answer computed);
- **MODE (cores free)**, with `--free-cores`: the same, this checkout's grader, with the
  worker and the grader's thread left wherever the scheduler puts them (`SharedCore.join`
  does nothing), to show what keeping them on one core saves.

CPU is read from a control group of the row's own (`run_overhead.own_group`), so it
counts the row's process and every process it started, sandboxed ones included (getrusage
misses those under bubblewrap); as root only. `user` needs a kit closed to other users:
the script copies each checkout into a private folder for it (`grading_overhead.closed_kit`).
The rows take turns for `--repeats` rounds; medians are printed, and every row must give
the same answer (wins, how each game ended): otherwise the script stops.
"""

from __future__ import annotations

import argparse
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
BENCH = Path(__file__).resolve().parent
AGENT = BENCH / "agents" / "handout_agent.py"


def play_row(mode: str, games: int, free: bool = False) -> dict[str, Any]:
    """Play the games in this process as row `mode` ("in-process" or an isolation mode),
    with the grader first on `sys.path` (`free`: the worker's core left to the scheduler):
    CPU and wall seconds, and the item's answer."""
    from grader.inputs.config import AgentGrading
    from grader.sandbox.host import Limits
    from grader.sandbox.isolation import open_sandbox
    from grader.scoring.agentplay import AgentGames, games_result, play_agent_games, play_games

    kit_first = list(sys.path)
    sys.path.insert(0, str(BENCH))  # the benches beside this one...
    from run_overhead import own_group

    sys.path[:] = kit_first  # ...which put this checkout on the path: every later import is the row's kit's

    if free:
        from grader.sandbox.cores import SharedCore

        SharedCore.join = lambda self, keep_on: None  # type: ignore[method-assign]
    grading = AgentGrading(games=games, timeout=3600.0)
    answer: AgentGames | None
    with own_group() as used:
        if mode == "in-process":
            spec = importlib.util.spec_from_file_location("handout_agent", AGENT)
            assert spec is not None and spec.loader is not None
            module = importlib.util.module_from_spec(spec)
            spec.loader.exec_module(module)
            cpu, wall = used(), time.perf_counter()
            played = play_games(module.choose_move, grading, 0)
            cpu, wall = used() - cpu, time.perf_counter() - wall
            answer = games_result(played)  # not timed: the grader's item computes it, this peer only plays
        else:
            sandbox = open_sandbox(mode, [], workers=1)
            try:
                cpu, wall = used(), time.perf_counter()
                outcome = play_agent_games(str(AGENT), grading, 0, Limits(), sandbox, "file")
                cpu, wall = used() - cpu, time.perf_counter() - wall
            finally:
                sandbox.close()
            if not outcome.ok:
                raise SystemExit(f"{mode}: the games were not played: {outcome.message}")
            answer = outcome.answered
    assert answer is not None
    return {"cpu": cpu, "wall": wall, "answer": [answer.wins, answer.outcomes, [list(vars(loss).values()) for loss in answer.losses]]}


def run_row(kit: Path, mode: str, games: int, free: bool = False) -> dict[str, Any]:
    """One row in a process of its own, importing the grader of `kit`."""
    run = subprocess.run(
        [sys.executable, str(Path(__file__).resolve()), "--row", mode, "--games", str(games), *(["--free-cores"] if free else [])],
        env={**os.environ, "PYTHONPATH": str(kit)},
        cwd=kit,
        capture_output=True,
        text=True,
    )
    if run.returncode != 0:
        raise SystemExit(f"row {mode} of {kit} failed:\n{run.stdout[-1500:]}{run.stderr[-1500:]}")
    figures: dict[str, Any] = json.loads(run.stdout.splitlines()[-1])
    return figures


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--modes", nargs="+", default=["bwrap", "user"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--before", type=Path, help="a checkout of an older commit: its grader's rows too, taking turns")
    parser.add_argument("--free-cores", action="store_true", help="also rows with the worker's core left to the scheduler")
    parser.add_argument("--row", help=argparse.SUPPRESS)  # internal: play one row here and print its figures
    args = parser.parse_args()
    if args.row:
        print(json.dumps(play_row(args.row, args.games, args.free_cores)))
        return
    if os.geteuid() != 0:
        raise SystemExit("run as root: the CPU of sandboxed processes is read from a control group of the row's own")
    sys.path.insert(0, str(BENCH))
    from grading_overhead import closed_kit

    checkouts = {"": ROOT, **({" (before)": args.before.resolve()} if args.before else {})}
    with tempfile.TemporaryDirectory(prefix="agent-cost-") as private:
        closed = {label: closed_kit(Path(tempfile.mkdtemp(dir=private)), root) if "user" in args.modes else root for label, root in checkouts.items()}
        kits = {label: (root, closed[label]) for label, root in checkouts.items()}
        names = [("in-process", "in-process", ROOT, False)]
        names += [(f"{mode}{label}", mode, shut if mode == "user" else root, False) for mode in args.modes for label, (root, shut) in kits.items()]
        if args.free_cores:
            names += [(f"{mode} (cores free)", mode, kits[""][1] if mode == "user" else ROOT, True) for mode in args.modes]
        rows: dict[str, list[dict[str, Any]]] = {name: [] for name, _, _, _ in names}
        load_before = os.getloadavg()
        for _ in range(args.repeats):  # the rows take turns
            for name, mode, kit, free in names:
                rows[name].append(run_row(kit, mode, args.games, free))
        load_after = os.getloadavg()
    answers = {name: json.dumps(runs[0]["answer"]) for name, runs in rows.items()}
    if len(set(answers.values())) != 1:
        raise SystemExit("the rows gave different answers:\n" + "\n".join(f"  {name}: {answer}" for name, answer in answers.items()))
    cpu = {name: statistics.median(run["cpu"] for run in runs) / args.games for name, runs in rows.items()}
    wall = {name: statistics.median(run["wall"] for run in runs) / args.games for name, runs in rows.items()}
    base = cpu["in-process"]
    wins = rows["in-process"][0]["answer"][0]
    print(f"{args.games} beginner games of {AGENT.name}, {wins} won in every row; per game, median of {args.repeats}", end="; ")
    print(f"load average {load_before[0]:.1f} before, {load_after[0]:.1f} after")
    for name in rows:
        print(f"  {name:<20} {cpu[name] * 1000:7.2f} ms CPU ({cpu[name] / base:4.2f}x in-process)   {wall[name] * 1000:7.2f} ms wall")


if __name__ == "__main__":
    main()
