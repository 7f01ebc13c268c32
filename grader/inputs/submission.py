"""Which files a grading run reads: the solver's hooks and the playing agent.

A submission is found by what it defines, not by its file names: the hooks file is the
Python file that defines the most hooks, the agent the one that defines `choose_move`.
Files are read with `ast`, never run, here in the grader.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from pathlib import Path

from grader.hooktable import AGENT_NAME
from grader.hooktable import SOLVER_HOOK_NAMES as HOOK_NAMES

KIT_ROOT = Path(__file__).resolve().parents[2]
MAX_SCANNED = 200  # Python files looked at in one submission folder
WHAT_TO_SUBMIT = ("submit a .py file defining constraint_bounds, forward_check, select_variable and order_values "
                  "(and at_least_clauses, at_most_clauses for part 2; choose_move, in its own file or the same one, "
                  "for part 3)")


def defined_names(path: Path) -> set[str]:
    """The top-level names a Python file defines (functions, assignments, imports); empty
    when it is not valid Python."""
    try:
        tree = ast.parse(path.read_text(encoding="utf-8", errors="replace"))
    except (SyntaxError, ValueError, OSError):
        return set()
    names: set[str] = set()
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((alias.asname or alias.name).split(".")[0] for alias in node.names)
    return names


@dataclass(frozen=True)
class Found:
    """What a submission folder holds: its hooks file and its agent file (either may be None)."""

    hooks: Path | None
    agent: Path | None


def find_in_folder(folder: Path) -> Found:
    """The hooks file and the agent file of a submission folder."""
    return found_among([p for p in folder.rglob("*.py") if p.is_file() and not p.is_symlink()])


def found_among(files: list[Path]) -> Found:
    """The hooks file (the most hooks defined; a syntax error still counts as the hooks
    file when it is the only one) and the agent file among a submission's files (its
    `.py` files outside __pycache__ are looked at, the first MAX_SCANNED in order)."""
    files = sorted(p for p in files if p.suffix == ".py" and "__pycache__" not in p.parts)[:MAX_SCANNED]
    scored = [(len(defined_names(p) & set(HOOK_NAMES)), p) for p in files]
    best = max((count for count, _ in scored), default=0)
    hooks = next((p for count, p in scored if count == best and best > 0), None)
    if hooks is None and len(files) == 1:
        hooks = files[0]  # one file that defines nothing recognisable: grade it, its errors explain why
    agent = next((p for p in files if AGENT_NAME in defined_names(p)), None)
    return Found(hooks, agent)


def resolve_solver(name: str) -> str | None:
    """"reference", or the path of the hooks file to grade: `name` itself, the hooks file
    in the folder `name`, or assignment/hooks.py (None when there is none)."""
    if name == "reference":
        return name
    if name == "assignment":
        local = Path("assignment/hooks.py")
        path = local if local.exists() else KIT_ROOT / "assignment" / "hooks.py"
    else:
        path = Path(name)
    if path.is_dir():
        found = find_in_folder(path).hooks
        return str(found.resolve()) if found else None
    return str(path.resolve()) if path.is_file() and path.suffix == ".py" else None


def resolve_agent(explicit: str | None, solver: str, folder: Path | None = None) -> str | None:
    """The agent to play: the one named, the reference's, the file of a submission
    `folder` that defines choose_move, or else the solver's file if it defines it, or
    agent.py beside it."""
    if explicit is not None:
        path = Path(explicit)
        return str(path.resolve()) if path.is_file() else None
    if solver == "reference":
        return "reference"
    if folder is not None:
        found = find_in_folder(folder).agent
        return str(found.resolve()) if found is not None else None
    hooks = Path(solver)
    if AGENT_NAME in defined_names(hooks):
        return str(hooks)
    beside = hooks.with_name("agent.py")
    return str(beside) if beside.is_file() else None


def _is_stub(function: ast.FunctionDef) -> bool:
    """True when the function only raises NotImplementedError (after its docstring)."""
    body = function.body[1:] if function.body and isinstance(function.body[0], ast.Expr) \
        and isinstance(function.body[0].value, ast.Constant) else function.body
    if len(body) != 1 or not isinstance(body[0], ast.Raise) or body[0].exc is None:
        return False
    raised = body[0].exc.func if isinstance(body[0].exc, ast.Call) else body[0].exc
    return isinstance(raised, ast.Name) and raised.id == "NotImplementedError"


def solved_hooks(folder: Path, pattern: str = "*.py") -> list[str]:
    """"file: name" for every hook or agent function in `folder` (its files matching
    `pattern`) that is not a stub; SyntaxError naming the file when one does not parse."""
    found = []
    for path in sorted(folder.glob(pattern)):
        try:
            tree = ast.parse(path.read_text(encoding="utf-8"))
        except SyntaxError as error:
            raise SyntaxError(f"{path.name} is not valid Python (line {error.lineno})") from None
        for node in tree.body:
            if isinstance(node, ast.FunctionDef) and node.name in (*HOOK_NAMES, AGENT_NAME) and not _is_stub(node):
                found.append(f"{path.name}: {node.name}")
    return found


def hooks_calling_hooks(source: Path) -> tuple[tuple[str, str], ...]:
    """(hook, another hook it calls by name) for the top-level hook functions of `source`,
    read without running it; () when it cannot be read or parsed."""
    try:
        tree = ast.parse(source.read_text(encoding="utf-8"))
    except (OSError, ValueError, SyntaxError, RecursionError, MemoryError):
        return ()
    pairs = set()
    for node in tree.body:
        if isinstance(node, ast.FunctionDef) and node.name in HOOK_NAMES:
            try:
                called = {call.func.id for call in ast.walk(node)
                          if isinstance(call, ast.Call) and isinstance(call.func, ast.Name)}
            except RecursionError:
                continue
            pairs |= {(node.name, other) for other in called & set(HOOK_NAMES) if other != node.name}
    return tuple(sorted(pairs))
