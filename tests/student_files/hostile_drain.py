"""An attacker that acts after the worker's own search of a board has made its last call,
while the grader reads the rest of its replies: its engine's search is the kit's, followed
by {{AFTER}}: "burn" (CPU forever), "sleep" (forever), "exit" (the item's process exits),
"flood" (replies to calls nobody made, without end), "extra" (one reply to a call nobody
made, then the search's end as the worker sends it). Its hooks are the model answer's."""

import os
import sys
import time

import solvers.engine

from model_answer import *  # noqa: F401,F403

_search = solvers.engine.search


def _then(csp, strategy, mode="all", observer=None, domains=None):
    found = _search(csp, strategy, mode, observer, domains)
    after = "{{AFTER}}"
    if after == "burn":
        while True:
            pass
    if after == "sleep":
        time.sleep(10**6)
    if after == "exit":
        os._exit(0)
    if after == "flood":
        while True:
            os.write(int(sys.argv[3]), b'{"value": [0, 1]}\n' * 1000)
    if after == "extra":
        os.write(int(sys.argv[3]), b'{"value": [0, 1]}\n')
    return found


solvers.engine.search = _then
