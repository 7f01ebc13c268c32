"""An attacker that keeps its item's process alive from one item to the next, to carry
what it learnt across items. When the item is done, the fork's last step is `os._exit`;
this file replaces it with its own function, which writes the worker's "ended" line
itself on the descriptor it replies on, then waits for the next item's "task", writes
"began" and serves that item with the worker's own `serve_item`, found on the stack.

Its forward_check is wrong in the first item a process serves ({{LIVES_ON}}: "yes" keeps the
process alive, "no" is the same file without that step): every item is a fresh process,
so both must get the same grade."""

import json
import os
import sys

import model_answer
from model_answer import *  # noqa: F401,F403

LIVES_ON = "{{LIVES_ON}}" == "yes"
served = [0]  # the items this process served before the current one
kept: dict = {}
real_exit = os._exit


def find_the_worker() -> None:
    """Keep serve_item's locals (its answerer, requests and reply) and take over os._exit."""
    if kept:
        return
    frame = sys._getframe(1)
    while frame is not None:
        if frame.f_code.co_name == "serve_item":
            kept.update(frame.f_locals, serve_item=frame.f_globals["serve_item"])
            if LIVES_ON:
                os._exit = live_on
            return
        frame = frame.f_back


def live_on(code: int = 0) -> None:
    replies = int(sys.argv[3])
    os.write(replies, b'{"ended": "exit code 0"}\n')
    for line in kept["requests"]:
        if json.loads(line)["op"] == "task":
            served[0] += 1
            os.write(replies, b'{"began": true}\n')
            kept["serve_item"](kept["answerer"], kept["requests"], kept["reply"])
            os.write(replies, b'{"ended": "exit code 0"}\n')
    real_exit(0)


def constraint_bounds(scope, domains):
    find_the_worker()
    return model_answer.constraint_bounds(scope, domains)


def forward_check(csp, domains, assigned):
    find_the_worker()
    if served[0] == 0:
        raise ValueError("the first item this process serves")
    return model_answer.forward_check(csp, domains, assigned)
