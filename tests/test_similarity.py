"""`python -m grader similarity CLASS_DIR --out report.html`: a class of honest, independent
solutions with one planted copy (another student's file with every variable renamed,
its functions in another order and its comments gone): the copy ranks first, and two
students who handed in the untouched stubs share nothing (the stubs are boilerplate)."""

from __future__ import annotations

import ast
import importlib.util
import re
import shutil
from pathlib import Path

import pytest
from conftest import ROOT, STUDENT_FILES, needed, run_grader

CLASS = STUDENT_FILES / "similarity_class"


@pytest.fixture(autouse=True)
def copydetect_installed() -> None:
    missing = importlib.util.find_spec("copydetect") is None
    needed("the similarity report", 'copydetect is not installed: pip install -e ".[test]"' if missing else None)


def planted_copy(source: str) -> str:
    """`source` disguised: every argument, local variable and helper renamed, the
    functions in reverse order, the docstrings and comments dropped."""
    tree = ast.parse(source)
    renames: dict[str, str] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.arg):
            renames.setdefault(node.arg, f"p{len(renames)}")
        elif isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            renames.setdefault(node.id, f"t{len(renames)}")
        elif isinstance(node, ast.FunctionDef) and node.name.startswith("_"):
            renames.setdefault(node.name, f"helper{len(renames)}")

    class Rename(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.Name:
            node.id = renames.get(node.id, node.id)
            return node

        def visit_arg(self, node: ast.arg) -> ast.arg:
            node.arg = renames[node.arg]
            return node

        def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.FunctionDef:
            node.name = renames.get(node.name, node.name)
            if node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant):
                node.body = node.body[1:] or [ast.Pass()]
            self.generic_visit(node)
            return node

    tree = Rename().visit(tree)
    functions = [node for node in tree.body if isinstance(node, ast.FunctionDef)]
    others = [
        node
        for node in tree.body
        if not isinstance(node, ast.FunctionDef) and not (isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant))
    ]
    tree.body = others + functions[::-1]
    return ast.unparse(ast.fix_missing_locations(tree)) + "\n"


def module(text: str) -> dict:
    namespace: dict = {}
    exec(compile(text, "<student>", "exec"), namespace)
    return namespace


def test_the_planted_copy_ranks_first_and_the_stubs_share_nothing(tmp_path: Path) -> None:
    folder = tmp_path / "class"
    folder.mkdir()
    shutil.copyfile(STUDENT_FILES / "model_answer.py", folder / "alice.py")
    shutil.copyfile(STUDENT_FILES / "standalone_correct.py", folder / "bob.py")
    for name in ("carol", "dave", "erin"):
        shutil.copyfile(CLASS / f"{name}.py", folder / f"{name}.py")
    carol = (CLASS / "carol.py").read_text(encoding="utf-8")
    copy = planted_copy(carol)
    (folder / "mallory").mkdir()  # a folder submission, as any other
    (folder / "mallory" / "hooks.py").write_text(copy, encoding="utf-8")
    for name in ("sam", "sue"):  # handed in the stubs untouched
        shutil.copyfile(ROOT / "assignment" / "hooks.py", folder / f"{name}.py")
    (folder / "trudy.py").symlink_to(folder / "alice.py")  # refused, as grading refuses it
    original, disguised = module(carol), module(copy)
    assert copy.count("def ") == carol.count("def ") and "lowest" not in copy and "Carol" not in copy
    assert all(original[name]([1, 2, 3, 4], 2) == disguised[name]([1, 2, 3, 4], 2) for name in ("at_least_clauses", "at_most_clauses"))

    report = tmp_path / "report.html"
    result = run_grader("similarity", folder, "--out", report, "--top", "40", cwd=tmp_path, timeout=300)
    assert result.returncode == 0 and "Traceback" not in result.stdout + result.stderr, result.stdout + result.stderr
    ranked = re.findall(r"│\s*(\d+)\s*│\s*(\S+)\s*│\s*(\S+)\s*│\s*(\d+)% / (\d+)%\s*│\s*(\d+)\s*│", result.stdout)
    assert len(ranked) == 28, result.stdout  # 8 submissions compared, trudy refused
    first = ranked[0]
    assert {first[1], first[2]} == {"carol", "mallory"} and min(int(first[3]), int(first[4])) >= 60, result.stdout
    second = max(int(r[3]) for r in ranked[1:]), max(int(r[4]) for r in ranked[1:])
    assert max(second) <= max(int(first[3]), int(first[4])) - 20, result.stdout  # by a clear margin
    [stubs] = [r for r in ranked if {r[1], r[2]} == {"sam", "sue"}]
    assert stubs[3:] == ("0", "0", "0"), stubs  # identical files, all of it handed out
    assert "not compared: trudy: trudy.py is a symbolic link" in " ".join(result.stdout.split())
    html = report.read_text(encoding="utf-8")
    top = re.search(r"id='pair-1'[^>]*><summary>.*?<i>(\w+)</i>.*?<i>(\w+)</i>", html)  # the report names students
    assert top and {top[1], top[2]} == {"carol", "mallory"} and "similarity-" not in html and "<html" in html.lower()
    again = run_grader("similarity", folder, "--out", report, "--top", "40", cwd=tmp_path, timeout=300)
    assert again.stdout == result.stdout and report.read_text(encoding="utf-8") == html  # the same class, the same report


def test_a_class_of_one_is_refused_in_one_line(tmp_path: Path) -> None:
    (tmp_path / "class").mkdir()
    shutil.copyfile(STUDENT_FILES / "model_answer.py", tmp_path / "class" / "alice.py")
    result = run_grader("similarity", tmp_path / "class", "--out", tmp_path / "r.html", cwd=tmp_path)
    assert result.returncode == 2 and "at least two are needed" in result.stdout and not (tmp_path / "r.html").exists()
