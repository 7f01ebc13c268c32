"""The model answer's answers along its own searches of the public boards, carried by the
student copy.

The student copy has no answer key, so `python -m grader release` writes, for every hook
call the model answer makes while it searches a public board (and every question the
grader asks a probed hook, such as constraint_bounds, about those searches), the model answer's answer, keyed by a
digest of the call's input (`call_key`). A student's search makes exactly those calls
until its first answer that differs from the model answer's, so the copy finds every
first wrong call; a call whose input is not here came after the search had left the model
answer's path, and only the course's grader can check it.

The boards are public, so their answers may ship. The file carries the digest of its own
entries: an edited or damaged file is refused whole (`Unusable`), so that nothing in it is
taken for a check that passed.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from solvers.board import Board

ANSWERS_FILE = Path(__file__).with_name("search_answers.json")
#: The file as a student's copy names it.
SHOWN = "grader/inputs/search_answers.json"
FORMAT = 1


def board_key(board: Board) -> str:
    """A board as one line: its rule, mine count and rows."""
    return f"{board.rule} {board.mines} " + " / ".join(board.rows_text())


def call_key(hook: str, board: Board, arguments: dict[str, Any]) -> str:
    """The digest of one hook call's input: the hook, the board and the arguments as plain
    data (domains as {variable: [values]})."""
    text = json.dumps([hook, board_key(board), arguments], sort_keys=True, separators=(",", ":"), default=list)
    return hashlib.sha256(text.encode()).hexdigest()[:20]


def _entries_digest(entries: dict[str, Any]) -> str:
    return hashlib.sha256(json.dumps(entries, sort_keys=True, separators=(",", ":")).encode()).hexdigest()


def write_search_answers(path: Path, entries: dict[str, Any]) -> int:
    """Write the answers (by `call_key`) where `search_answers` reads them; its size in bytes."""
    text = json.dumps({"format": FORMAT, "digest": _entries_digest(entries), "answers": entries}, sort_keys=True, separators=(",", ":")) + "\n"
    path.write_text(text, encoding="utf-8")
    return len(text.encode())


@dataclass(frozen=True)
class Unusable:
    """Why the copy's answers cannot be used (missing, damaged, edited): one line."""

    why: str


def search_answers(path: Path = ANSWERS_FILE) -> dict[str, Any] | Unusable:
    """The stored answers by `call_key`, or why there are none to use."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return Unusable(f"{SHOWN} is missing from this copy")
    except (OSError, UnicodeDecodeError, ValueError) as error:
        return Unusable(f"{SHOWN} cannot be read ({type(error).__name__})")
    answers = data.get("answers") if isinstance(data, dict) else None
    if not isinstance(answers, dict) or data.get("format") != FORMAT:
        return Unusable(f"{SHOWN} is not in the form this grader writes")
    if data.get("digest") != _entries_digest(answers):
        return Unusable(f"{SHOWN} does not match its own digest (edited or damaged)")
    return answers
