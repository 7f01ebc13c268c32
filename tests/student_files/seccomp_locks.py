"""A student whose grade would depend on who else is being graded: at the first hook call of
each item it locks a file every worker can read (the standard library's os.py: `flock`,
and an fcntl record lock) and keeps the locks until the item ends; every call of an item
that found either lock held by another process fails. The hooks are the model answer's, so
with locks refused (EPERM) it gets full marks whatever runs beside it."""

import fcntl
import os
import struct
import time

from model_answer import at_least_clauses, at_most_clauses  # noqa: F401
from model_answer import constraint_bounds as _constraint_bounds
from model_answer import forward_check as _forward_check
from model_answer import order_values as _order_values
from model_answer import select_variable as _select_variable

_ITEM = []  # [held by another process?], once per item (every item is a fresh process)


def _held_elsewhere():
    """Take the locks if free and keep them; whether another process held one."""
    if not _ITEM:
        fd = os.open(os.__file__, os.O_RDONLY)
        held = False
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            held = True
        except PermissionError:
            pass
        try:  # would a write lock conflict with another process's record lock?
            asked = fcntl.fcntl(fd, fcntl.F_GETLK, struct.pack("hhqqi", fcntl.F_WRLCK, 0, 0, 0, 0))
            held = held or struct.unpack("hhqqi", asked[:struct.calcsize("hhqqi")])[0] != fcntl.F_UNLCK
            fcntl.lockf(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except PermissionError:
            pass
        _ITEM.append(held)
        time.sleep(0.3)  # hold them a while: items graded beside this one overlap it
    return _ITEM[0]


def _checked(hook):
    def call(*args):
        if _held_elsewhere():
            raise RuntimeError("another worker holds the lock")
        return hook(*args)
    return call


constraint_bounds = _checked(_constraint_bounds)
forward_check = _checked(_forward_check)
select_variable = _checked(_select_variable)
order_values = _checked(_order_values)
