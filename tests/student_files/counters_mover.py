"""A student that moves what the machine counts: at the first hook call of each item it
holds 10 sleeping threads, 64 MB of memory written and 16 MB files in /tmp and /dev/shm,
until the item ends (each thread reserves 64 MB of the item's 1 GiB of address space for
its memory); it answers as the model answer. `hold` is also called by
tests/test_trust_counters.py, which moves them in steps (`strong`: 100 threads, 128 MB and
two threads hashing)."""

import hashlib
import os
import threading

from model_answer import at_least_clauses as _at_least_clauses
from model_answer import at_most_clauses as _at_most_clauses
from model_answer import constraint_bounds as _constraint_bounds
from model_answer import forward_check as _forward_check
from model_answer import order_values as _order_values
from model_answer import select_variable as _select_variable

_release, _busy = threading.Event(), threading.Event()
_sleepers, _burners, _memory = [], [], []
_FILES = [f"/tmp/mover-{os.getpid()}", f"/dev/shm/mover-{os.getpid()}"]


def _burn():
    block = bytes(1 << 20)
    while _busy.wait():
        hashlib.sha256(block).digest()


def hold(on, strong=False):
    """Hold everything (`on`) or nothing."""
    if on and not _sleepers:
        threading.stack_size(256 << 10)
        _release.clear()
        _sleepers.extend(threading.Thread(target=_release.wait, daemon=True) for _ in range(100 if strong else 10))
        for thread in _sleepers:
            thread.start()
        _memory.append(b"\x01" * ((128 if strong else 64) << 20))
    elif not on and _sleepers:
        _release.set()
        for thread in _sleepers:
            thread.join()
        _sleepers.clear()
        _memory.clear()
    if strong and not _burners:
        _burners.extend(threading.Thread(target=_burn, daemon=True) for _ in range(2))
        for thread in _burners:
            thread.start()
    _busy.set() if on and strong else _busy.clear()
    for path in _FILES:
        try:
            if on and not os.path.exists(path):
                with open(path, "wb") as handle:
                    handle.write(bytes(16 << 20))
            elif not on and os.path.exists(path):
                os.unlink(path)
        except OSError:
            pass


def constraint_bounds(scope, domains):
    hold(True)
    return _constraint_bounds(scope, domains)


def forward_check(csp, domains, assigned):
    hold(True)
    return _forward_check(csp, domains, assigned)


def select_variable(csp, domains, unassigned):
    hold(True)
    return _select_variable(csp, domains, unassigned)


def order_values(csp, var, domains):
    hold(True)
    return _order_values(csp, var, domains)


def at_least_clauses(lits, k):
    hold(True)
    return _at_least_clauses(lits, k)


def at_most_clauses(lits, k):
    hold(True)
    return _at_most_clauses(lits, k)
