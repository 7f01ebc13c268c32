"""A board's search run by the worker too (`wire`: "search"): the worker's copy of the
engine asks the student's functions and replies to each call as it goes, and the grader
keeps what its own search found only when both made the same calls, in order. It must
grade exactly as asking each call does, and a worker whose search goes another way (its
engine replaced, its replies forged) must cost the student nothing it would not cost
asked call by call.

In-process for the two sides' conventions (the digest of the calls, the replies' format);
through the real CLI under `bwrap` and `user` for stateful hooks graded both ways, and for
attackers: a search parted on purpose (no second budget), forged replies and ends of a
search, and a worker acting after its search's last call.
"""

from __future__ import annotations

import json
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from conftest import Kit, attacker, entries

from grader.hooktable import ENGINE_HOOKS
from grader.reference import reference_strategies
from grader.sandbox.child import Answerer, search_board
from grader.sandbox.wire import (
    Answer,
    BadMessage,
    CallsDigest,
    Raised,
    Reply,
    Searched,
    encode,
    from_data,
    read_reply,
    read_search_reply,
    reply_message,
)
from grader.scoring.hookcalls import Hooks, LocalAsker, board_request
from solvers.csp import build_csp
from solvers.engine import search
from solvers.textformat import parse_board

BOARD = parse_board("1?1?\n?2?1\n1??1\n?1?1")


def model_functions() -> dict[str, Any]:
    strategy = reference_strategies().HANDOUT
    return {spec.name: getattr(strategy, spec.slot) for spec in ENGINE_HOOKS}


class Digesting(LocalAsker):
    """The reference asked call by call, each call digested as the grader digests the
    calls of a search the worker runs (`host.Worker.call`)."""

    def __init__(self, functions: dict[str, Any]):
        super().__init__(functions)
        self.digest = CallsDigest()

    def call(self, hook: str, args: dict[str, Any], limit: float | None = None) -> Any:
        self.digest.add(hook, encode(args))
        return super().call(hook, args, limit)


def worker_search(functions: dict[str, Any]) -> list[Reply]:
    """What the worker replies to a "search" of BOARD with these functions."""
    replies: list[Reply] = []
    search_board(Answerer(SimpleNamespace(**functions), Path("hooks.py")), {**board_request(BOARD), "op": "search"}, replies.append)  # type: ignore[arg-type]
    return replies


def test_the_worker_replies_to_every_call_of_the_graders_search_and_digests_them_alike() -> None:
    """One reply per call the grader's own search makes, each the answer asking it gives,
    then the count and a digest equal to the grader's of its own calls."""
    asker = Digesting(model_functions())
    hooks = Hooks(asker)
    hooks.use_board(BOARD)
    answered: list[Any] = []
    asked = hooks.ask

    def noted(hook: str, *args: Any) -> Any:
        answered.append(asked(hook, *args))
        return answered[-1]

    hooks.ask = noted  # type: ignore[method-assign]
    search(build_csp(BOARD), hooks.strategy(), "all")
    *calls, end = worker_search(model_functions())
    assert end == Searched(asker.digest.calls, asker.digest.text()) and len(calls) == asker.digest.calls > 10
    assert [from_data(reply.value) for reply in calls if isinstance(reply, Answer)] == answered


def test_the_worker_stops_where_the_graders_search_stops() -> None:
    """A raise, and an answer the contract refuses, end the grader's search at that call:
    the worker's replies end there too, and its count says so."""
    functions = model_functions()
    calls = [0]

    def raises_on_the_second(csp: Any, var: int, domains: Any) -> Any:
        calls[0] += 1
        if calls[0] == 2:
            raise ValueError("no")
        return functions["order_values"](csp, var, domains)

    *answered, end = worker_search({**functions, "order_values": raises_on_the_second})
    assert isinstance(answered[-1], Raised) and isinstance(end, Searched) and end.calls == len(answered)
    assert sum(1 for reply in answered if isinstance(reply, Raised)) == 1
    *answered, end = worker_search({**functions, "select_variable": lambda csp, domains, unassigned: 999})
    assert isinstance(end, Searched) and end.calls == len(answered) == 2  # the root's forward check, then the refused choice


def test_the_end_of_a_search_is_read_only_where_one_is_awaited() -> None:
    """Searched is read back as written; a malformed one, or one where a call's reply is
    awaited (`read_reply`), is a bad message."""
    line = encode(reply_message(Searched(12, "0" * 32)))[:-1]
    assert read_search_reply(line) == Searched(12, "0" * 32)
    assert read_search_reply(b'{"value":[1,2]}') == Answer([1, 2])
    zeros = b"0" * 32
    for bad in (b'{"searched":-1,"inputs":"' + zeros + b'"}', b'{"searched":1,"inputs":"zz"}', b'{"searched":true,"inputs":"' + zeros + b'"}'):
        with pytest.raises(BadMessage):
            read_search_reply(bad)
    with pytest.raises(BadMessage):
        read_reply(line)


def test_digests_tell_calls_apart_by_hook_arguments_and_order() -> None:
    def digest(*calls: tuple[str, dict[str, Any]]) -> str:
        found = CallsDigest()
        for hook, args in calls:
            found.add(hook, encode(args))
        return found.text()

    a, b = ("order_values", {"var": 1}), ("order_values", {"var": 2})
    assert digest(a, b) == digest(a, b)
    assert len({digest(a, b), digest(b, a), digest(a), digest(("select_variable", {"var": 1}), b)}) == 4


