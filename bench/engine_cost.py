"""The engine's cost per node against a minimal forward-checking DFS, same boards, same run.

Run from the repository root::

    python bench/engine_cost.py [--repeats 30] [--json FILE]

Boards: `problems/course.yaml` and `problems/generated-6x6.yaml` (read with PyYAML here,
so the benchmark does not depend on the grader). Every timed call enumerates ALL
solutions (mode "all") of one board's CSP, built once outside the timing.

Timed, in one run, taking turns call by call (CPU time, `time.process_time`, garbage
collector off during a round):

- **peer**: `peer_solutions` below, a 60-line recursive DFS written for speed: domains
  as a dict of tuples, the same bound rule propagated to a fixpoint from the constraints
  of the variable just set, the same branching rule (MRV over undecided variables, ties
  by degree then lowest number), safe value first; no events, no statistics, no goal
  test (at a fixpoint with every domain a singleton every constraint holds);
- **fc-mrv**: `search(csp, REFERENCE, "all")`, the reference strategy as the answer key
  runs it (`answerkey.fastsearch.search`: its fast path);
- **fc-mrv plain engine**: `solvers.engine.search(csp, REFERENCE, "all")`, the same
  strategy in the plain engine students read;
- **fc-mrv observed**: the same with a no-op observer (what events cost; the answer key
  hands an observed search to the plain engine);
- **handout**: `search(csp, HANDOUT, "all")`, the model answer of the assignment (one
  forward-checking pass, the handout's MRV, which assigns singletons one at a time).

Per board: the median CPU time per call of each, nodes (`stats.popped`; for the peer,
its propagations: the root's and one per child, as the engine forward-checks once per
node popped) and two ratios to the peer: per board (time / the peer's time) and per
node (time per node / the peer's time per node, the issue's "cost per node"). The
summary gives the median and worst of both over the boards, with the targets of issue
14 on the cost per node: fc-mrv within 1.2x, handout within 1.6x; and the plain engine's
time over the fast path's on fc-mrv (same nodes), median and worst over the boards. The handout strategy
pops more nodes than the peer by design (it assigns singletons one at a time), so its
per-board ratio is larger than its per-node one.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too
    sys.path.insert(0, str(ROOT))

from answerkey.fastsearch import search  # noqa: E402
from answerkey.strategies import HANDOUT, REFERENCE  # noqa: E402
from grader.inputs.yamlfile import read_yaml  # noqa: E402
from solvers import engine  # noqa: E402
from solvers.csp import CSP, build_csp  # noqa: E402
from solvers.engine import SearchResult  # noqa: E402
from solvers.textformat import parse_board  # noqa: E402

BOARDS = (ROOT / "problems" / "course.yaml", ROOT / "problems" / "generated-6x6.yaml")
TARGETS = {"fc-mrv": 1.2, "fc-mrv plain engine": None, "fc-mrv observed": None, "handout": 1.6}


def peer_solutions(csp: CSP) -> tuple[list[tuple[int, ...]], int]:
    """Every solution of `csp` by a plain forward-checking DFS, and its nodes (propagations)."""
    scopes = [c.scope for c in csp.constraints]
    totals = [c.total for c in csp.constraints]
    touching = csp.constraints_of
    n = len(csp.cells)
    order = sorted(range(n), key=lambda v: (-len(touching[v]), v))  # MRV ties: degree, number
    solutions: list[tuple[int, ...]] = []
    nodes = 0

    def propagate(domains: dict[int, tuple[int, ...]], queue: list[int]) -> bool:
        nonlocal nodes
        nodes += 1  # one node per propagation, as the engine pops one node per forward check
        queued = set(queue)
        while queue:
            index = queue.pop()
            queued.discard(index)
            low = high = 0
            for var in scopes[index]:
                domain = domains[var]
                low += domain[0]
                high += domain[-1]
            total = totals[index]
            if low > total or high < total:
                return False
            if low == high or low < total < high:
                continue
            value = (0,) if low == total else (1,)
            for var in scopes[index]:
                if len(domains[var]) > 1:
                    domains[var] = value
                    for other in touching[var]:
                        if other not in queued:
                            queued.add(other)
                            queue.append(other)
        return True

    def visit(domains: dict[int, tuple[int, ...]]) -> None:
        var = next((v for v in order if len(domains[v]) > 1), None)
        if var is None:
            solutions.append(tuple(domains[v][0] for v in range(n)))
            return
        for value in (0, 1):
            child = dict(domains)
            child[var] = (value,)
            if propagate(child, list(touching[var])):
                visit(child)

    root = {var: (0, 1) for var in range(n)}
    if propagate(root, list(range(len(scopes)))):
        visit(root)
    return solutions, nodes


def load(path: Path) -> list[tuple[str, CSP]]:
    """(id, CSP) of every problem in a YAML problem file."""
    data, _ = read_yaml(path)  # within the bounds every problem file is read in
    defaults = data.get("defaults", {})
    out = []
    for problem in data["problems"]:
        spec = {**defaults, **problem}
        board = parse_board(spec["board"], spec.get("rule", "classic"), spec.get("mines"))
        out.append((f"{path.stem}/{problem['id']}", build_csp(board)))
    return out


def calls(csp: CSP) -> dict[str, Callable[[], object]]:
    """The peer first, then every engine variant, as calls that enumerate all solutions."""
    return {
        "peer": lambda: peer_solutions(csp),
        "fc-mrv": lambda: search(csp, REFERENCE, "all"),
        "fc-mrv plain engine": lambda: engine.search(csp, REFERENCE, "all"),
        "fc-mrv observed": lambda: search(csp, REFERENCE, "all", observer=lambda event: None),
        "handout": lambda: search(csp, HANDOUT, "all"),
    }


def check(name: str, csp: CSP) -> dict[str, int]:
    """Nodes per method; every method must find the peer's solutions."""
    expected, peer_nodes = peer_solutions(csp)
    nodes = {"peer": peer_nodes}
    for method, run in calls(csp).items():
        if method != "peer":
            result = run()
            assert isinstance(result, SearchResult) and sorted(result.solutions) == sorted(expected), f"{name}: {method} disagrees with the peer"
            nodes[method] = result.stats.popped
    return nodes


