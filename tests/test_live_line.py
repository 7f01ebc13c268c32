"""The live line of `python -m grader PATH` (grader.commands.liveline): on a terminal, a
progress bar counting the items as they end, gone before the report; nowhere else."""

from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path
from typing import Any

from rich.console import Console

from grader.commands.grade import grade_command
from tests.conftest import quick_hidden_set

ROOT = Path(__file__).resolve().parents[1]
COURSE = str(ROOT / "problems" / "course.yaml")
#: What differs from one grading to the next: the time each item took (and the width of its column).
TIMES = re.compile(r"\d+(\.\d+)? ?(ms|s)\b")
WIDTHS = re.compile(r" +|─+|━+")
#: Rich's live display: a carriage return, then erasing the line or moving the cursor.
LIVE = re.compile(r"\r|\x1b\[\d*[AK]|\x1b\[\?25[lh]")


def graded(argv: list[str], terminal: bool) -> tuple[int, str]:
    """The exit status and everything printed, on a terminal or not (no colours either way)."""
    out = StringIO()
    console = Console(file=out, force_terminal=terminal, color_system=None, width=150)
    return grade_command(argv, console), out.getvalue()


def masked(text: str) -> str:
    """`text` with the times masked and the table's widths made one."""
    return WIDTHS.sub(lambda run: run.group()[0], TIMES.sub("T", text))


def untimed(data: Any) -> Any:
    """JSON data without the times measured (keys naming seconds or times)."""
    if isinstance(data, dict):
        return {key: untimed(value) for key, value in data.items() if "second" not in key and "time" not in key}
    if isinstance(data, list):
        return [untimed(item) for item in data]
    return TIMES.sub("T", data) if isinstance(data, str) else data


def report_part(text: str) -> str:
    """What stays on the screen after the live display cleared itself, masked."""
    return masked(LIVE.split(text)[-1])


def test_a_terminal_shows_each_item_as_it_ends_then_the_same_report() -> None:
    status, shown = graded([COURSE, "--solver", "reference", "--jobs", "1"], terminal=True)
    plain_status, plain = graded([COURSE, "--solver", "reference", "--jobs", "1"], terminal=False)
    assert status == plain_status == 0
    frames = [frame for frame in shown.split("\r") if "graded" in frame]
    counts = [tuple(map(int, found.groups())) for frame in frames if (found := re.search(r"(\d+)/(\d+)", frame))]
    assert counts, shown[:2000]
    total = counts[-1][1]
    assert total > 3 and counts[-1][0] == total  # every item planned, and all of them counted as they ended
    assert [done for done, _ in counts] == sorted(done for done, _ in counts)  # it only moves forward
    for name in ("course/nctu-1", "course/nctu-2", "hooks/forward_check"):  # each item as it ended, by name
        assert any(frame.endswith(f"graded {name}") for frame in frames), name
    assert "graded" not in plain and "\r" not in plain  # not a terminal: no live line at all
    assert report_part(shown) == masked(plain)  # the report, as without the line
    assert "Full marks." in report_part(shown)


def test_the_live_line_names_no_hidden_item(tmp_path: Path) -> None:
    problems = quick_hidden_set(tmp_path / "hidden.yaml")
    _, shown = graded([str(problems), "--solver", "reference", "--jobs", "1"], terminal=True)
    frames = [frame for frame in shown.split("\r") if "graded" in frame]
    assert any("a hidden item" in frame for frame in frames), shown[:2000]
    assert any("open-1" in frame for frame in frames)  # a public board is named
    assert not any("secret" in frame for frame in frames)  # a hidden one never: the report names none either


def test_json_output_is_left_as_it_was(tmp_path: Path) -> None:
    """--json writes the same file with the line as without it (the line is the screen's only)."""
    with_line, without = tmp_path / "with.json", tmp_path / "without.json"
    graded([COURSE, "--solver", "reference", "--jobs", "1", "--json", str(with_line)], terminal=True)
    graded([COURSE, "--solver", "reference", "--jobs", "1", "--json", str(without)], terminal=False)
    assert untimed(json.loads(with_line.read_text())) == untimed(json.loads(without.read_text()))
    assert "graded" not in with_line.read_text()
