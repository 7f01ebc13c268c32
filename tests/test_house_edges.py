"""Two of the house's edges, checked in the kit's source: argparse's Namespace stays where
a command starts (read once into the command's typed record by
`solvers.cliargs.read_options`; nothing below takes it), and no module reaches into
another's private names (`from M import _name`, `M._name`)."""

from __future__ import annotations

import ast
import re
from pathlib import Path

from conftest import python_tree

ROOT = Path(__file__).resolve().parents[1]
KIT_PACKAGES = ("grader", "solvers", "answerkey", "play", "assignment")
#: Where a Namespace may be named: the one reading of a parse into a record, and argparse's Action protocol.
PARSING_MODULE = "solvers/cliargs.py"


def _kit_files(root: Path, packages: tuple[str, ...]) -> dict[str, Path]:
    return {
        ".".join(path.relative_to(root).with_suffix("").parts).removesuffix(".__init__"): path
        for package in packages
        for path in sorted((root / package).rglob("*.py"))
    }


def _private(name: str) -> bool:
    return name.startswith("_") and not name.startswith("__")


def _dotted(node: ast.AST) -> str | None:
    """`a.b.c` for a name or a chain of attributes of one, else None."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        owner = _dotted(node.value)
        return None if owner is None else f"{owner}.{node.attr}"
    return None


def _calls(node: ast.AST, name: str) -> bool:
    """`node` calls a function or method whose own name is `name` (`x.name(...)`, `name(...)`)."""
    if not isinstance(node, ast.Call):
        return False
    return (node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", None)) == name


def _namespace_leaks(tree: ast.AST) -> list[str]:
    """Where a parse leaves the edge: a parameter typed Namespace, or a parse (the result
    of `parse_args`) used other than by attribute or handed whole to `read_options`."""
    found: list[str] = []
    functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
    parses = False
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            functions.append(node)
        parses = parses or _calls(node, "parse_args")
    for function in functions:
        arguments = function.args
        every = arguments.posonlyargs + arguments.args + arguments.kwonlyargs + [a for a in (arguments.vararg, arguments.kwarg) if a]
        found += [
            f"line {function.lineno}: {function.name}({a.arg}) takes a Namespace"
            for a in every
            if a.annotation is not None and re.search(r"\bNamespace\b", ast.unparse(a.annotation))
        ]
        found += _parses_leaving(function) if parses else []
    return found


def _reads(call: ast.AST) -> bool:
    return _calls(call, "read_options")


def _parses_leaving(function: ast.FunctionDef | ast.AsyncFunctionDef) -> list[str]:
    """In `function`'s own body: parses bound to a name used whole (not `name.attr`) other
    than as an argument of `read_options`, and parses neither bound, discarded, nor taken by read_options."""
    parents = {child: parent for parent in ast.walk(function) for child in ast.iter_child_nodes(parent)}
    found, names = [], set()
    for node in ast.walk(function):
        if _calls(node, "parse_args"):
            parent = parents.get(node)
            if isinstance(parent, ast.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], ast.Name):
                names.add(parent.targets[0].id)
            elif not _reads(parent) and not isinstance(parent, ast.Expr):  # discarded: a command with no options but --help
                found.append(f"line {node.lineno}: a parse not read into a record")
    for node in ast.walk(function):
        if isinstance(node, ast.Name) and node.id in names and isinstance(node.ctx, ast.Load):
            parent = parents.get(node)
            if not (isinstance(parent, ast.Attribute) and parent.value is node) and not _reads(parent):
                found.append(f"line {node.lineno}: the parse {node.id} handed on whole")
    return found


def test_a_namespace_never_leaves_the_start_of_a_command() -> None:
    leaks = {}
    for path in _kit_files(ROOT, KIT_PACKAGES).values():
        if str(path.relative_to(ROOT)) != PARSING_MODULE and (found := _namespace_leaks(python_tree(path))):
            leaks[str(path.relative_to(ROOT))] = found
    assert not leaks, f"read the parse into the command's record (solvers.cliargs.read_options) where it starts: {leaks}"


def test_the_namespace_check_sees_each_way_out() -> None:
    sample = """
