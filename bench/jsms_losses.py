"""Why the agent loses the boards JSMinesweeper wins: each guess logged, JSMinesweeper asked to play on.

Run from the repository root after a `bench/play_jsms.py` run that kept both players'
per-board results (`--cache` for JSMinesweeper, `--agent-results` for the agent)::

    python bench/play_jsms.py --cache /tmp/jsms-cache.jsonl --level expert --games 4000 --seed 700000 \\
        --agent-results /tmp/agent.jsonl
    python bench/jsms_losses.py --jsms /tmp/JSMinesweeper --cache /tmp/jsms-cache.jsonl \\
        --agent-results /tmp/agent.jsonl --level expert --games 4000 --seed 700000

For every board won by one player only, the agent's game is played again with each guess
logged: the cell, its mine probability and the lowest on the view, the cells revealed,
and the layer that chose it (exact endgame, isolated pocket, forced or pseudo 50/50,
dead-cell avoidance, the lookahead keeping the safest cell or taking another). Then
JSMinesweeper (`bench/jsms_driver.js`, with the layout's `prefix`) plays on from the
position just before each of those guesses.

On a board only JSMinesweeper won, the *decisive* guess is the last one from whose
position JSMinesweeper still wins; on a board only the agent won, the last one from whose
position JSMinesweeper still loses. There the two players chose differently, and the
script compares JSMinesweeper's first guess from that position with the agent's: the
same mine probability, riskier, safer, or the same cell (then JSMinesweeper's play
depended on its own earlier moves: it keeps state from one move to the next). It prints
what killed the agent on the boards only JSMinesweeper won, and the decisive choices on
both sides, by kind and by phase (opening: fewer than 60 cells revealed). The agent
and JSMinesweeper run one after the other, one board at a time.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from answerkey.agent.agent import Agent  # noqa: E402
from answerkey.agent.decision import Decision  # noqa: E402
from answerkey.agent.guess import Guesser  # noqa: E402
from answerkey.agent.probability import probabilities  # noqa: E402
from bench.play_jsms import JsPlayer, layout, load_cache  # noqa: E402
from bench.play_paired import parse_guesser  # noqa: E402
from play.game import Game  # noqa: E402
from play.levels import LEVELS, Level  # noqa: E402
from play.view import FLAGGED, HIDDEN  # noqa: E402

OPENING = 60  # fewer revealed cells than this: the opening


def kind(decision: Decision) -> str:
    """The layer that chose a guess, from its reason."""
    reason = decision.reason
    if decision.layer == "endgame":
        return "pocket" if "isolated pocket" in reason else "endgame"
    for words, name in (("forced 50/50", "forced"), ("pseudo 50/50", "pseudo"), ("can show only one number", "dead-cell avoidance")):
        if words in reason:
            return name
    return "lookahead, another cell" if "survive this guess and the next" in reason else "lookahead, the safest cell"


def agent_guesses(level: Level, seed: int, agent: Agent) -> tuple[bool, list[dict[str, Any]]]:
    """(won, the agent's guesses), each with the cells opened before it (`prefix`)."""
    game = Game(level, "classic", seed)
    opened: list[list[int]] = []
    guesses: list[dict[str, Any]] = []
    while not game.over:
        view = game.view()
        for decision in agent.decisions(view):
            if not decision.certain and decision.layer != "first":
                counted = probabilities(view)
                lowest = min(count for cell, count in counted.mines.items() if view[cell] == HIDDEN)
                revealed = sum(len(row) - row.count(HIDDEN) - row.count(FLAGGED) for row in view.cells)
                p = counted.mines[decision.move.cell] / counted.total
                guesses.append(
                    {"cell": list(decision.move.cell), "kind": kind(decision), "p": p, "lowest": lowest / counted.total}
                    | {"revealed": revealed, "prefix": list(opened)}
                )
            if decision.move.action == "open":
                opened.append(list(decision.move.cell))
            game.apply(decision.move)
            if game.over:
                break
    return game.status == "won", guesses


def compare(guess: dict[str, Any], js_first: list[float] | None) -> str:
    """JSMinesweeper's first guess from the agent's position against the agent's guess there."""
    if js_first is None:
        return "JS guesses no more"
    if [int(js_first[0]), int(js_first[1])] == guess["cell"]:
        return "the same cell"
    gap = js_first[2] - guess["p"]
    if abs(gap) <= 1e-6:
        return "another cell, the same probability"
    if gap > 0:
        return "a riskier cell"
    return "a safer cell" + (" (the agent had left the safest)" if guess["p"] > guess["lowest"] + 1e-9 else "")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jsms", type=Path, required=True, help="JSMinesweeper's folder (the one with index.html)")
    parser.add_argument("--cache", type=Path, required=True, help="JSMinesweeper's results per board (play_jsms.py --cache)")
    parser.add_argument("--agent-results", type=Path, required=True, help="the agent's results per board (play_jsms.py --agent-results)")
    parser.add_argument("--agent", default="", help="Guesser fields of that agent, KEY=VALUE,...")
    parser.add_argument("--level", default="expert", choices=sorted(LEVELS))
    parser.add_argument("--games", type=int, default=4000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--boards", type=int, default=0, help="at most so many boards of each side (0: all)")
    parser.add_argument("--json", type=Path, help="write every board's guesses and JSMinesweeper's results here (JSON lines)")
    args = parser.parse_args(argv)
    level = LEVELS[args.level]
    js, mine = load_cache(args.cache, level.name), load_cache(args.agent_results, level.name)
    seeds = [s for s in range(args.seed, args.seed + args.games) if s in js and s in mine]
    sides = {
        "JS only": [s for s in seeds if js[s]["won"] and not mine[s]["won"]],
        "agent only": [s for s in seeds if mine[s]["won"] and not js[s]["won"]],
    }
    agent = Agent("classic", guesser=parse_guesser(args.agent, Guesser()))
    player = JsPlayer(args.jsms, level, None)
    sink = args.json.open("w") if args.json else None
    killed: Counter[str] = Counter()
    decisive: dict[str, Counter[str]] = {side: Counter() for side in sides}
    phases: dict[str, Counter[str]] = {side: Counter() for side in sides}
    try:
        for side, boards in sides.items():
            boards = boards[: args.boards] if args.boards else boards
            for seed in boards:
                board = layout(level, seed)
                won, guesses = agent_guesses(level, seed, agent)
                if won != mine[seed]["won"]:
                    raise SystemExit(f"error: seed {seed}: the agent now {'wins' if won else 'loses'}; give --agent as in that run")
                for guess in guesses:
                    result = player.ask(board, guess["prefix"])
                    guess["js_won"], guess["js_first"] = result["won"], (result["log"] or [None])[0]
                if side == "JS only" and guesses:
                    last = guesses[-1]
                    riskier = last["kind"] == "lookahead, another cell" and last["p"] > last["lowest"] + 1e-9
                    fatal = last["kind"] + (" (riskier than the safest)" if riskier else "") + (", 40% or more" if last["p"] >= 0.4 else "")
                    killed[fatal + (", opening" if last["revealed"] < OPENING else "")] += 1
                wanted = side == "JS only"  # the last position from which JS's result is the one it had
                at = [i for i, guess in enumerate(guesses) if guess["js_won"] == wanted]
                if not at:
                    decisive[side]["JS's result from no position of the agent's matches its own game"] += 1
                else:
                    guess = guesses[at[-1]]
                    decisive[side][compare(guess, guess["js_first"])] += 1
                    exact = guess["kind"] in ("endgame", "pocket")
                    phases[side]["exact" if exact else "opening" if guess["revealed"] < OPENING else "middle"] += 1
                if sink is not None:
                    logged = [{key: value for key, value in guess.items() if key != "prefix"} for guess in guesses]
                    sink.write(json.dumps({"seed": seed, "side": side, "guesses": logged}) + "\n")
            print(f"{side}: {len(boards)} boards", flush=True)
    finally:
        player.close()
        if sink is not None:
            sink.close()
    print("\nwhat killed the agent on the boards only JS won (its last guess):")
    for name, count in killed.most_common():
        print(f"  {count:4d}  {name}")
    print("\nat the decisive position, JS's first guess against the agent's:")
    names = sorted({name for counter in decisive.values() for name in counter}, key=lambda n: -sum(c[n] for c in decisive.values()))
    print(f"  {'':66s} " + "  ".join(f"{side:>10s}" for side in sides))
    for name in names:
        print(f"  {name:66s} " + "  ".join(f"{decisive[side][name]:10d}" for side in sides))
    for phase in ("opening", "middle", "exact"):
        print(f"  {'phase: ' + phase:66s} " + "  ".join(f"{phases[side][phase]:10d}" for side in sides))
    return 0


if __name__ == "__main__":
    sys.exit(main())
