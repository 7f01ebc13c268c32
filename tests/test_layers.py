"""The house's structure, checked: the grader's rooms import only downward, the answer key
has one door per program, and the hook table agrees with the stubs students fill in."""

from __future__ import annotations

import ast
import inspect
from collections.abc import Callable
from pathlib import Path

import pytest

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
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and not node.level:
            found.append((node.lineno, node.module))
        elif isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
    return found


def _answer_key_reaches(path: Path) -> list[int]:
    """Lines that import the answer key, by statement or by `importlib.import_module("answerkey...")`."""
    lines = [line for line, module in _imports(path) if module.split(".")[0] == "answerkey"]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
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


def _import_graph(root: Path, package: str) -> dict[str, set[str]]:
    """Which modules of `package` (under `root`) each of its modules imports, those inside
    functions and under TYPE_CHECKING too; `from P import M` counts as importing P.M when
    M is a module."""
    files = {
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): path for path in sorted((root / package).rglob("*.py"))
    }
    graph: dict[str, set[str]] = {}
    for module, path in files.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module and not node.level:
                targets |= {f"{node.module}.{alias.name}" if f"{node.module}.{alias.name}" in files else node.module for alias in node.names}
            elif isinstance(node, ast.Import):
                targets |= {alias.name for alias in node.names}
        graph[module] = {target for target in targets if target in files and target != module}
    return graph


def _a_cycle(graph: dict[str, set[str]]) -> list[str]:
    """One import cycle of the graph, its first module repeated at the end ([]: none)."""
    done: set[str] = set()

    def visit(module: str, path: list[str]) -> list[str]:
        if module in path:
            return path[path.index(module) :] + [module]
        if module in done:
            return []
        for target in sorted(graph[module]):
            if cycle := visit(target, path + [module]):
                return cycle
        done.add(module)
        return []

    return next((cycle for module in sorted(graph) if (cycle := visit(module, []))), [])


@pytest.mark.parametrize("package", ["grader", "solvers", "answerkey", "play", "assignment"])
def test_no_import_cycle_among_a_packages_modules(package: str) -> None:
    """No module of the package imports, through any chain of imports (lazy ones included),
    a module that imports it back."""
    cycle = _a_cycle(_import_graph(ROOT, package))
    assert not cycle, f"an import cycle: {' -> '.join(cycle)}"


def test_the_cycle_check_sees_a_cycle_through_a_lazy_import(tmp_path: Path) -> None:
    """The check above can fail: a cycle closed by an import inside a function is found."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (tmp_path / "pkg" / "one.py").write_text("from pkg.two import g\n", encoding="utf-8")
    (tmp_path / "pkg" / "two.py").write_text("import pkg.three\n", encoding="utf-8")
    (tmp_path / "pkg" / "three.py").write_text("def f():\n    from pkg import one\n", encoding="utf-8")
    assert _a_cycle(_import_graph(tmp_path, "pkg")) == ["pkg.one", "pkg.two", "pkg.three", "pkg.one"]


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
        given = dict(zip((p.name for p in spec.params), seen[spec.name]))
        assert isinstance(given["csp"], CSP) if spec.engine_calls else "csp" not in given
        domains = given["domains"]
        assert isinstance(domains, dict) and all(type(v) is int and type(d) is tuple for v, d in domains.items())
    assert type(dict(zip(("scope", "domains"), seen["constraint_bounds"]))["scope"]) is tuple
