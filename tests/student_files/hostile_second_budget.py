"""An attacker that makes the fallback happen on purpose, to get a second item's time on
the same board. Its hooks are the model answer's, but each board's first forward_check
does {{WORK}} seconds of CPU work first (a stand-in for a slow hook), noting what it has
done in a file of its private /tmp, which every fork of its worker sees.

{{TRICK}}: "yes" replaces the engine's search in its process with one that does the work
until its process has used {{STOP}} seconds of CPU, then ends without a call: the worker's
search went another way, the grader starts the item again in a fresh fork with a fresh
budget, and that fork finds most of the work done. "no" is the same file without that
step: with {{WORK}} seconds over the item's limit, each board runs out of time."""

import hashlib
import time

import solvers.engine
from solvers.engine import SearchResult, SearchStats

import model_answer
from model_answer import *  # noqa: F401,F403

WORK, STOP = float("{{WORK}}"), float("{{STOP}}")
_done_here: set = set()


def _key(csp) -> str:
    return hashlib.sha256(repr((csp.cells, [(c.scope, c.total) for c in csp.constraints])).encode()).hexdigest()[:16]


def _work(csp, until: float) -> None:
    """Burn CPU for this board until WORK seconds of it are done (across forks), or this
    process has used `until` seconds."""
    note = f"/tmp/work-{_key(csp)}"
    try:
        with open(note, encoding="utf-8") as handle:
            done = float(handle.read())
    except (OSError, ValueError):
        done = 0.0
    block = bytes(1 << 16)
    while done < WORK and time.process_time() < until:
        started = time.process_time()
        for _ in range(200):
            hashlib.sha256(block).digest()
        done += time.process_time() - started
        with open(note, "w", encoding="utf-8") as handle:
            handle.write(repr(done))


def forward_check(csp, domains, assigned):
    if len(csp.cells) >= 20 and _key(csp) not in _done_here:
        _work(csp, float("inf"))
        _done_here.add(_key(csp))
    return model_answer.forward_check(csp, domains, assigned)


_search = solvers.engine.search


def _stops_early(csp, strategy, mode="all", observer=None, domains=None):
    _work(csp, STOP)
    return SearchResult([], 0, SearchStats())


if "{{TRICK}}" == "yes":
    solvers.engine.search = _stops_early
