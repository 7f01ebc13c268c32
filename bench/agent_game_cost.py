"""What one graded agent game costs: the same games played by the same agent in this
process and through the sandbox, as peers in one run, in CPU seconds per game.

    python bench/agent_game_cost.py                       # 200 Beginner games, every mode
    python bench/agent_game_cost.py --games 500 --modes bwrap

The agent is bench/agents/handout_agent.py (what a student following the handout writes).
"in-process" calls its choose_move directly; every other row grades it as the grader does
(`grader.scoring.agentplay.play_agent_games`: the games here, one `choose_move` question
per move to a sandboxed worker). CPU time counts this process and every worker it
started, so the difference between rows is what the sandbox adds to a game; wall time
is shown too, but it depends on what else the machine runs.
"""

from __future__ import annotations

import argparse
import importlib.util
import os
import resource
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from grader.inputs.config import AgentGrading  # noqa: E402
from grader.sandbox.host import Limits  # noqa: E402
from grader.sandbox.isolation import open_sandbox  # noqa: E402
from grader.scoring.agentplay import play_agent_games, play_games  # noqa: E402

AGENT = ROOT / "bench" / "agents" / "handout_agent.py"


def cpu_now() -> float:
    """CPU seconds of this process and of its reaped children (the workers)."""
    own, children = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + children.ru_utime + children.ru_stime


def in_process(grading: AgentGrading) -> None:
    spec = importlib.util.spec_from_file_location("handout_agent", AGENT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    play_games(module.choose_move, grading, 0)


def sandboxed(grading: AgentGrading, mode: str) -> None:
    sandbox = open_sandbox(mode, [], workers=1)
    try:
        outcome = play_agent_games(str(AGENT), grading, 0, Limits(), sandbox, "file")
    finally:
        sandbox.close()
    if not outcome.ok:
        raise SystemExit(f"{mode}: the games were not played: {outcome.reason}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--modes", nargs="+", default=["none", "bwrap", *(["user"] if os.geteuid() == 0 else [])])
    args = parser.parse_args()
    grading = AgentGrading(games=args.games, timeout=3600.0)
    rows: list[tuple[str, float, float]] = []
    for name in ("in-process", *args.modes):
        cpu, wall = cpu_now(), time.perf_counter()
        in_process(grading) if name == "in-process" else sandboxed(grading, name)
        rows.append((name, (cpu_now() - cpu) / args.games, (time.perf_counter() - wall) / args.games))
    base = rows[0][1]
    print(f"{args.games} beginner games of {AGENT.name}, per game:")
    for name, cpu, wall in rows:
        print(f"  {name:<11} {cpu * 1000:7.2f} ms CPU ({cpu / base:4.2f}x in-process)   {wall * 1000:7.2f} ms wall")


if __name__ == "__main__":
    main()