def graded(kit: Kit, tmp_path: Path, how: str) -> dict[str, tuple[str, float, Any, str]]:
    student = attacker(tmp_path / how, "stateful_searches", SEARCH=how)
    out = tmp_path / f"{how}.json"
    result = kit.run(kit.course, "--solver", student, "--json", out, "--timeout", "5", "--jobs", "1")
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    found = entries(json.loads(out.read_text(encoding="utf-8")))
    mine = str(student.parent)  # named in the commands that show a call again
    return {name: (item["status"], item["score"], item.get("nodes"), item["message"].replace(mine, "FOLDER")) for name, item in found.items()}


@pytest.mark.parametrize("how", ["none", "other"])
def test_a_search_the_worker_runs_grades_as_asking_each_call(kit: Kit, tmp_path: Path, how: str) -> None:
    """Hooks whose answers hang on the calls before them and on each input: graded from
    the worker's own searches ("kept"), and asked call by call because the worker's
    searches went another way (its engine replaced), every item gets the same status,
    score, node count and message."""
    kept, asked = graded(kit, tmp_path, "kept"), graded(kit, tmp_path, how)
    assert kept == asked
    for hook in ("select_variable", "order_values"):  # what they did in the searches counts against them
        assert kept[hook][0] == "fail" and "in the grader's searches" in kept[hook][3] and "FOLDER" in kept[hook][3], kept[hook]


@pytest.mark.slow  # two gradings, each board taking seconds of CPU
def test_a_search_parted_on_purpose_gets_no_second_budget(kit: Kit, tmp_path: Path) -> None:
    """A worker whose search goes another way on purpose makes the item start again in a
    fresh process: its first process's time stays the item's. Hooks that need 2.6 s of
    CPU on each board (the work noted in the worker's /tmp as it goes, which every fork
    sees) run out of the 2 s limit; ending the worker's search after 1.3 s of that work,
    to have the rest done in the fresh process, must not make them fit."""

    def problems(trick: str) -> dict[str, tuple[str, float, str]]:
        student = attacker(tmp_path / trick, "hostile_second_budget", TRICK=trick, WORK="2.6", STOP="1.3")
        out = tmp_path / f"{trick}.json"
        result = kit.run(kit.course, "--solver", student, "--json", out, "--timeout", "2", "--jobs", "1")
        assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
        found = json.loads(out.read_text(encoding="utf-8"))["problems"]
        return {item["id"]: (item["status"], item["score"], item["message"]) for item in found}

    honest, tricked = problems("no"), problems("yes")
    assert all(status in {"timeout", "not_run"} for status, _, _ in honest.values()), honest
    assert {name: item[:2] for name, item in tricked.items()} == {name: item[:2] for name, item in honest.items()}, tricked


def graded_problems(kit: Kit, tmp_path: Path, name: str, timeout: str, **constants: str) -> dict[str, tuple[str, float, str]]:
    """Each item's status, score and reason, graded by the real CLI."""
    student = attacker(tmp_path / "-".join((name, *constants.values())), name, **constants)
    out = student.with_suffix(".json")
    result = kit.run(kit.course, "--solver", student, "--json", out, "--timeout", timeout, "--jobs", "1")
    assert "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    return {name: (item["status"], item["score"], item["message"]) for name, item in entries(json.loads(out.read_text(encoding="utf-8"))).items()}


@pytest.mark.slow  # four gradings
def test_forged_replies_earn_what_the_same_lie_earns_asked_call_by_call(kit: Kit, tmp_path: Path) -> None:
    """A worker that answers its boards' searches with the model answer's functions instead
    of its own (refused) select_variable, writing the replies and the end of the search with
    the grader's own count and digest itself, gets what hooks that tell the grader's searches
    from the hook's cases by the stack get asked call by call: item by item, the same."""
    forged, stack, plain = (graded_problems(kit, tmp_path, "hostile_forged_search", "5", MODE=mode) for mode in ("forged", "stack", "plain"))
    assert {name: item[:2] for name, item in forged.items()} == {name: item[:2] for name, item in stack.items()}, forged
    assert forged["nctu-1"][0] == "pass" and plain["nctu-1"][0] == "error" and forged["select_variable"][0] == "fail", (forged, plain)
    early = graded_problems(kit, tmp_path, "hostile_forged_search", "5", MODE="early")  # the end of the search sent first
    assert all(early[name][:2] == ("error", 0.0) for name in ("nctu-1", "nctu-1-as-printed", "nctu-2")), early


@pytest.mark.slow  # four gradings
def test_what_a_worker_does_after_its_search_ended_costs_that_board_alone(kit: Kit, tmp_path: Path) -> None:
    """While the grader reads the rest of a worker's search (after its own search ended),
    the worker's process exits, floods it with replies to calls nobody made, or burns CPU:
    each board is that failure, within its time, with one reason; one reply too many
    makes the board searched again, asking each call, and graded as the model answer."""
    boards = ("nctu-1", "nctu-1-as-printed", "nctu-2")
    expected = {"exit": "error", "flood": "timeout", "burn": "timeout", "extra": "pass"}
    for after, status in expected.items():
        found = graded_problems(kit, tmp_path, "hostile_drain", "1", AFTER=after)
        assert all(found[board][0] == status for board in boards), (after, found)
        assert found["forward_check"][:2] == ("pass", 3.0), (after, found)  # the hook's own cases: unchanged
