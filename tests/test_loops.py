"""The quick loop starts no process: tests/conftest.py refuses every way of starting one
while a test not marked `slow` runs, and fails that test even if its code caught the error."""

from __future__ import annotations

import multiprocessing
import os
import subprocess
import sys
from collections.abc import Callable

import pytest
from conftest import PROCESSES_TRIED, ProcessStarted

FORK = os.fork  # as the module was imported, before any test ran


WAYS = {
    "subprocess": lambda: subprocess.run(["true"], check=False),
    "os.system": lambda: os.system("true"),
    "os.posix_spawn": lambda: os.waitpid(os.posix_spawn("/bin/true", ["true"], dict(os.environ)), 0),
}


def start_process_each_way(ways: dict[str, Callable[[], object]]) -> dict[str, bool]:
    """Try each way of starting a process; whether each was refused."""
    refused = {}
    for name, start in ways.items():
        try:
            start()
        except ProcessStarted:
            refused[name] = True
        else:
            refused[name] = False
    return refused


def test_a_quick_test_cannot_start_a_process(request: pytest.FixtureRequest) -> None:
    """Each way of starting a process raises ProcessStarted in a quick test (a fork is
    checked without calling it), and the attempts are kept to fail the test."""
    spawned = {"multiprocessing": lambda: multiprocessing.get_context("spawn").Process(target=print).start()}
    assert start_process_each_way(WAYS | spawned) == dict.fromkeys([*WAYS, *spawned], True)
    assert os.fork is not FORK  # refused, so the fork below cannot split this test's process
    with pytest.raises(ProcessStarted, match="not marked slow"):
        os.fork()
    tried = request.node.stash[PROCESSES_TRIED]
    assert {"subprocess._fork_exec", "os.system", "os.posix_spawn", "os.fork"} <= set(tried), tried
    tried.clear()  # this test meant to try: it passes


@pytest.mark.slow
def test_a_slow_test_may_start_processes() -> None:
    """A test marked slow starts processes as usual."""
    assert start_process_each_way(WAYS) == dict.fromkeys(WAYS, False)
    assert subprocess.run([sys.executable, "-c", "print(6 * 7)"], capture_output=True, text=True).stdout == "42\n"
