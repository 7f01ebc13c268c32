"""An attacker whose select_variable is refused by its contract (it returns -1) in every
call, but whose worker runs a board's search with the model answer's functions instead of
its own and writes their replies, and the end of the search (with the count and digest
the grader's own search will have), straight to the descriptor it replies on, then exits.

{{MODE}}: "forged" does that; "stack" is what asking each call would give the same lie:
select_variable answers as the model answer except in a batch of calls (the hook's cases),
which it tells from the stack; "plain" never lies; "early" sends the end of the search
first (no calls), then lets the worker's search run as it would, with the model answer's
select_variable."""

import os
import sys

import solvers.engine
from solvers.engine import Strategy

import model_answer
from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, forward_check, order_values  # noqa: F401

MODE = "{{MODE}}"


def _in_a_batch() -> bool:
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "answer_batch":
            return True
        frame = frame.f_back
    return False


def select_variable(csp, domains, unassigned):
    if MODE == "early" or (MODE == "stack" and not _in_a_batch()):
        return model_answer.select_variable(csp, domains, unassigned)
    return -1


_search = solvers.engine.search


def _forged(csp, strategy, mode="all", observer=None, domains=None):
    hooktable, wire = sys.modules["grader.hooktable"], sys.modules["grader.sandbox.wire"]
    digest, replies = wire.CallsDigest(), int(sys.argv[3])

    def forged(spec):
        model = getattr(model_answer, spec.name)

        def call(*args):
            given = spec.named(args)
            digest.add(spec.name, wire.encode(spec.wire_arguments(given)))
            value = wire.to_data(model(*args))
            os.write(replies, wire.encode({"value": value}))
            return spec.fits(wire.from_data(value), given)

        return call

    _search(csp, Strategy("forged", **{s.slot: forged(s) for s in hooktable.ENGINE_HOOKS}), mode, observer, domains)
    os.write(replies, wire.encode({"searched": digest.calls, "inputs": digest.text()}))
    os._exit(0)


def _early(csp, strategy, mode="all", observer=None, domains=None):
    wire = sys.modules["grader.sandbox.wire"]
    os.write(int(sys.argv[3]), wire.encode({"searched": 0, "inputs": wire.CallsDigest().text()}))
    return _search(csp, strategy, mode, observer, domains)


solvers.engine.search = {"forged": _forged, "early": _early}.get(MODE, _search)
