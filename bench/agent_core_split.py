"""Where an agent move's CPU goes with the worker on the grader's core and with the core left
to the scheduler: the item's whole CPU, the grader's thread, the worker's thread and the
agent's own `choose_move`, per move, as peers in one run.

    python bench/agent_core_split.py                        # 500 Beginner games under bwrap, 3 rounds (as root)
    python bench/agent_core_split.py --games 200 --repeats 5 --mode user

The agent is bench/agents/handout_agent.py, wrapped in a copy that times its own thread
(inside `choose_move`, and the whole thread from its first move) and prints the figures
at its last move: what the worker's thread spent around the agent's work is the
difference. Each row is a process of its own (`agent_game_cost.py`'s way: CPU from a
control group of its own, `user` from a copy of the kit closed to other users); `cores
free` makes `SharedCore.join` a no-op. Medians of `--repeats` rounds, the rows taking turns.
"""

from __future__ import annotations

import argparse
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

METER = """

import time as _time

_played = choose_move
_counts = {"inside": 0.0, "moves": 0, "first": None}


def choose_move(view):
    started = _time.thread_time()
    if _counts["first"] is None:
        _counts["first"] = started
    move = _played(view)
    _counts["inside"] += _time.thread_time() - started
    _counts["moves"] += 1
    if _counts["moves"] == LAST_MOVE:
        whole = _time.thread_time() - _counts["first"]
        print("METER", _counts["moves"], _counts["inside"], whole)
    return move
"""


def moves_of(games: int) -> int:
    """How many moves the handout agent plays in the games (played here, in-process)."""
    import importlib.util

    from grader.inputs.config import AgentGrading
    from grader.scoring.agentplay import play_games

    spec = importlib.util.spec_from_file_location("handout_agent", AGENT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return sum(game.moves + (not game.won and game.error is None) for game in play_games(module.choose_move, AgentGrading(games=games), 0))


def play_row(mode: str, games: int, agent: str, free: bool) -> dict[str, Any]:
    """The games graded under `mode` in this process: CPU of the whole item, of the
    grader's thread, and the worker's own figures, in seconds."""
    from grader.inputs.config import AgentGrading
    from grader.sandbox.host import Limits
    from grader.sandbox.isolation import open_sandbox
    from grader.scoring.agentplay import play_agent_games

    if free:
        from grader.sandbox.cores import SharedCore

        SharedCore.join = lambda self, keep_on: None  # type: ignore[method-assign]
    kit_first = list(sys.path)
    sys.path.insert(0, str(BENCH))
    from run_overhead import own_group

    sys.path[:] = kit_first
    with own_group() as used:
        sandbox = open_sandbox(mode, [], workers=1)
        try:
            cpu, thread = used(), time.thread_time()
            outcome = play_agent_games(agent, AgentGrading(games=games, timeout=3600.0), 0, Limits(), sandbox, "file")
            cpu, thread = used() - cpu, time.thread_time() - thread
        finally:
            sandbox.close()
    words = outcome.output.split()
    if not outcome.ok or "METER" not in words:
        raise SystemExit(f"{mode}: no figures from the worker: {outcome.message} {outcome.output[:300]}")
    _, moves, inside, whole = words[words.index("METER") : words.index("METER") + 4]
    return {"cpu": cpu, "grader": thread, "moves": int(moves), "inside": float(inside), "worker": float(whole)}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=500)
    parser.add_argument("--mode", default="bwrap", choices=["bwrap", "user", "none"])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--row", nargs=2, help=argparse.SUPPRESS)  # internal: AGENT FREE, play one row here
    args = parser.parse_args()
    if args.row:
        print(json.dumps(play_row(args.mode, args.games, args.row[0], args.row[1] == "1")))
        return
    if os.geteuid() != 0:
        raise SystemExit("run as root: the CPU of sandboxed processes is read from a control group of the row's own")
    sys.path.insert(0, str(BENCH))
    from grading_overhead import closed_kit

    moves = moves_of(args.games)
    with tempfile.TemporaryDirectory(prefix="agent-split-") as private:
        kit = closed_kit(Path(tempfile.mkdtemp(dir=private)), ROOT) if args.mode == "user" else ROOT
        folder = Path(tempfile.mkdtemp(dir=private))
        agent = folder / "agent.py"
        agent.write_text(AGENT.read_text(encoding="utf-8") + METER.replace("LAST_MOVE", str(moves)), encoding="utf-8")
        os.chmod(folder, 0o755)
        os.chmod(agent, 0o644)
        rows: dict[str, list[dict[str, Any]]] = {"one core": [], "cores free": []}
        for _ in range(args.repeats):
            for name in rows:
                command = [sys.executable, str(Path(__file__).resolve()), "--mode", args.mode, "--games", str(args.games)]
                command += ["--row", str(agent), "1" if name == "cores free" else "0"]
                run = subprocess.run(command, env={**os.environ, "PYTHONPATH": str(kit)}, cwd=kit, capture_output=True, text=True)
                if run.returncode != 0:
                    raise SystemExit(f"row {name} failed:\n{run.stdout[-1500:]}{run.stderr[-1500:]}")
                rows[name].append(json.loads(run.stdout.splitlines()[-1]))
    print(f"{args.games} beginner games under {args.mode}, {moves} moves; us of CPU a move, median of {args.repeats}; load {os.getloadavg()[0]:.1f}")
    for name, runs in rows.items():
        figure = {key: statistics.median(run[key] for run in runs) / moves * 1e6 for key in ("cpu", "grader", "worker", "inside")}
        print(
            f"  {name:<11} whole item {figure['cpu']:6.1f}   grader's thread {figure['grader']:6.1f}   "
            f"worker's thread {figure['worker']:6.1f} (the agent's choose_move {figure['inside']:6.1f})"
        )


if __name__ == "__main__":
    main()
