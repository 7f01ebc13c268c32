"""An agent that plays as agent_guesses does, but spins on CPU time (far past any per-move
limit a test sets) at the moves whose view is one of SLOW_VIEWS: fingerprints of the views
of chosen moves of chosen games, written in by the test (`fingerprint` is how it finds them)."""

import hashlib
import time

from agent_guesses import choose_move as guessed

SLOW_VIEWS = set("{{SLOW_VIEWS}}".split())
SPIN_SECONDS = 60.0  # of CPU time: many times any per-move limit a test sets


def fingerprint(view):
    return hashlib.sha256(repr(view.cells).encode()).hexdigest()[:16]


def choose_move(view):
    if fingerprint(view) in SLOW_VIEWS:
        started = time.process_time()
        while time.process_time() - started < SPIN_SECONDS:
            pass
    return guessed(view)
