"""Search traces: the engine's events as plain data, explained with the bound rule.

A trace is a list of steps, one per popped node, each a dict that JSON can carry (so a
trace recorded in the grader's worker process can be rendered in the grader):

    {"step", "depth", "assignment": [[var, value], ...], "domains": "??10-...",
     "after": "??10-..." | None,        # domains after forward checking (None: it returned None,
                                         # or the node stopped before it answered)
     "outcome": "branch" | "dead-end" | "solution" | "stopped",
     "dead_end": "forward-check" | "empty-domain" | "goal-test",  # with "dead-end": why
     "var": int, "values": [...],        # with "branch": the variable and the value order
     "solution": [values...],            # with "solution"
     "error": str}                       # with "stopped": the hook that failed, and how

`domains` is every variable's domain when the node is popped (assigned variables as
1-tuples), one character per variable in order (`DOMAIN_CODES`: "?" undecided, "0" or "1"
one value left, "-" none): encoded once, as the engine reports them, and cheap to keep,
compare and send (a 16x16 board's 10,000 steps would otherwise be 5 million small lists;
`domains_of` reads them back). A step is "stopped" when a hook failed at that node (the
grader marks it: `stop_at_last_step`). Rendering lives in `solvers.trace_view`; explanations by the bound
rule (the model answer's reasoning) in `answerkey.explain`.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from .csp import CSP, Domains
from .engine import Branched, DeadEnd, Event, Mode, Popped, Pruned, Solved, Strategy, search

Step = dict[str, Any]
Only = Literal["all", "dead-ends", "solutions"]


class TraceLimit(Exception):
    """Raised by the recorder to stop a search after its last wanted step."""


#: A domain's character in a step's domains (the engine's domains are sorted subsets of (0, 1)).
DOMAIN_CODES: dict[tuple[int, ...], str] = {(0, 1): "?", (0,): "0", (1,): "1", (): "-"}
#: The domain of each character.
DOMAIN_OF_CODE = {code: domain for domain, code in DOMAIN_CODES.items()}


def domains_data(domains: Domains) -> str:
    """Domains as a step keeps them, one character per variable 0, 1, ... (`domains_of`
    reads them back)."""
    return "".join([DOMAIN_CODES[domains[var]] for var in range(len(domains))])


@dataclass
class Recorder:
    """An engine observer that keeps every step as plain data (up to `max_steps`)."""

    max_steps: int | None = None
    steps: list[Step] = field(default_factory=list)

    def __call__(self, event: Event) -> None:
        if isinstance(event, Popped):
            if self.max_steps is not None and len(self.steps) >= self.max_steps:
                raise TraceLimit
            node = event.node
            self.steps.append(
                {
                    "step": event.step,
                    "depth": node.depth,
                    "assignment": list(map(list, node.assignment)),
                    "domains": domains_data(node.view()),
                    "after": None,
                    "outcome": "dead-end",
                }
            )
            return
        step = self.steps[-1]
        if isinstance(event, Pruned):
            step["after"] = domains_data(event.after)
        elif isinstance(event, Branched):
            step.update(outcome="branch", var=event.variable, values=list(event.values))
        elif isinstance(event, Solved):
            step.update(outcome="solution", solution=list(event.values))
        elif isinstance(event, DeadEnd):
            step["dead_end"] = event.cause
        if step["after"] is None and not (isinstance(event, DeadEnd) and event.cause == "forward-check"):
            step["after"] = step["domains"]  # the forward check answered, and pruned nothing


def stop_at_last_step(steps: list[Step], error: str) -> None:
    """Mark the last step as the node where the search stopped because a hook failed
    (`error` says which and how): nothing was decided there."""
    if steps:
        steps[-1].update(outcome="stopped", error=error)
        steps[-1].pop("dead_end", None)


@dataclass
class Trace:
    """The steps of one search, whether it was cut short, and its totals."""

    steps: list[Step]
    complete: bool
    seconds: float

    def summary(self) -> dict[str, Any]:
        return {
            "nodes": len(self.steps),
            "dead_ends": sum(s["outcome"] == "dead-end" for s in self.steps),
            "solutions": sum(s["outcome"] == "solution" for s in self.steps),
            "max_depth": max((s["depth"] for s in self.steps), default=0),
            "seconds": self.seconds,
            "complete": self.complete,
        }


def record(csp: CSP, strategy: Strategy, mode: Mode = "all", max_steps: int | None = None) -> Trace:
    """Run the engine and keep its steps (stopping after `max_steps` pops)."""
    recorder = Recorder(max_steps)
    started = time.perf_counter()
    try:
        search(csp, strategy, mode, recorder)
        complete = True
    except TraceLimit:
        complete = False
    return Trace(recorder.steps, complete, time.perf_counter() - started)


def domains_of(data: str) -> Domains:
    """Domains from a step's plain data: every reader of a step's domains as a dict goes
    through here."""
    return dict(enumerate(map(DOMAIN_OF_CODE.__getitem__, data)))


def step_domains(step: Step) -> tuple[Domains, Domains | None]:
    """A step's domains when popped and after forward checking (None: the check returned
    None, or never answered)."""
    after = step["after"]
    return domains_of(step["domains"]), domains_of(after) if after is not None else None


def differing(before: str, after: str, width: int = 32) -> list[int]:
    """The positions where two strings of the same length differ, in order: compared a
    slice of `width` at a time, so equal stretches cost no Python loop."""
    if before == after:
        return []
    found = []
    for start in range(0, len(after), width):
        end = start + width
        if before[start:end] != after[start:end]:
            found += [start + i for i, (a, b) in enumerate(zip(before[start:end], after[start:end])) if a != b]
    return found


def narrowed(step: Step) -> list[int]:
    """The variables whose domain the forward check changed at this step, in order (none
    when it returned None, or never answered)."""
    after = step["after"]
    return [] if after is None else differing(step["domains"], after)


@dataclass(frozen=True)
class TraceOptions:
    """How much of a trace to show."""

    only: Only = "all"
    compact: bool = False
    tree: bool = False


EXPORT_SUFFIXES = (".svg", ".html", ".txt")


STEP_FILTERS: tuple[Only, ...] = ("all", "dead-ends", "solutions")


def step_filter(text: str) -> Only | None:
    """`text` (an --only) as the steps of a trace to show, or None when it names none."""
    return next((name for name in STEP_FILTERS if name == text), None)


def add_trace_arguments(parser: argparse.ArgumentParser, only: bool = True) -> None:
    """The options every trace command shares (grader and solvers); `only=False` leaves
    out --only, for a command whose own --only also picks the steps of a trace."""
    group = parser.add_argument_group("traces")
    group.add_argument("--max-steps", type=positive_steps, default=200, metavar="N", help="stop after N popped nodes (default 200)")
    if only:
        group.add_argument("--only", choices=STEP_FILTERS, default="all", help="show only these steps")
    group.add_argument("--compact", action="store_true", help="one line per node")
    group.add_argument("--tree", action="store_true", help="the search as a tree")
    group.add_argument("--export", type=Path, metavar="FILE", help="also write the trace to FILE (.svg, .html or .txt)")


def export_error(path: Path | None) -> str | None:
    """Why `path` cannot be an export target, or None."""
    if path is not None and path.suffix not in EXPORT_SUFFIXES:
        return f"--export {path}: the file must end in {', '.join(EXPORT_SUFFIXES)}"
    if path is not None and not path.resolve().parent.is_dir():
        return f"--export {path}: the folder {path.resolve().parent} does not exist"
    return None


def positive_steps(text: str) -> int:
    """argparse type for --max-steps: a whole number of at least 1."""
    value = int(text)
    if value < 1:
        raise argparse.ArgumentTypeError("must be at least 1")
    return value
