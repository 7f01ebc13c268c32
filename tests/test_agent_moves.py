"""The agent's moves on their quick road (grader/scoring/agentplay.py: a question written
as one line at once, `Worker.call_line`, its answer read by `wire.read_move_reply`): the
question is the line the wire's encoder writes, every answer is read and checked as any
reply is, so any agent, a forging or a silent one included, gets the grade it gets when
each move is asked through `Hooks`; and an agent that never answers is still stopped by
the per-move limit."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import STUDENT_FILES, Kit, agent_entry, isolation_unavailable, needed

from grader.hooktable import AGENT_NAME, BY_NAME
from grader.inputs.config import AgentGrading
from grader.sandbox.host import Limits
from grader.sandbox.isolation import open_sandbox
from grader.sandbox.tasks import Outcome
from grader.sandbox.wire import encode
from grader.scoring.agentplay import RemoteAgent, move_request, play_agent_games
from grader.scoring.hookcalls import Hooks
from play.game import Game
from play.levels import parse_level
from play.view import HIDDEN, Move, View

GRADING = AgentGrading(games=12, points=4.0, thresholds=((0.5, 1.0),))


def views(level: str, seed: int) -> list[View]:
    """The views of one game played by opening, then flagging, the first hidden cells."""
    game = Game(parse_level(level, "classic"), "classic", seed)
    seen = []
    while not game.over and len(seen) < 40:
        seen.append(game.view())
        hidden = [cell for cell in seen[-1].all_cells() if seen[-1][cell] == HIDDEN]
        game.apply(Move("flag" if len(seen) % 3 == 0 else "open", hidden[len(seen) % len(hidden)]))
    return seen


@pytest.mark.parametrize("level", ["beginner", "intermediate", "expert"])
def test_a_move_question_is_the_line_the_wire_encodes(level: str) -> None:
    """Hidden, flagged and revealed cells, on every level's board: the line written at once
    is byte for byte what `wire.encode` writes for the call through the hook table."""
    spec = BY_NAME[AGENT_NAME]
    for seed in range(3):
        for view in views(level, seed):
            assert move_request(view) == encode({"op": "call", "hook": AGENT_NAME, "args": spec.wire_arguments(spec.named((view,)))})


def played(name: str, monkeypatch: pytest.MonkeyPatch, through_hooks: bool) -> Outcome:
    """The public default games of STUDENT_FILES/NAME.py as the grader plays them under
    bwrap: on the quick road, or each move asked through `Hooks` (call, encode, read_reply)."""
    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    if through_hooks:

        def ask(agent: RemoteAgent, view: View) -> Move:
            assert agent.asker is not None
            return Hooks(agent.asker, agent.move_limit).choose_move(view)

        monkeypatch.setattr(RemoteAgent, "_ask", ask)
    sandbox = open_sandbox("bwrap", [], workers=1)
    try:
        return play_agent_games(str(STUDENT_FILES / f"{name}.py"), GRADING, 0, Limits(), sandbox, "file")
    finally:
        sandbox.close()
        monkeypatch.undo()


@pytest.mark.slow  # a sandbox, twice
@pytest.mark.parametrize("name", ["agent_forges_quick", "agent_forges", "agent_raises", "agent_prints", "agent_crash", "agent_guesses"])
def test_every_agent_gets_on_the_quick_road_the_grade_of_asking_through_the_hooks(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """Forged replies in the worker's own form and in near misses of it (a number past the
    bound, a leading zero, no action, a cell off the board), forged replies in another
    spacing, exceptions, illegal moves, printing, a crash and honest play: the same games
    won and lost the same way, the same output kept."""
    quick, hooks = played(name, monkeypatch, False), played(name, monkeypatch, True)
    assert quick.ok and hooks.ok, (quick.reason, hooks.reason)
    assert quick.answered == hooks.answered and quick.output == hooks.output
    if name == "agent_forges_quick":  # each forged form did its part
        lost = quick.answered.lost
        assert "illegal move" in lost and "the worker sent" in lost, lost


@pytest.mark.slow  # the grader, run
def test_an_agent_that_waits_on_the_graders_questions_is_stopped_by_the_move_limit(kit: Kit, tmp_path: Path) -> None:
    """An agent that reads the worker's standard input (the grader's questions) at the
    first move of every game waits for good: each game is lost to the per-move limit, and
    play goes on, under bwrap and under user isolation."""
    entry = agent_entry(kit, tmp_path, STUDENT_FILES / "agent_reads_requests.py", 3)
    assert entry["message"].startswith("won 0/3 beginner games: all lost at move 1: a move took more than 0.5 s"), entry["message"]


@pytest.mark.slow  # a sandbox, workers started and crashed
def test_the_worker_runs_on_the_core_of_the_thread_that_asks_it_and_the_thread_gets_its_cores_back() -> None:
    """While the games last, each worker (a fresh one for every game here: the agent
    crashes its process at the second move) and the grader's thread that asks it are kept
    on one core, the same for all (a hint to the scheduler, which the worker may not
    undo); when the games end, the thread may run anywhere it could before."""
    import os

    from grader.scoring.agentplay import play_games

    needed("--isolation bwrap", isolation_unavailable("bwrap"))
    before = os.sched_getaffinity(0)
    if len(before) < 2:
        pytest.skip("this process may run on one core only: there is no other core to keep off")
    sandbox = open_sandbox("bwrap", [], workers=1)
    agent = RemoteAgent(str(STUDENT_FILES / "agent_tells_cores.py"), "classic", Limits(), 60.0, 10.0, sandbox, "file")
    asked_on: list[set[int]] = []

    def asking(view: View) -> Move:
        move = agent(view)
        asked_on.append(os.sched_getaffinity(0))
        return move

    try:
        games = play_games(asking, AgentGrading(games=3), 0)
    finally:
        agent.end()
        sandbox.close()
    assert [game.cause for game in games] == ["crashed"] * 3
    assert len(asked_on) == 3 and len({frozenset(cores) for cores in asked_on}) == 1 and len(asked_on[0]) == 1
    assert agent.printed == f"cores {sorted(asked_on[0])}\nrefused\n" * 3  # each worker on the thread's core, and kept there
    assert os.sched_getaffinity(0) == before


def test_a_worker_the_kernel_does_not_take_leaves_the_thread_where_it_was() -> None:
    """A worker whose processes the kernel does not all move (one gone, a core it may not
    use) keeps the thread where it was; one taken moves the thread to the same core, until
    `end` gives the thread its cores back."""
    import os

    from grader.sandbox.cores import SharedCore, keep_on

    before = os.sched_getaffinity(0)
    assert not keep_on([2**22 + 1], {0})  # no process has that id (past the kernel's most)
    shared = SharedCore()
    shared.join(lambda cores: False)
    assert os.sched_getaffinity(0) == before and shared.core is None
    taken: list[set[int]] = []
    shared.join(lambda cores: taken.append(cores) is None)
    try:
        assert len(taken[0]) == 1 and os.sched_getaffinity(0) == taken[0]
        shared.join(lambda cores: taken.append(cores) is None)  # a second worker: the same core
        assert taken[1] == taken[0]
    finally:
        shared.end()
    assert os.sched_getaffinity(0) == before
