"""Grading a playing agent: seeded games played here, the agent's moves asked of a worker.

The `Game` (and so the mine layout) never enters the process that runs student code:
`RemoteAgent` sends each visible board to `grader.agent_worker` and reads back one move.
A crash, an illegal move or a move that takes too long loses that game; the agent's
worker is restarted for the next one, within the time budget for all the games.
"""

from __future__ import annotations

import time
from typing import Any

from play.evaluate import AgentFailure, evaluate_agent
from play.view import Move, View

from .config import AgentGrading
from .sandbox import Limits, _Worker

MOVE_TIMEOUT = 10.0  # seconds for one move


class RemoteAgent:
    """A `choose_move` callable whose agent runs in a sandboxed worker process."""

    def __init__(self, source: str, rules: str, limits: Limits, budget: float):
        self.source, self.rules, self.limits = source, rules, limits
        self.deadline = time.monotonic() + budget
        self.worker: _Worker | None = None
        self.load_error: str | None = None

    def _start(self) -> _Worker:
        if self.load_error:
            raise AgentFailure(self.load_error)
        worker = _Worker("grader.agent_worker", {"agent": self.source, "rules": self.rules}, self.limits, interactive=True)
        ready = worker.next_report(max(self.limits.min_load_seconds, MOVE_TIMEOUT))
        if isinstance(ready, dict) and ready.get("ready"):
            return worker
        how, _ = worker.stop(grace=1.0)
        self.load_error = ready.get("message") if isinstance(ready, dict) else f"the agent did not load ({ready}, {how})"
        raise AgentFailure(self.load_error)

    def __call__(self, view: View) -> Move:
        left = self.deadline - time.monotonic()
        if left <= 0:
            raise AgentFailure("out of time: the time allowed for all the games is used up")
        self.worker = self.worker or self._start()
        request = {"rows": view.rows, "cols": view.cols, "mines": view.mines, "cells": view.cells}
        report = self.worker.next_report(min(left, MOVE_TIMEOUT)) if self.worker.send(request) else "eof"
        if isinstance(report, dict) and "move" in report:
            action, cell = report["move"]
            return Move(action, tuple(cell))
        if isinstance(report, dict):
            raise AgentFailure(report.get("error", "the agent gave no move"))
        how, _ = self.worker.stop(grace=0.0 if report == "timeout" else 1.0)
        self.worker = None
        raise AgentFailure(f"no move within {min(left, MOVE_TIMEOUT):g} s" if report == "timeout"
                           else f"the agent's process ended ({how})")

    def close(self) -> None:
        if self.worker is not None:
            self.worker.stop()
            self.worker = None


def play_agent_games(source: str, grading: AgentGrading, limits: Limits) -> dict[str, Any]:
    """Play the configured seeded games with the agent in `source`; an outcome like run_items'."""
    started = time.perf_counter()
    agent = RemoteAgent(source, grading.rules, limits, grading.timeout)
    try:
        result = evaluate_agent(agent, grading.level, grading.games, grading.seed, grading.rules)
    finally:
        agent.close()
    return {"status": "ok", "result": result, "seconds": time.perf_counter() - started}