def batch(csp: CSP, repeats: int, inner: int) -> dict[str, float]:
    """Median CPU seconds per call of each method: rounds of `inner` calls, the methods taking turns."""
    runs = calls(csp)
    times: dict[str, list[float]] = {name: [] for name in runs}
    for _ in range(repeats):
        gc.disable()
        try:
            for name, call in runs.items():
                started = time.process_time()
                for _ in range(inner):
                    call()
                times[name].append((time.process_time() - started) / inner)
        finally:
            gc.enable()
    return {name: statistics.median(values) for name, values in times.items()}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30, help="timed rounds per board (default 30)")
    parser.add_argument("--inner", type=int, default=10, help="calls per timed round (default 10)")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the figures as JSON")
    args = parser.parse_args(argv)
    if args.repeats < 1 or args.inner < 1:
        parser.error("--repeats and --inner must be at least 1")
    rows = []
    methods = list(calls(build_csp(parse_board("? 1 ?"))))
    print(f"{'board':<26}" + "".join(f"{m:>30}" for m in methods))
    print(f"{'':<26}" + f"{'ms nodes board node':>30}" * len(methods))
    for path in BOARDS:
        for name, csp in load(path):
            nodes = check(name, csp)
            seconds = batch(csp, args.repeats, args.inner)
            ratio = {m: seconds[m] / seconds["peer"] for m in methods}
            per_node = {m: ratio[m] * nodes["peer"] / nodes[m] for m in methods}
            rows.append({"board": name, "nodes": nodes, "seconds": seconds, "ratio": ratio, "per_node_ratio": per_node})
            cells = "".join(f"{seconds[m] * 1e3:>9.3f} {nodes[m]:>5} {ratio[m]:>6.2f}x {per_node[m]:>5.2f}x" for m in methods)
            print(f"{name:<26}{cells}")
    summary = {}
    for method, target in TARGETS.items():
        board = [row["ratio"][method] for row in rows]
        node = [row["per_node_ratio"][method] for row in rows]
        summary[method] = {
            "median_ratio": statistics.median(board),
            "worst_ratio": max(board),
            "median_per_node_ratio": statistics.median(node),
            "worst_per_node_ratio": max(node),
            "target": target,
        }
        verdict = "" if target is None else f"; target {target}x per node: {'met' if statistics.median(node) <= target else 'MISSED'}"
        print(
            f"{method} / peer over {len(rows)} boards: per node median {statistics.median(node):.2f}x (worst {max(node):.2f}x), "
            f"per board median {statistics.median(board):.2f}x (worst {max(board):.2f}x){verdict}"
        )
    plain = [row["seconds"]["fc-mrv plain engine"] / row["seconds"]["fc-mrv"] for row in rows]  # same nodes: per board = per node
    summary["plain engine / fast path"] = {"median_ratio": statistics.median(plain), "worst_ratio": max(plain)}
    print(f"fc-mrv plain engine / fc-mrv (fast path) over {len(rows)} boards: median {statistics.median(plain):.2f}x (worst {max(plain):.2f}x)")
    if args.json:
        args.json.write_text(json.dumps({"rows": rows, "summary": summary}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
