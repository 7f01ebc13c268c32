"""The playing agent against JSMinesweeper's solver, on the same boards, paired by board.

Run from the repository root, with a copy of JSMinesweeper (github.com/DavidNHill/JSMinesweeper,
fetched by you; none of its code is in this repository) and node (v18 or later)::

    git clone https://github.com/DavidNHill/JSMinesweeper /tmp/JSMinesweeper
    python bench/play_jsms.py --jsms /tmp/JSMinesweeper --level expert --games 2000 --seed 0
    python bench/play_jsms.py --jsms /tmp/JSMinesweeper --level expert --games 20000 \\
        --cache /tmp/jsms-expert.jsonl                  # JSMinesweeper's results kept per board
    python bench/play_jsms.py --cache /tmp/jsms-expert.jsonl --games 20000 \\
        --agent frontier_cells=8                        # a variant against the cached results

Board i is the game of seed --seed + i (`play.game.Game`, classic rules) after a first
click in the top-left corner, which is safe (a mine there moves to a uniformly drawn free
cell, as in every game of this kit): its mines are exported, and both players start
from that click on that layout (the first click need not open an area).

- **agent**: `answerkey.agent.agent.Agent` with its default guesser, or with the fields
  given by --agent (KEY=VALUE,... of `answerkey.agent.guess.Guesser`), in this process;
- **JS**: JSMinesweeper's solver, run headless under node by `bench/jsms_driver.js`,
  which loads the solver's scripts from the --jsms folder and plays as JSMinesweeper's
  own bulk run does (`bulkRun` in its main.js: no flags, advanced guessing, full
  probability; the first action of each reply, then the ones after it while certain).

Both are timed in CPU seconds per game (this process's `time.process_time`; node's
`process.cpuUsage`, which counts its helper threads too), so games per CPU-second is
one core's rate; node's start-up (about 0.3 s, once) is left out.

It prints both win rates with 95% Wilson intervals, the paired table (boards won by
both, by the agent only, by JS only, by neither), the paired difference agent - JS with
its 95% interval (normal approximation on the per-board differences -1/0/1) and games
per CPU-second for each. `--cache FILE` keeps JSMinesweeper's result for every board
(one JSON line per board: level, seed, a hash of the layout, won, cpu, guesses), so a
second run, or an agent variant, is paired with it without playing it again; boards
missing from the cache are played and added. `--json FILE` writes the figures and
`--agent-results FILE` the agent's per-board results (JSON lines). `--against FILE` (an
earlier run's --agent-results on the same boards) also pairs this agent with that one:
their paired difference, this agent - that one, on the boards both played.

One player at a time, `--chunk` boards at a time (JSMinesweeper's boards missing from the
cache, then the agent's), so a stopped run leaves both players' results on the same
boards (the cache and --agent-results are written board by board). On a shared machine
run it under `nice`.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from answerkey.agent.agent import Agent  # noqa: E402
from answerkey.agent.benchmark import play_reference  # noqa: E402
from answerkey.agent.guess import Guesser  # noqa: E402
from bench.play_paired import paired_difference, parse_guesser  # noqa: E402
from play.evaluate import wilson_interval  # noqa: E402
from play.game import Game  # noqa: E402
from play.levels import LEVELS, Level  # noqa: E402

DRIVER = Path(__file__).resolve().parent / "jsms_driver.js"
FIRST = (0, 0)


def layout(level: Level, seed: int) -> dict[str, Any]:
    """Board `seed` of `level` after the first click at FIRST: its mines, and the number the click shows."""
    game = Game(level, "classic", seed)
    game.open(FIRST)
    mines = game.mine_cells()
    key = hashlib.sha1(json.dumps(mines).encode()).hexdigest()[:16]
    return {"seed": seed, "rows": level.rows, "cols": level.cols, "mines": mines, "first": list(FIRST), "first_value": game.shown(FIRST), "hash": key}


def load_cache(path: Path | None, level: str) -> dict[int, dict[str, Any]]:
    """The per-board results of `level` in a JSON-lines file (a JS cache or --agent-results), by seed."""
    if path is None or not path.exists():
        return {}
    out = {}
    for line in path.read_text().splitlines():
        if line.strip():
            row = json.loads(line)
            if row.get("level") == level:
                out[row["seed"]] = row
    return out


class JsPlayer:
    """JSMinesweeper's solver in one node process (started at the first board), one board at a time."""

    def __init__(self, jsms: Path, level: Level, cache: Path | None) -> None:
        node = shutil.which("node")
        if node is None:
            raise SystemExit("error: node is not on PATH (JSMinesweeper runs under node v18 or later)")
        self.level = level
        self.proc = subprocess.Popen([node, str(DRIVER), str(jsms)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, bufsize=1)
        self.sink = cache.open("a") if cache is not None else None

    def ask(self, board: dict[str, Any], prefix: list[list[int]] | None = None) -> dict[str, Any]:
        """The driver's result line for one board, played from the start or, with `prefix`,
        on from the position after opening those cells (not cached)."""
        stdin, stdout = self.proc.stdin, self.proc.stdout
        assert stdin is not None and stdout is not None
        line = {k: board[k] for k in ("seed", "rows", "cols", "mines", "first", "first_value")}
        stdin.write(json.dumps(line if prefix is None else {**line, "prefix": prefix}) + "\n")
        stdin.flush()
        answer = stdout.readline()  # one board at a time: the pipe never fills
        if not answer:
            raise SystemExit(f"error: the JSMinesweeper driver stopped (exit {self.proc.wait()}) on seed {board['seed']}")
        result: dict[str, Any] = json.loads(answer)
        return result

    def play(self, board: dict[str, Any]) -> dict[str, Any]:
        """JSMinesweeper's result on one board (appended to the cache)."""
        result = self.ask(board)
        row = {"level": self.level.name, "seed": board["seed"], "hash": board["hash"]}
        row.update({key: result[key] for key in ("won", "cpu", "guesses")})
        if self.sink is not None:
            self.sink.write(json.dumps(row) + "\n")
            self.sink.flush()
        return row

    def close(self) -> None:
        if self.proc.stdin is not None:
            self.proc.stdin.close()
        self.proc.wait()
        if self.sink is not None:
            self.sink.close()


def summary(name: str, wins: list[bool], cpu: float, guesses: float) -> dict[str, Any]:
    games = len(wins)
    won = sum(wins)
    low, high = wilson_interval(won, games)
    return {
        "player": name,
        "games": games,
        "wins": won,
        "win_rate": won / games,
        "ci95": [low, high],
        "guesses_per_game": guesses / games,
        "cpu_seconds": cpu,
        "games_per_cpu_second": games / cpu if cpu > 0 else 0.0,
    }


def against(mine: list[dict[str, Any]], path: Path, level: str) -> dict[str, Any]:
    """This agent's results paired with an earlier agent's (`--agent-results` of that run) on the boards both played."""
    earlier = load_cache(path, level)
    pairs = [(row["won"], earlier[row["seed"]]["won"]) for row in mine if row["seed"] in earlier]
    if not pairs:
        raise SystemExit(f"error: {path} has none of these boards")
    diff = paired_difference([a for a, _ in pairs], [b for _, b in pairs])
    low, high = diff["ci95"]
    print(
        f"against {path} ({len(pairs)} boards, it won {sum(b for _, b in pairs)}): {diff['difference']:+.2%} "
        f"(95% CI {low:+.2%} to {high:+.2%}), won only by this agent {diff['only_new']}, only by that one {diff['only_baseline']}"
    )
    return {"file": str(path), "boards": len(pairs), **diff}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--jsms", type=Path, help="JSMinesweeper's folder (the one with index.html); needed unless every board is cached")
    parser.add_argument("--level", default="expert", choices=sorted(LEVELS))
    parser.add_argument("--games", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--agent", default="", help="Guesser fields for the agent, KEY=VALUE,...")
    parser.add_argument("--cache", type=Path, help="JSON lines of JSMinesweeper's results per board, read and extended")
    parser.add_argument("--agent-results", type=Path, help="write the agent's results per board here (JSON lines)")
    parser.add_argument("--against", type=Path, help="an earlier --agent-results file: pair this agent with that one too")
    parser.add_argument("--chunk", type=int, default=500, help="boards played by JS, then by the agent, at a time")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    level = LEVELS[args.level]
    seeds = range(args.seed, args.seed + args.games)
    guesser = parse_guesser(args.agent, Guesser())
    print(f"{args.level}, classic rules, first click top-left (safe), boards of seeds {seeds.start}..{seeds.stop - 1}")
    print(f"agent: {guesser}")

    layouts = [layout(level, seed) for seed in seeds]
    cached = load_cache(args.cache, level.name)
    stale = [b["seed"] for b in layouts if b["seed"] in cached and cached[b["seed"]]["hash"] != b["hash"]]
    if stale:
        raise SystemExit(f"error: {args.cache} holds other layouts for seeds {stale[:5]}...: the game's generator changed; use a new cache")
    missing = sum(1 for b in layouts if b["seed"] not in cached)
    if missing and args.jsms is None:
        raise SystemExit(f"error: {missing} boards are not in the cache: give --jsms PATH to play them")
    print(f"JS: {len(layouts) - missing} boards from the cache, {missing} to play; then the agent, {args.chunk} boards at a time", flush=True)
    js_player: JsPlayer | None = None
    agent = Agent("classic", guesser=guesser)
    mine: list[dict[str, Any]] = []
    sink = args.agent_results.open("w") if args.agent_results else None
    started = time.perf_counter()
    try:
        for low in range(0, len(layouts), args.chunk):  # JS then the agent on each chunk: a stopped run leaves both on the same boards
            chunk = layouts[low : low + args.chunk]
            for board in chunk:
                if board["seed"] not in cached:
                    assert args.jsms is not None
                    js_player = js_player or JsPlayer(args.jsms, level, args.cache)
                    cached[board["seed"]] = js_player.play(board)
            for board in chunk:
                before = time.process_time()
                result = play_reference(level, board["seed"], "classic", agent)
                row = {"level": level.name, "seed": board["seed"], "won": result.won, "cpu": time.process_time() - before, "guesses": result.guesses}
                mine.append(row)
                if sink is not None:
                    sink.write(json.dumps(row) + "\n")
                    sink.flush()
            done = len(mine)
            print(
                f"  {done}/{len(layouts)} boards: agent {sum(r['won'] for r in mine)} won, "
                f"JS {sum(cached[s]['won'] for s in seeds[:done])} won, {time.perf_counter() - started:.0f} s",
                flush=True,
            )
    finally:
        if js_player is not None:
            js_player.close()
        if sink is not None:
            sink.close()
    js = [cached[seed] for seed in seeds]

    a = [r["won"] for r in mine]
    j = [r["won"] for r in js]
    sides = [
        summary("agent", a, sum(r["cpu"] for r in mine), sum(r["guesses"] for r in mine)),
        summary("JS", j, sum(r["cpu"] for r in js), sum(r["guesses"] for r in js)),
    ]
    print()
    for s in sides:
        low, high = s["ci95"]
        print(
            f"{s['player']:>6}: {s['wins']}/{s['games']} won, {s['win_rate']:.2%} (95% Wilson {low:.2%} - {high:.2%}), "
            f"{s['guesses_per_game']:.2f} guesses/game, {s['games_per_cpu_second']:.1f} games per CPU-second"
        )
    table = {
        "both": sum(x and y for x, y in zip(a, j)),
        "agent_only": sum(x and not y for x, y in zip(a, j)),
        "js_only": sum(y and not x for x, y in zip(a, j)),
        "neither": sum(not x and not y for x, y in zip(a, j)),
    }
    diff = paired_difference(a, j)
    low, high = diff["ci95"]
    print(f"paired: both {table['both']}, agent only {table['agent_only']}, JS only {table['js_only']}, neither {table['neither']}")
    print(f"paired difference agent - JS: {diff['difference']:+.2%} (95% CI {low:+.2%} to {high:+.2%})")
    report = {"level": args.level, "seed": args.seed, "games": args.games, "agent": str(guesser), "players": sides, "paired": {**table, **diff}}
    if args.against:
        report["against"] = against(mine, args.against, level.name)
    if args.json:
        args.json.write_text(json.dumps(report, indent=2) + "\n")
        print(f"wrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
