"""An honest student who uses a thread: on the first call of an item, constraint_bounds
does about 1 s of real work in a thread and waits for it (join), well inside the limit.
While it waits, its main thread is asleep but the process is not: on a busy machine the
wait for a core must not be charged as sleeping."""

import threading
import time

from model_answer import at_least_clauses, at_most_clauses, forward_check, select_variable  # noqa: F401
from model_answer import constraint_bounds as _constraint_bounds
from model_answer import order_values  # noqa: F401

_WARMED = []


def _work(seconds=1.0):
    start = time.thread_time()
    while time.thread_time() - start < seconds:
        pass


def constraint_bounds(scope, domains):
    if not _WARMED:
        _WARMED.append(True)
        worker = threading.Thread(target=_work)
        worker.start()
        worker.join()
    return _constraint_bounds(scope, domains)
