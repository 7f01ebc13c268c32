"""Student text in Markdown, shown as it is: nothing in it is read as Markdown or HTML."""

from __future__ import annotations

import re

_BACKTICKS = re.compile("`+")


def _longest_backticks(text: str) -> int:
    return max((len(run) for run in _BACKTICKS.findall(text)), default=0)


def code_span(text: str) -> str:
    """`text` on one line as a Markdown code span, however many backticks it holds.

    The span's backticks outnumber any run inside it, and a space pads a text that starts
    or ends with a backtick or a space (CommonMark strips one space from each side).
    """
    text = " ".join(text.splitlines())
    if not text:
        return ""
    ticks = "`" * (_longest_backticks(text) + 1)
    pad = " " if text[0] in "` " or text[-1] in "` " else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fenced(text: str, info: str = "text") -> str:
    """`text` as a fenced code block whose fence no line of it can close."""
    fence = "`" * max(3, _longest_backticks(text) + 1)
    body = text if text.endswith("\n") else text + "\n"
    return f"{fence}{info}\n{body}{fence}\n"
