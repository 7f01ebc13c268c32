"""The agent worker: a student's `choose_move`, one move per request, in its own process.

Started by `grader.agentplay.RemoteAgent` as `python -m grader.agent_worker`. The game
itself stays in the grader's process, so the agent only ever sees the visible board:
there is no mine layout here to peek at. The first line on standard input names the
agent ({"agent": path or "reference", "rules": ...}); each further line is a visible
board, answered on GRADER_RESULT_FD with {"move": [action, [row, col]]} or {"error": ...}.
"""

from __future__ import annotations

import contextlib
import json
import sys
from pathlib import Path
from typing import Any, Callable

from play.view import Move, View

from .worker import BoundedOutput, import_file, describe_exception, start


def load_agent(source: str, rules: str) -> Callable[[View], Any]:
    """The agent's choose_move: the reference agent's, or the one defined in a file."""
    if source == "reference":
        from play.agent import Agent

        return Agent(rules).choose_move
    choose_move = getattr(import_file(Path(source), "student_agent"), "choose_move", None)
    if not callable(choose_move):
        raise AttributeError(f"no function named choose_move in {Path(source).name}")
    return choose_move


def answer(choose_move: Callable[[View], Any], request: dict[str, Any], source: str) -> dict[str, Any]:
    """The agent's move for one visible board, as plain data, or why there is none."""
    view = View(request["rows"], request["cols"], request["mines"], tuple(tuple(row) for row in request["cells"]))
    try:
        with contextlib.redirect_stdout(BoundedOutput()), contextlib.redirect_stderr(BoundedOutput()):
            move = choose_move(view)
        if not isinstance(move, Move):
            return {"error": f"choose_move returned {str(move)[:60]!r}, not a Move"}
        return {"move": [str(move.action), [int(move.cell[0]), int(move.cell[1])]]}
    except BaseException as error:  # the agent's own failure: that game is lost, the next goes on
        return {"error": describe_exception(error, source)}


def main() -> None:
    started = start("agent", lambda source, job: load_agent(source, job.get("rules", "classic")))
    if started is None:
        return
    job, report, choose_move = started
    for line in sys.stdin:
        report(answer(choose_move, json.loads(line), job["agent"]))


if __name__ == "__main__":
    main()
