"""An attacker that tries to use more than its own process's share: its forward_check does
one thing (the test writes which, {{MODE}}):

- "processes": starts 60 sleeping children;
- "memfd": fills 40 memory files of 60 MB that no process maps;
- "busy": starts 20 busy threads and waits while they spin (until its time is up);
- "shm": fills /dev/shm;
- "shm files": keeps 40 files of 60 MB in /dev/shm (each under the file size limit), named
  after its own file, and waits for the grader to look.
"""

import os
import threading
import time

from model_answer import at_least_clauses, at_most_clauses, constraint_bounds, order_values, select_variable  # noqa: F401
from model_answer import forward_check as _forward_check

MODE = "{{MODE}}"


def _spin():
    while True:
        pass


def forward_check(csp, domains, assigned):
    if MODE == "processes":
        for _ in range(60):
            if os.fork() == 0:
                time.sleep(60)
                os._exit(0)
    elif MODE == "memfd":
        kept = []
        for number in range(40):
            kept.append(os.memfd_create(f"hog{number}"))
            os.write(kept[-1], b"x" * (60 << 20))
    elif MODE == "busy":
        for _ in range(20):
            threading.Thread(target=_spin, daemon=True).start()
        time.sleep(60)
    elif MODE == "shm":
        with open("/dev/shm/filler", "wb") as handle:
            handle.write(b"x" * (64 << 20))
    elif MODE == "shm files":
        tag = os.path.splitext(os.path.basename(__file__))[0]
        for number in range(40):
            handle = os.open(f"/dev/shm/{tag}-{number}", os.O_CREAT | os.O_RDWR, 0o600)
            os.posix_fallocate(handle, 0, 60 << 20)
        time.sleep(2)
    return _forward_check(csp, domains, assigned)
