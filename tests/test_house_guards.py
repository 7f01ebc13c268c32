"""The house's guards on the grader's code, each with the test that it sees what it looks for:

- no branch on a hook's name outside the agent's item: what differs between hooks is a
  field of the hook table (`grader/hooktable.py`), so a new hook is an entry, not a branch;
- `dict[str, Any]` in the rooms that run and score student code (`grader/sandbox`,
  `grader/scoring`) stays under each room's ceiling (`CEILINGS`): data crosses them as
  typed records;
- mypy's strict flags stay on the table, the sandbox and the scoring.
"""

from __future__ import annotations

import ast
import tomllib
from collections.abc import Iterator
from pathlib import Path

from conftest import python_tree

from grader.hooktable import HOOKS

ROOT = Path(__file__).resolve().parents[1]
GRADER = ROOT / "grader"
#: The one module that may name a hook in a branch: the agent's item (a hook of its own kind).
AGENT_ITEM = GRADER / "scoring" / "agentplay.py"
UNTYPED = "dict[str, Any]"
#: At most this many lines of each room that runs and scores student code name `dict[str, Any]`
#: (45 in the two rooms once, 35 at most together now: lower a ceiling when its room drops under it).
CEILINGS = {"sandbox": 23, "scoring": 12}
STRICT_MODULES = {"grader.hooktable", "grader.sandbox.*", "grader.scoring.*"}
STRICT_FLAGS = (
    "disallow_any_generics",
    "disallow_untyped_defs",
    "disallow_incomplete_defs",
    "disallow_untyped_calls",
    "check_untyped_defs",
    "warn_return_any",
    "no_implicit_reexport",
    "strict_equality",
)


def modules(folder: Path) -> Iterator[Path]:
    yield from sorted(path for path in folder.rglob("*.py") if "__pycache__" not in path.parts)


def _strings(node: ast.AST) -> Iterator[str]:
    """The string constants of a comparison's side (in a tuple, list or set too)."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, (ast.Tuple, ast.List, ast.Set)):
        for item in node.elts:
            yield from _strings(item)


def hook_branches(path: Path, names: set[str]) -> list[str]:
    """Each comparison or `case` of `path` that names one of the hooks `names`, as path:line."""
    found = []
    for node in ast.walk(python_tree(path)):
        sides: list[ast.AST] = []
        if isinstance(node, ast.Compare):
            sides = [node.left, *node.comparators]
        elif isinstance(node, ast.MatchValue):
            sides = [node.value]
        if any(text in names for side in sides for text in _strings(side)):
            found.append(f"{path.name}:{getattr(node, 'lineno', 0)}")
    return found


def untyped_lines(folders: list[Path]) -> dict[str, int]:
    """How many lines of each module of `folders` name `dict[str, Any]` (as `grep -c` counts)."""
    counts = {}
    for folder in folders:
        for path in modules(folder):
            count = sum(UNTYPED in line for line in path.read_text(encoding="utf-8").splitlines())
            if count:
                counts[str(path.relative_to(folder.parent))] = count
    return counts


def test_no_branch_of_the_grader_names_a_hook() -> None:
    """No `==`, `!=`, `in` or `case` in grader/ compares with a hook's name, the agent's
    item aside: a hook's differences are fields of its table entry."""
    names = {spec.name for spec in HOOKS}
    found = [branch for path in modules(GRADER) if path != AGENT_ITEM for branch in hook_branches(path, names)]
    assert found == []


def test_the_branch_check_sees_each_kind_of_branch(tmp_path: Path) -> None:
    code = tmp_path / "x.py"
    code.write_text(
        'def f(hook):\n    if hook == "forward_check":\n        return 1\n    if hook in ("a", "order_values"):\n        return 2\n'
        '    match hook:\n        case "select_variable":\n            return 3\n    return hook != "other"\n',
        encoding="utf-8",
    )
    assert hook_branches(code, {"forward_check", "order_values", "select_variable"}) == ["x.py:2", "x.py:4", "x.py:7"]


def test_the_rooms_that_run_student_code_pass_typed_records() -> None:
    """`dict[str, Any]` in grader/sandbox and grader/scoring: at most each room's ceiling."""
    counts = untyped_lines([GRADER / room for room in CEILINGS])
    print(counts)
    by_room = {room: sum(n for name, n in counts.items() if name.startswith(f"{room}/")) for room in CEILINGS}
    assert all(by_room[room] <= most for room, most in CEILINGS.items()), by_room


def test_the_untyped_count_sees_a_line(tmp_path: Path) -> None:
    room = tmp_path / "room"
    room.mkdir()
    (room / "a.py").write_text("x: dict[str, Any] = {}\ny: dict[str, int] = {}\n", encoding="utf-8")
    assert untyped_lines([room]) == {"room/a.py": 1}


def test_mypy_stays_strict_on_the_table_the_sandbox_and_the_scoring() -> None:
    """pyproject.toml keeps the strict flags on the modules that run and score student code."""
    with open(ROOT / "pyproject.toml", "rb") as handle:
        overrides = tomllib.load(handle)["tool"]["mypy"]["overrides"]
    strict = [entry for entry in overrides if all(entry.get(flag) is True for flag in STRICT_FLAGS)]
    covered = {module for entry in strict for module in ([entry["module"]] if isinstance(entry["module"], str) else entry["module"])}
    assert STRICT_MODULES <= covered
