"""The instructors' YAML problem sets (problems/README.md): reading them, with one clear
error per mistake, and writing them. `Problem` is the one record of both directions.

Files are read with PyYAML's safe loader only. A bad problem is reported (file, problem
id, field, line) and skipped; the other problems of the file still load.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import yaml

from grader.inputs.yamlfile import YamlRefused, read_yaml
from solvers.board import RULES, Board
from solvers.textformat import BoardFormatError, check_mine_count, parse_rows

FILE_FIELDS = {"title", "description", "source", "defaults", "problems", "visibility"}
PROBLEM_FIELDS = {"id", "board", "rule", "mines", "points", "expect", "notes", "timeout", "visibility"}
DEFAULT_FIELDS = PROBLEM_FIELDS - {"id", "board", "expect", "notes"}
#: Gradescope's visibility settings; anything but "visible" hides a problem's details from students.
VISIBILITIES = ("visible", "hidden", "after_due_date", "after_published")
CONFIG_FILE = "grading.yaml"  # lives beside the problem files, but is not one


@dataclass(frozen=True)
class Problem:
    """One board to solve, where it came from, and what it is worth."""

    file: str
    id: str
    board: Board
    expect: int | None = None
    points: float = 1.0
    line: int | None = None
    timeout: float | None = None
    visibility: str = "visible"
    notes: str | None = None

    @property
    def hidden(self) -> bool:
        """True when students must not see this problem's board or details."""
        return self.visibility != "visible"


@dataclass(frozen=True)
class ProblemError:
    """A mistake in a problem file, located as precisely as the file allows."""

    file: str
    message: str
    id: str | None = None
    field: str | None = None
    line: int | None = None

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        parts = [where]
        if self.id is not None:
            parts.append(f"problem {self.id!r}")
        if self.field is not None:
            parts.append(f"field {self.field!r}")
        return ": ".join(parts) + f": {self.message}"


class _Invalid(Exception):
    def __init__(self, message: str, field: str | None = None, line: int | None = None):
        super().__init__(message)
        self.message, self.field, self.line = message, field, line


def _line(node: yaml.Node | None) -> int | None:
    return node.start_mark.line + 1 if node is not None else None


def _child(node: yaml.Node | None, key: str) -> yaml.Node | None:
    """The value node under `key` in a mapping node (for line numbers)."""
    if isinstance(node, yaml.MappingNode):
        for key_node, value_node in node.value:
            if getattr(key_node, "value", None) == key:
                return value_node
    return None


def _board_lines(text: str, node: yaml.Node | None) -> tuple[list[str], list[int | None]]:
    """The non-blank rows of a board and the file line of each (when known)."""
    first = None
    if isinstance(node, yaml.ScalarNode):
        first = node.start_mark.line + (2 if node.style in ("|", ">") else 1)
    rows, lines = [], []
    for offset, row in enumerate(text.splitlines()):
        if row.strip():
            rows.append(row)
            lines.append(first + offset if first is not None else None)
    return rows, lines


def _integer(value: Any, field: str, node: yaml.Node | None, minimum: int = 0) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or value < minimum:
        raise _Invalid(f"must be a whole number >= {minimum}, got {value!r}", field, _line(node))
    return value


def _build_problem(path: str, raw: Any, node: yaml.Node | None, defaults: dict[str, Any]) -> Problem:
    if not isinstance(raw, dict):
        raise _Invalid(f"each problem must be a mapping with 'id' and 'board', got {type(raw).__name__}", line=_line(node))
    unknown = sorted(set(raw) - PROBLEM_FIELDS, key=str)
    if unknown:
        raise _Invalid(f"unknown field (known: {', '.join(sorted(PROBLEM_FIELDS))})", str(unknown[0]), _line(_child(node, str(unknown[0]))))
    fields = {**defaults, **raw}
    rule = fields.get("rule", "classic")
    if rule not in RULES:
        raise _Invalid(f"must be one of {', '.join(RULES)}, got {rule!r}", "rule", _line(_child(node, "rule")))
    if "board" not in raw:
        raise _Invalid("is missing: every problem needs a board", "board", _line(node))
    text = raw["board"]
    board_node = _child(node, "board")
    if not isinstance(text, str):
        raise _Invalid("must be rows of text (use '|' and one row per line)", "board", _line(board_node))
    rows, lines = _board_lines(text, board_node)
    try:
        board = parse_rows(rows, rule)
    except BoardFormatError as error:
        line = lines[error.row - 1] if error.row else _line(board_node)
        raise _Invalid(str(error), "board", line) from None
    mines = fields.get("mines")
    if mines is not None:
        mines = _integer(mines, "mines", _child(node, "mines"))
        board = replace(board, mines=mines)
        try:
            check_mine_count(board)
        except BoardFormatError as error:
            raise _Invalid(str(error), "mines", _line(_child(node, "mines"))) from None
    expect = raw.get("expect")
    if expect is not None:
        expect = _integer(expect, "expect", _child(node, "expect"))
    points = _number(fields.get("points", 1), "points", node)
    timeout = fields.get("timeout")
    if timeout is not None:
        timeout = _number(timeout, "timeout", node, positive=True)
    visibility = fields.get("visibility", "visible")
    if visibility not in VISIBILITIES:
        raise _Invalid(f"must be one of {', '.join(VISIBILITIES)}, got {visibility!r}", "visibility", _line(_child(node, "visibility")))
    notes = raw.get("notes")
    return Problem(path, str(raw["id"]), board, expect, points, _line(node), timeout, visibility, None if notes is None else str(notes))


