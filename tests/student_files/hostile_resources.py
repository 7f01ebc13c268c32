"""An attacker that uses more than one worker's share through processes it starts: each
of its hooks does one thing (the test writes which, {{MODE}}):

- "memory": forward_check forks 4 children that each fill 350 MB and wait;
- "processes": forward_check starts 60 sleeping children;
- "busy": forward_check starts 20 busy children and waits while they spin (until its time is up);
- "shm": forward_check fills /dev/shm, then writes to /dev.
"""

import os
import time

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, order_values, select_variable  # noqa: F401
from model_answer import forward_check as _forward_check

MODE = "{{MODE}}"
STARTED = []


def _children(count, work):
    for _ in range(count):
        if os.fork() == 0:
            try:
                work()
            finally:
                os._exit(0)


def _fill():
    block = bytearray(350 << 20)
    for index in range(0, len(block), 4096):
        block[index] = 1
    time.sleep(60)


def _spin():
    while True:
        pass


def forward_check(csp, domains, assigned):
    if MODE == "memory" and not STARTED:
        STARTED.append(1)
        _children(4, _fill)
        time.sleep(30)
    elif MODE == "processes" and not STARTED:
        STARTED.append(1)
        _children(60, lambda: time.sleep(60))
        time.sleep(30)
    elif MODE == "busy" and not STARTED:
        STARTED.append(1)
        _children(20, _spin)
        time.sleep(60)
    elif MODE == "shm":
        with open("/dev/shm/filler", "wb") as handle:
            handle.write(b"x" * (64 << 20))
    return _forward_check(csp, domains, assigned)
