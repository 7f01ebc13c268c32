"""The goal test's cost: `CSP.satisfied_by` against the one-line generator form, same run.

Run from the repository root::

    python bench/satisfied_cost.py [--repeats 30] [--json FILE]

Assignments: for every board of `problems/course.yaml` and `problems/generated-6x6.yaml`,
each solution (what the engine's goal test sees when a search succeeds) and, for each, the
same values with one variable flipped (a goal test that fails). Timed, in one run, taking
turns round by round (CPU time, `time.process_time`, garbage collector off):

- **generator**: `all(sum(values[v] for v in c.scope) == c.total for c in csp.constraints)`,
  the form `CSP.satisfied_by` had while the engine kept a private loop of its own;
- **satisfied_by**: `csp.satisfied_by(values)`, the one goal test, which the engine calls.

Both must agree on every assignment (checked before timing). Printed: the median CPU
seconds of one round over every assignment, and the ratio generator / satisfied_by (above 1:
the method is faster). Compare ratios, not seconds, across machines.
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:  # works uninstalled too; with `pip install -e .` it is the same code
    sys.path.insert(0, str(ROOT))

from answerkey.strategies import REFERENCE  # noqa: E402
from bench.engine_cost import BOARDS, load  # noqa: E402
from solvers.csp import CSP  # noqa: E402
from solvers.engine import search  # noqa: E402

Assignment = tuple[CSP, tuple[int, ...]]


def generator(csp: CSP, values: tuple[int, ...]) -> bool:
    """The goal test as one generator expression."""
    return all(sum(values[v] for v in c.scope) == c.total for c in csp.constraints)


def assignments() -> list[Assignment]:
    """Every solution of every board, and each with its first variable flipped."""
    out: list[Assignment] = []
    for path in BOARDS:
        for _, csp in load(path):
            for solution in search(csp, REFERENCE, "all").solutions:
                out.append((csp, solution))
                out.append((csp, (1 - solution[0], *solution[1:])))
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=30, help="timed rounds (default 30)")
    parser.add_argument("--inner", type=int, default=20, help="passes over every assignment per round (default 20)")
    parser.add_argument("--json", type=Path)
    args = parser.parse_args(argv)
    cases = assignments()
    for csp, values in cases:
        assert generator(csp, values) == csp.satisfied_by(values), "the two goal tests disagree"
    times: dict[str, list[float]] = {"generator": [], "satisfied_by": []}
    for _ in range(args.repeats):
        gc.disable()
        try:
            started = time.process_time()
            for _ in range(args.inner):
                for csp, values in cases:
                    generator(csp, values)
            times["generator"].append((time.process_time() - started) / args.inner)
            started = time.process_time()
            for _ in range(args.inner):
                for csp, values in cases:
                    csp.satisfied_by(values)
            times["satisfied_by"].append((time.process_time() - started) / args.inner)
        finally:
            gc.enable()
    medians = {name: statistics.median(values) for name, values in times.items()}
    ratio = medians["generator"] / medians["satisfied_by"]
    print(f"{len(cases)} assignments ({sum(csp.satisfied_by(v) for csp, v in cases)} solutions), {args.repeats} rounds")
    for name, seconds in medians.items():
        print(f"{name:>14}: {seconds * 1e3:8.3f} ms per pass")
    print(f"generator / satisfied_by: {ratio:.2f}x")
    if args.json:
        args.json.write_text(json.dumps({"assignments": len(cases), "median_seconds": medians, "ratio": ratio}, indent=2) + "\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