def _number(value: Any, field: str, node: yaml.Node | None, positive: bool = False) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value >= 0 or value == float("inf") or (positive and value == 0):
        bound = "> 0" if positive else ">= 0"
        raise _Invalid(f"must be a number {bound}, got {value!r}", field, _line(_child(node, field)))
    return float(value)


def load_problem_file(path: Path) -> tuple[list[Problem], list[ProblemError]]:
    """Every valid problem of one YAML file, and one error per invalid one."""
    name = str(path)
    try:
        data, root = read_yaml(path)
    except OSError as error:
        return [], [ProblemError(name, f"cannot read the file: {error.strerror}")]
    except UnicodeDecodeError:
        return [], [ProblemError(name, "is not UTF-8 text")]
    except YamlRefused as refused:
        return [], [ProblemError(name, refused.message, line=refused.line)]
    if not isinstance(data, dict) or not isinstance(data.get("problems"), list):
        return [], [ProblemError(name, "needs a top-level 'problems:' list", field="problems")]
    errors = [
        ProblemError(name, f"unknown top-level field (known: {', '.join(sorted(FILE_FIELDS))})", field=str(key), line=_line(_child(root, str(key))))
        for key in data
        if key not in FILE_FIELDS
    ]
    defaults = data.get("defaults") or {}
    if not isinstance(defaults, dict) or set(defaults) - DEFAULT_FIELDS:
        errors.append(
            ProblemError(
                name, f"must map some of {', '.join(sorted(DEFAULT_FIELDS))} to values", field="defaults", line=_line(_child(root, "defaults"))
            )
        )
        defaults = {}
    if "visibility" in data:  # a file-wide visibility, unless the defaults say otherwise
        defaults = {"visibility": data["visibility"], **defaults}
    problem_nodes = getattr(_child(root, "problems"), "value", [])
    problems: list[Problem] = []
    seen: dict[str, int | None] = {}
    for index, raw in enumerate(data["problems"]):
        node = problem_nodes[index] if index < len(problem_nodes) else None
        pid = str(raw["id"]) if isinstance(raw, dict) and "id" in raw else None
        if pid is None:
            errors.append(ProblemError(name, f"problem number {index + 1} has no id", field="id", line=_line(node)))
            continue
        if pid in seen:
            errors.append(ProblemError(name, f"duplicate id (first used on line {seen[pid]})", pid, "id", _line(_child(node, "id"))))
            continue
        seen[pid] = _line(node)
        try:
            problems.append(_build_problem(name, raw, node, defaults))
        except _Invalid as invalid:
            errors.append(ProblemError(name, invalid.message, pid, invalid.field, invalid.line))
    return problems, errors


def problem_files(path: Path) -> list[Path]:
    """The YAML files under `path` (itself when it is a file), sorted."""
    if path.is_dir():
        return sorted(p for p in path.rglob("*") if p.suffix in (".yaml", ".yml") and p.is_file() and p.name != CONFIG_FILE)
    return [path]


def load_problems(*paths: Path) -> tuple[list[Problem], list[ProblemError]]:
    """Every problem under the paths (files, or folders searched recursively), and every error."""
    problems: list[Problem] = []
    errors: list[ProblemError] = []
    for path in paths:
        files = problem_files(path) if path.exists() else []
        if not path.exists():
            errors.append(ProblemError(str(path), "does not exist"))
        elif not files:
            errors.append(ProblemError(str(path), "holds no .yaml problem files"))
        for file in files:
            found, wrong = load_problem_file(file)
            problems += found
            errors += wrong
    return problems, errors


class _Block(str):
    """A text written as a YAML literal block (a board's rows, a note of several lines)."""


class _Writer(yaml.SafeDumper):
    """PyYAML's safe writer, with `_Block` texts as literal blocks."""


_Writer.add_representer(_Block, lambda dumper, text: dumper.represent_scalar("tag:yaml.org,2002:str", text, style="|"))


def problem_set_yaml(title: str, problems: list[Problem], source: str | None = None) -> str:
    """The YAML text of a problem set, which `load_problem_file` reads back as `problems`
    (but for `file` and `line`). Rule and mine count are written per problem; points,
    timeout and visibility only when they are not the defaults."""
    data: dict[str, Any] = {"title": title}
    if source:
        data["source"] = source
    data["problems"] = [_problem_data(problem) for problem in problems]
    return yaml.dump(data, Dumper=_Writer, sort_keys=False, allow_unicode=True, width=1 << 16)  # no folded lines


def _problem_data(problem: Problem) -> dict[str, Any]:
    entry: dict[str, Any] = {"id": problem.id}
    if problem.notes:
        entry["notes"] = _Block(problem.notes) if "\n" in problem.notes else problem.notes
    entry["rule"] = problem.board.rule
    if problem.board.mines is not None:
        entry["mines"] = problem.board.mines
    if problem.expect is not None:
        entry["expect"] = problem.expect
    if problem.points != 1.0:
        entry["points"] = problem.points
    if problem.timeout is not None:
        entry["timeout"] = problem.timeout
    if problem.hidden:
        entry["visibility"] = problem.visibility
    entry["board"] = _Block("\n".join(problem.board.rows_text()) + "\n")
    return entry
