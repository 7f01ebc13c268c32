"""An exception as one line of text: the kit's one way to say what was raised.

Standard library only: the grader's worker describes a student's exceptions with it
inside the sandbox, the game describes a crashed agent's, and the commands their own.
"""

from __future__ import annotations

import os
import traceback

#: Characters of an exception's own words kept at most (where it was raised is added after).
LIMIT = 300


def describe_exception(error: BaseException, folder: str | None = None, limit: int = LIMIT) -> str:
    """`Type: message` on one line (the message's first line, the whole cut to `limit`
    characters; the type alone when the message cannot be had); with
    `folder`, where it was raised: the deepest frame in a file under that folder, as
    " (FILE, line N, in FUNCTION)" ("" names the deepest frame of all)."""
    name = type(error).__name__
    try:
        lines = f"{name}: {error}".strip().splitlines()
    except Exception:  # noqa: BLE001 (an exception's own __str__ may raise)
        lines = [name]
    text = (lines[0] if lines else name)[:limit]
    if folder is None:
        return text
    frame = _deepest_frame(error, folder)
    if frame is None:
        return text
    return f"{text} ({os.path.basename(frame.filename)}, line {frame.lineno}, in {frame.name})"


def _deepest_frame(error: BaseException, folder: str) -> traceback.FrameSummary | None:
    """The deepest frame of `error`'s traceback in a file under `folder` ("": of all)."""
    inside = os.path.join(folder, "") if folder else ""
    frames = [frame for frame in traceback.extract_tb(error.__traceback__) if frame.filename.startswith(inside)]
    return frames[-1] if frames else None


def raised_where(error: BaseException, folder: str) -> tuple[str, int]:
    """What `describe_exception` names of where `error` was raised, as data: its type's
    name and the line of the deepest frame under `folder` (0: none there), the file's
    name left out (the same code graded under another name raised the same error)."""
    frame = _deepest_frame(error, folder)
    return type(error).__name__[:100], (frame.lineno or 0) if frame is not None else 0
