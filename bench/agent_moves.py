"""Every move the reference agent plays on seeded games, to compare two versions move by move.

Run from the repository root::

    python bench/agent_moves.py --out /tmp/moves-before.jsonl           # on the old code
    python bench/agent_moves.py --against /tmp/moves-before.jsonl       # on the new code
    python bench/agent_moves.py --agent blend=0.2 --games 20 --out /tmp/blend.jsonl

For each level (`--levels`, default beginner, intermediate and expert) game i uses seed
--seed + i (classic rules), played by `answerkey.agent.agent.Agent` with its default
guesser or with the fields given by --agent (KEY=VALUE,..., as `play_paired.py --new`).
One JSON line per game holds the level, the seed, whether it was won and every decision
in order: the move, the layer that chose it and its reason. `--against FILE` reads such a
file and names the first decision that differs in each game that differs (exit 1 if any).
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too; with `pip install -e .` it is the same code
    sys.path.insert(0, str(ROOT))

from answerkey.agent.agent import Agent  # noqa: E402
from answerkey.agent.guess import Guesser  # noqa: E402
from bench.play_paired import parse_guesser  # noqa: E402
from play.game import Game  # noqa: E402
from play.levels import LEVELS, Level  # noqa: E402


def game_moves(level: Level, seed: int, guesser: Guesser) -> dict[str, Any]:
    """One game's decisions, in the order played."""
    agent = Agent("classic", guesser=guesser)
    game = Game(level, "classic", seed)
    played: list[list[Any]] = []
    while not game.over:
        for decision in agent.decisions(game.view()):
            move = decision.move
            played.append([move.action, *move.cell, decision.layer, decision.reason])
            game.apply(move)
            if game.over:
                break
    return {"level": level.name, "seed": seed, "won": game.status == "won", "moves": played}


def first_difference(old: dict[str, Any], new: dict[str, Any]) -> str | None:
    """Where two records of one game part, in words (None: the same game)."""
    for i, (a, b) in enumerate(zip(old["moves"], new["moves"])):
        if a != b:
            return f"move {i + 1}: {a} then, {b} now"
    if len(old["moves"]) != len(new["moves"]):
        return f"{len(old['moves'])} moves then, {len(new['moves'])} now"
    return None


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--levels", default="beginner,intermediate,expert")
    parser.add_argument("--games", type=int, default=100, help="games per level")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agent", default="", help="Guesser fields for the agent, KEY=VALUE,...")
    parser.add_argument("--out", type=Path, help="write one JSON line per game here")
    parser.add_argument("--against", type=Path, help="an earlier --out file: compare every move with it")
    args = parser.parse_args(argv)
    guesser = parse_guesser(args.agent, Guesser())
    records = [game_moves(LEVELS[name], seed, guesser) for name in args.levels.split(",") for seed in range(args.seed, args.seed + args.games)]
    moves = sum(len(r["moves"]) for r in records)
    print(f"agent: {guesser}\n{len(records)} games, {sum(r['won'] for r in records)} won, {moves} moves")
    if args.out:
        args.out.write_text("".join(json.dumps(r) + "\n" for r in records))
    if not args.against:
        return 0
    before = {(r["level"], r["seed"]): r for r in map(json.loads, args.against.read_text().splitlines())}
    differ = 0
    for record in records:
        old = before.get((record["level"], record["seed"]))
        where = "not in the earlier file" if old is None else first_difference(old, record)
        if where is not None:
            differ += 1
            print(f"{record['level']} seed {record['seed']}: {where}")
    print(f"{len(records) - differ} of {len(records)} games the same move by move")
    return 1 if differ else 0


if __name__ == "__main__":
    raise SystemExit(main())
