"""The house's structure, checked: the grader's rooms import only downward, the answer key
has one door per program, and the hook table agrees with the stubs students fill in."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from pathlib import Path

import pytest
from conftest import python_tree

ROOT = Path(__file__).resolve().parents[1]

#: The grader's rooms from the bottom up: a module may import its own room and the rooms
#: below it, never one above.
LAYERS = (
    ("grader.errors", "grader.hooktable"),
    ("grader.sandbox",),
    ("grader.inputs",),
    ("grader.reports",),
    ("grader.reference",),
    ("grader.scoring",),
    ("grader.commands", "grader.__main__"),
)
#: Where code outside the answer key may reach into it, and why there.
DOORS = {
    "grader/reference.py": "the grader's door: a student copy says in one line what needs the answer key",
    "grader/commands/instructor.py": "the instructor's commands, from the grader's top room: above the scoring they import",
    "play/advisor.py": "the game's door: the reference agent's hints and exact probabilities",
    "solvers/cli.py": "`python -m solvers` registers its subcommands, each a module of answerkey/instructor/solving",
}


def _layer(module: str) -> int:
    return next(level for level, rooms in enumerate(LAYERS) for room in rooms if module == room or module.startswith(room + "."))


def _module_of(path: Path) -> str:
    return ".".join(path.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")


def _imports(path: Path) -> list[tuple[int, str]]:
    """(line, module) of every import in the file, those inside functions too."""
    found = []
    for node in ast.walk(python_tree(path)):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return found


def _answer_key_reaches(path: Path) -> list[int]:
    """Lines that import the answer key, by statement or by `importlib.import_module("answerkey...")`."""
    lines = [line for line, module in _imports(path) if module.split(".")[0] == "answerkey"]
    for node in ast.walk(python_tree(path)):
        if isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module":
            text = ast.unparse(node.args[0]) if node.args else ""
            if "answerkey" in text:
                lines.append(node.lineno)
    return lines


GRADER_FILES = sorted((ROOT / "grader").rglob("*.py"))


@pytest.mark.parametrize(
    "path", [p for p in GRADER_FILES if p.name != "__init__.py" or p.parent.name != "grader"], ids=lambda p: str(p.relative_to(ROOT))
)
def test_no_room_of_the_grader_imports_a_room_above_it(path: Path) -> None:
    own = _layer(_module_of(path))
    upward = [f"line {line}: {module}" for line, module in _imports(path) if module.startswith("grader.") and _layer(module) > own]
    assert not upward, f"{path.relative_to(ROOT)} imports upward: {upward}"


def test_the_layer_check_sees_an_upward_import(tmp_path: Path) -> None:
    """The check above can fail: an import of scoring, even inside a function, is found."""
    sample = tmp_path / "sample.py"
    sample.write_text("def f():\n    from grader.scoring.grading import grade\n", encoding="utf-8")
    assert [(2, "grader.scoring.grading")] == _imports(sample)
    assert _layer("grader.scoring.grading") > _layer("grader.inputs.config")


#: The kit's packages: the import graph spans them all, so a circle through two is seen.
KIT_PACKAGES = ("grader", "solvers", "answerkey", "play", "assignment")


def _import_graph(root: Path, packages: tuple[str, ...]) -> dict[str, set[str]]:
    """Which modules of `packages` (under `root`) each of their modules imports, those
    inside functions and under TYPE_CHECKING too; `from P import M` counts as importing
    P.M when M is a module."""
    files = {
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): path
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
    }
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        targets: set[str] = set()
        for node in ast.walk(python_tree(path)):
            if isinstance(node, ast.ImportFrom):
                source = _absolute(module, path.name == "__init__.py", node.level, node.module)
                targets |= {f"{source}.{alias.name}" if f"{source}.{alias.name}" in files else source for alias in node.names}
            elif isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names}
        graph[module] = {target for target in targets if target in files and target != module}
    return graph


def _absolute(module: str, package: bool, level: int, name: str | None) -> str:
    """The module a `from` import in `module` names: `from .x import y` in a.b.c names
    a.b.x (`package`: `module` is a package's __init__, so `.` is itself)."""
    if not level:
        return name or ""
    parts = module.split(".")[: len(module.split(".")) - level + package]
    return ".".join(parts + ([name] if name else []))


def _reachable(graph: dict[str, set[str]], start: str) -> set[str]:
    """Every module `start` imports through some chain of imports."""
    seen: set[str] = set()
    todo = list(graph[start])
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo += graph[module]
    return seen


def _circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The import circles of the graph: its strongly connected components of more than one
    module (each module of one reaches every other through imports), sorted."""
    reach = {module: _reachable(graph, module) for module in graph}
    circles = {frozenset({module} | {other for other in reach[module] if module in reach[other]}) for module in graph if module in reach[module]}
    return sorted(sorted(circle) for circle in circles)


def _a_cycle(graph: dict[str, set[str]], circle: list[str]) -> list[str]:
    """One chain of imports around `circle` (a strongly connected component), its first
    module repeated at the end."""
    first, inside = circle[0], set(circle)
    paths = {first: [first]}
    todo = [first]
    while todo:  # breadth first: the shortest chain back to `first`
        module = todo.pop(0)
        for target in sorted(graph[module] & inside):
            if target == first:
                return paths[module] + [first]
            if target not in paths:
                paths[target] = paths[module] + [target]
                todo.append(target)
    raise AssertionError(f"{circle} is no circle")


def _described(graph: dict[str, set[str]]) -> list[str]:
    return [f"{len(circle)} modules: {', '.join(circle)} (for one, {' -> '.join(_a_cycle(graph, circle))})" for circle in _circles(graph)]


def test_no_import_circle_across_the_kit() -> None:
    """No module of the kit imports, through any chain of imports (lazy ones and those
    for types only included) and whichever packages the chain crosses, a module that
    imports it back: a helper two modules need lives below both, and code that needs
    both sides of a door lives above them (`grader/commands/instructor.py`)."""
    graph = _import_graph(ROOT, KIT_PACKAGES)
    assert len(graph) > 100 and all(any(module.startswith(package) for module in graph) for package in KIT_PACKAGES)
    assert not _circles(graph), "import circles: " + "; ".join(_described(graph))


def test_the_circle_check_sees_a_circle_through_a_lazy_import(tmp_path: Path) -> None:
    """The check above can fail: a circle closed by an import inside a function, or a
    relative one, is found."""
    (tmp_path / "pkg" / "sub").mkdir(parents=True)
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pkg" / "one.py").write_text("from .two import g\n", encoding="utf-8")
    (tmp_path / "pkg" / "two.py").write_text("from .sub import four\n", encoding="utf-8")
    (tmp_path / "pkg" / "sub" / "__init__.py").write_text("from . import four\n", encoding="utf-8")
    (tmp_path / "pkg" / "sub" / "four.py").write_text("from ..three import f\n", encoding="utf-8")
    (tmp_path / "pkg" / "three.py").write_text("def f():\n    from pkg import one\n", encoding="utf-8")
    graph = _import_graph(tmp_path, ("pkg",))
    assert graph["pkg.sub"] == {"pkg.sub.four"} and graph["pkg.sub.four"] == {"pkg.three"}
    assert _circles(graph) == [["pkg.one", "pkg.sub.four", "pkg.three", "pkg.two"]]
    assert _a_cycle(graph, _circles(graph)[0]) == ["pkg.one", "pkg.two", "pkg.sub.four", "pkg.three", "pkg.one"]


def test_the_circle_check_sees_a_circle_across_packages(tmp_path: Path) -> None:
    """A circle no single package holds: two modules of one package, one of another, each
    import under TYPE_CHECKING or in a function; a module beside it that only imports
    into the circle is not in it, and two circles are told apart."""
    files = {
        "low/door.py": "def f():\n    from high.tool import run\n",
        "low/score.py": "from low.door import f\n",
        "low/alone.py": "import low.score\n",
        "high/tool.py": "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from low.score import f\n",
        "high/a.py": "from high import b\n",
        "high/b.py": "import high.a\n",
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert _circles(_import_graph(tmp_path, ("low",))) == []
    graph = _import_graph(tmp_path, ("low", "high"))
    assert _circles(graph) == [["high.a", "high.b"], ["high.tool", "low.door", "low.score"]]
    assert _described(graph)[1] == "3 modules: high.tool, low.door, low.score (for one, high.tool -> low.score -> low.door -> high.tool)"


def test_the_answer_key_is_reached_only_through_its_doors() -> None:
    reaches = {}
    for folder in ("grader", "play", "solvers", "assignment"):
        for path in sorted((ROOT / folder).rglob("*.py")):
            name = str(path.relative_to(ROOT))
            if (lines := _answer_key_reaches(path)) and name not in DOORS:
                reaches[name] = lines
    assert not reaches, f"new doors to the answer key (go through grader/reference.py or play/advisor.py): {reaches}"
    assert all(_answer_key_reaches(ROOT / door) for door in DOORS), "a door that no longer opens: drop it from DOORS"


def test_the_door_check_sees_both_kinds_of_import(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import importlib\nfrom answerkey.sat import x\ndef f(name):\n    return importlib.import_module(f'answerkey.{name}')\n", encoding="utf-8"
    )
    assert _answer_key_reaches(sample) == [2, 4]


def test_every_hook_of_the_table_has_its_stub_with_the_same_parameters() -> None:
    import assignment.agent
    import assignment.hooks
    from grader.hooktable import HOOKS

    for spec in HOOKS:
        stub = getattr(assignment.agent if spec.part == "agent" else assignment.hooks, spec.name)
        assert tuple(inspect.signature(stub).parameters) == tuple(p.name for p in spec.params), spec.name


def test_every_model_answer_named_in_the_table_exists() -> None:
    from grader.hooktable import HOOKS
    from grader.reference import reference_hooks

    hooks = reference_hooks()
    assert set(hooks) == {spec.name for spec in HOOKS if spec.part != "agent"}
    assert all(callable(hook) for hook in hooks.values())


def test_the_stored_cases_are_those_of_the_csp_hooks_of_the_table() -> None:
    from grader.hooktable import CSP_HOOKS
    from grader.scoring.hookcases import load_cases

    assert list(load_cases()) == [spec.name for spec in CSP_HOOKS]


def test_the_worker_gives_each_hook_the_arguments_its_stub_promises() -> None:
    """A stored case of each CSP hook, sent as the grader sends it and rebuilt by the
    worker's answerer: the CSP of the board, domains as {int: tuple}, a scope as a tuple."""
    from types import SimpleNamespace

    from grader.hooktable import CSP_HOOKS
    from grader.sandbox.child import Answerer
    from grader.scoring.hookcases import load_cases
    from solvers.csp import CSP

    seen: dict[str, tuple[object, ...]] = {}

    def recorder(name: str) -> Callable[..., None]:
        return lambda *args: seen.update({name: args})

    recorders = {spec.name: recorder(spec.name) for spec in CSP_HOOKS}
    answerer = Answerer(SimpleNamespace(**recorders), Path("recorders.py"))  # type: ignore[arg-type]
    for spec in CSP_HOOKS:
        case = next(c for c in load_cases()[spec.name] if c.board is not None or not spec.engine_calls)
        if spec.engine_calls:
            assert case.board is not None
            answerer.use_board({"board": list(case.board), "rule": case.rule, "mines": case.mines})
        answerer.answer(spec.name, spec.wire_arguments(case.args))
        given = spec.named(seen[spec.name])
        assert isinstance(given["csp"], CSP) if spec.engine_calls else "csp" not in given
        domains = given["domains"]
        assert isinstance(domains, dict) and all(type(v) is int and type(d) is tuple for v, d in domains.items())
    assert type(dict(zip(("scope", "domains"), seen["constraint_bounds"]))["scope"]) is tuple
