"""The student copy's stored answers keep their format: a file a release of an earlier kit
wrote (`snapshots/search_answers_main.json`, written by the kit of main at 229614b with
`write_search_answers(path_answers(BOARDS))`) still reads, is what the kit writes today,
and gives back, call by call, the model answer's own answers.

A change to how answers are stored (`grader/scoring/storedanswers.py`) or keyed
(`grader/inputs/searchanswers.py`) fails here before it reaches a copy already released.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from answerkey.instructor.pathanswers import path_answers
from grader.inputs.problemset import load_problem_file
from grader.inputs.searchanswers import Unusable, search_answers
from grader.scoring.grading import model_answer
from grader.scoring.probes import board_probes
from grader.scoring.searchcheck import Watcher
from grader.scoring.storedanswers import PROBED, AnswerTable, OffPath
from solvers.board import Board
from solvers.csp import build_csp
from solvers.engine import search

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT = Path(__file__).with_name("snapshots") / "search_answers_main.json"
#: The boards the snapshot stores, by problem file (None: its every public board).
BOARDS = {"course.yaml": None, "status-grids.yaml": {"status-3x3"}, "sat-examples.yaml": {"sat-3x3", "sat-row-unsat"}}


def boards() -> list[Board]:
    return [
        p.board
        for name, ids in BOARDS.items()
        for p in load_problem_file(ROOT / "problems" / name)[0]
        if not p.hidden and (ids is None or p.id in ids)
    ]


def stored() -> dict[str, Any]:
    answers = search_answers(SNAPSHOT)
    assert not isinstance(answers, Unusable), answers
    return answers


class Read(dict[str, Any]):
    """Stored answers that remember which of their keys were found."""

    def __init__(self, answers: dict[str, Any]):
        super().__init__(answers)
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        value = super().__getitem__(key)
        self.read.add(key)
        return value


def test_a_file_of_an_earlier_release_reads_and_the_kit_still_writes_its_every_entry() -> None:
    """The snapshot reads (its format and digest are this grader's), and the release's
    recorder gives each of its entries again, under the same key with the same stored
    answer (a hook added since brings entries of its own, beside them)."""
    answers = stored()
    assert len(answers) > 100
    today = path_answers(boards())
    assert {key: today.get(key) for key in answers} == answers


@pytest.mark.parametrize("index", range(len(boards())))
def test_every_stored_answer_is_the_model_answers_call_for_call(index: int) -> None:
    """The model answer's own search of each board, watched with the snapshot as the
    student copy watches it: each hook's calls are all found, their stored answers the
    model's (none wrong), or none is (a hook added since the snapshot); every probe
    replays alike; and every entry of the snapshot is read, none left over that the kit
    no longer asks for."""
    board, model, read = boards()[index], model_answer(), Read(stored())
    table = AnswerTable(read)
    watcher = Watcher(model.strategy, table, board)
    search(build_csp(board), watcher.strategy(), "all")
    called = {hook: calls for hook, calls in watcher.calls.items() if calls.calls}
    assert called and watcher.first is None
    assert all(calls.wrong == 0 and calls.unchecked in (0, calls.calls) for calls in called.values()), called
    assert any(calls.unchecked == 0 for calls in called.values())
    for hook in PROBED:
        try:
            replayed = board_probes(hook, board, table)
        except OffPath:  # a probed hook added since the snapshot
            continue
        assert replayed == board_probes(hook, board, model)
    assert read.read == set(stored()) & set(path_answers([board]))


def test_an_answer_edited_in_the_snapshot_is_refused_whole(tmp_path: Path) -> None:
    """The hostile side: one stored answer changed (its digest left as it was) makes the
    whole file unusable, never a check that passes on a forged answer."""
    data = json.loads(SNAPSHOT.read_text(encoding="utf-8"))
    key = sorted(data["answers"])[0]
    data["answers"][key] = [] if data["answers"][key] != [] else [0]
    forged = tmp_path / "forged.json"
    forged.write_text(json.dumps(data), encoding="utf-8")
    refused = search_answers(forged)
    assert isinstance(refused, Unusable) and "digest" in refused.why