def typed(args: argparse.Namespace) -> int: ...
def mixed(spec: SimpleNamespace, *rest: "Namespace"): ...
def command(argv):
    args = parser().parse_args(argv)
    helper(args.jobs)
    return run(args)
def good(argv):
    args = parser().parse_args(argv)
    return run(read_options(Record, args), args.jobs)
def direct(argv):
    return run(cliargs.read_options(Record, parser().parse_args(argv)))
def unbound(argv):
    return run(parser().parse_args(argv))
def no_options(argv):
    parser().parse_args(argv)
"""
    assert _namespace_leaks(ast.parse(sample)) == [
        "line 2: typed(args) takes a Namespace",
        "line 3: mixed(rest) takes a Namespace",
        "line 7: the parse args handed on whole",
        "line 14: a parse not read into a record",
    ]


def _private_reaches(module: str, path: Path, modules: set[str], packages: tuple[str, ...]) -> set[tuple[str, str]]:
    """(module, name) of each private name of another kit module that `module` imports or
    reads as an attribute of that module."""
    tree = python_tree(path)
    package = module if path.name == "__init__.py" else module.rpartition(".")[0]
    aliases, found = {name: name for name in modules}, set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            base = ".".join(package.split(".")[: len(package.split(".")) - node.level + 1]) if node.level else ""
            source = ".".join(part for part in (base, node.module or "") if part)
            if source.split(".")[0] not in packages:
                continue
            for alias in node.names:
                if f"{source}.{alias.name}" in modules:
                    aliases[alias.asname or alias.name] = f"{source}.{alias.name}"
                elif _private(alias.name) and source != module:
                    found.add((source, alias.name))
        elif isinstance(node, ast.Import):
            aliases |= {alias.asname: alias.name for alias in node.names if alias.asname and alias.name in modules}
    for node in ast.walk(tree):
        if isinstance(node, ast.Attribute) and _private(node.attr):
            owner = aliases.get(_dotted(node.value) or "")
            if owner is not None and owner != module:
                found.add((owner, node.attr))
    return found


def _all_private_reaches(root: Path, packages: tuple[str, ...]) -> set[tuple[str, str, str]]:
    files = _kit_files(root, packages)
    return {(str(path.relative_to(root)), *reach) for module, path in files.items() for reach in _private_reaches(module, path, set(files), packages)}


def test_no_private_name_is_imported_across_modules() -> None:
    """What another module needs is public (a name without the underscore) or lives with it."""
    found = _all_private_reaches(ROOT, KIT_PACKAGES)
    assert not found, f"private names used across modules: {sorted(found)}"


def test_the_private_name_check_sees_each_kind(tmp_path: Path) -> None:
    files = {
        "pkg/__init__.py": "from . import _inner\n",
        "pkg/_inner.py": "_hidden = 1\n",
        "pkg/low.py": "_x = 1\n__all__ = []\ndef f():\n    return _x\n",
        "pkg/sub/__init__.py": "",
        "pkg/sub/high.py": (
            "import pkg.low\nimport pkg.low as low_alias\nfrom pkg import low\nfrom ..low import _x, __all__\n"
            "from json import _default_decoder\nfrom pkg.low import f as _f\n"
            "def g():\n    from pkg.low import _y\n    return low._z, low_alias._w, pkg.low._v, pkg.low.__name__, _f\n"
        ),
    }
    for name, text in files.items():
        (tmp_path / name).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / name).write_text(text, encoding="utf-8")
    assert _all_private_reaches(tmp_path, ("pkg",)) == {("pkg/sub/high.py", "pkg.low", name) for name in ("_x", "_y", "_z", "_w", "_v")}
