"""A stop asked by a signal (Ctrl-C, SIGTERM, SIGHUP), and all a signal handler may do.

A Python signal handler runs in the main thread, between two bytecodes of whatever that
thread was doing. It must take no lock: `threading.Lock` is not reentrant, and an Event
or a queue is a lock too, so a handler waiting for one that the frame it interrupted holds
waits forever (a grading process once did, inside `Worker.stop`, holding two user ids).
Nor may it raise just anywhere while workers live: an exception between two bytecodes of
the standard library's waits can leave one of its locks held, or a worker started and not
yet known.

So the handler writes down the first signal's name (one attribute: no lock) and, while
the main thread is `polled` (workers or grading processes may be alive), does nothing
more: the code there checks `asked` at least every `host.POLL_SECONDS` (a wait on
descriptors also watches `wakeup_fd`, which the interpreter writes to the moment a
signal comes) and unwinds from a point of its own choosing (`check`), killing its
workers on the way out. Elsewhere it
raises KeyboardInterrupt at once, as Python does for Ctrl-C. A later signal changes
nothing: the stop is under way, and its cleaning up is not cut short.
"""

from __future__ import annotations

import atexit
import os
import signal
import sys
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from types import FrameType
from typing import NoReturn

SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)


class _Stop:
    """What the handler shares with the main thread: plain attributes, read and written whole."""

    name: str | None = None  # the first signal's name, once one came
    polled = 0  # how deep the main thread is in `polled` blocks
    wakeup: int | None = None  # the read end of the pipe the interpreter writes a byte to on each signal


_STOP = _Stop()


def handle(number: int, frame: FrameType | None) -> None:
    """The handler: takes no lock, and raises only where nothing polls."""
    if _STOP.name is not None:
        return
    _STOP.name = signal.Signals(number).name
    if _STOP.polled == 0:
        raise KeyboardInterrupt(_STOP.name)


def install() -> None:
    """`handle` for SIGINT, SIGTERM and SIGHUP, and the wake-up pipe (in the main thread,
    as Python requires)."""
    if _STOP.wakeup is None:
        read, write = os.pipe()  # not inherited by what we start
        for end in (read, write):
            os.set_blocking(end, False)
        signal.set_wakeup_fd(write, warn_on_full_buffer=False)
        _STOP.wakeup = read
        atexit.register(_ignore_from_here)
    for number in SIGNALS:
        signal.signal(number, handle)


def _ignore_from_here() -> None:
    """At exit, once every other exit handler ran: the signals ignored. Python then puts
    back each handled signal's default action and only after that unloads its modules,
    which takes a while; a signal landing there killed the process by its default action,
    its exit status lost (a class stopped as it ended died by SIGINT). An ignored signal
    keeps being ignored to the end."""
    for number in SIGNALS:
        signal.signal(number, signal.SIG_IGN)


def wakeup_fd() -> int | None:
    """A descriptor that becomes readable when a signal comes (None before `install`): a
    wait on descriptors watches it too, and on waking calls `woken`."""
    return _STOP.wakeup


def woken() -> None:
    """Empty the wake-up pipe (so that a wait does not wake again for a signal that asked no
    stop), then `check`."""
    if _STOP.wakeup is not None:
        try:
            while os.read(_STOP.wakeup, 512):
                pass
        except BlockingIOError:
            pass
    check()


def asked() -> str | None:
    """The name of the signal that asked for a stop, or None."""
    return _STOP.name


def ask(name: str) -> None:
    """Ask for a stop from code (a KeyboardInterrupt not raised by `handle`), unless one was."""
    if _STOP.name is None:
        _STOP.name = name


def exit_status(fallback: str = "SIGINT") -> int:
    """128 + the number of the signal that stopped the run (`fallback` when none was seen)."""
    return 128 + signal.Signals[_STOP.name or fallback].value


def exit_with(status: int) -> NoReturn:
    """`sys.exit(status)` from a program run with `python -m`, its status kept. Such a
    Python (3.11) ends by SIGINT instead, whatever status it exits with, when the last
    code it ran from text (`exec` of a string: a dataclass's methods are made so as it is
    imported) was left by a KeyboardInterrupt, even one caught since: a signal's lands
    there when it comes while a module loads. Text run last without one clears that."""
    exec("")
    sys.exit(status)


def hold() -> None:
    """From here on a signal in the main thread is only written down: the run's work is
    done, and what is left (returning its status, the interpreter's exit) must not end in
    an uncaught KeyboardInterrupt."""
    if threading.current_thread() is threading.main_thread():
        _STOP.polled += 1


def check() -> None:
    """KeyboardInterrupt (the signal's name as its argument) when a stop was asked: called
    where nothing is half done, from any thread."""
    if _STOP.name is not None:
        raise KeyboardInterrupt(_STOP.name)


@contextmanager
def polled() -> Iterator[None]:
    """While the main thread is in this block, a signal is only written down: the block
    calls `check` often enough, or `asked` where it ends. In another thread it changes
    nothing (handlers run in the main thread only)."""
    main = threading.current_thread() is threading.main_thread()
    if main:
        _STOP.polled += 1
    try:
        yield
    finally:
        if main:
            _STOP.polled -= 1


@contextmanager
def unpolled() -> Iterator[None]:
    """Inside a `polled` block, a stretch where nothing of ours is half made (reading a
    class's files, say): a signal raises at once again, and a stop asked before raises
    on entering. In another thread it changes nothing."""
    main = threading.current_thread() is threading.main_thread()
    depth = _STOP.polled
    if main:
        _STOP.polled = 0
    try:
        check()
        yield
    finally:
        if main:
            _STOP.polled = depth
