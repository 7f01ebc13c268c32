"""Which files a grading run reads: the solver's hooks and the playing agent.

A submission is found by what it defines, not by its file names: the hooks file is the
Python file that defines the most hooks, the agent the one that defines `choose_move`.
Files are read with `ast` (`pyfacts`, in a process of its own), never run.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from grader.hooktable import AGENT_NAME
from grader.hooktable import SOLVER_HOOK_NAMES as HOOK_NAMES
from grader.inputs.pyfacts import facts, facts_of

KIT_ROOT = Path(__file__).resolve().parents[2]
MAX_SCANNED = 200  # Python files looked at in one submission folder
WHAT_TO_SUBMIT = (
    "submit a .py file defining constraint_bounds, forward_check, select_variable and order_values "
    "(and at_least_clauses, at_most_clauses for part 2; choose_move, in its own file or the same one, "
    "for part 3)"
)


#: The names the grader looks for in a submission's files.
WANTED = frozenset((*HOOK_NAMES, AGENT_NAME))


@dataclass(frozen=True)
class Found:
    """What a submission folder holds: its hooks file and its agent file (either may be
    None), and "file: why" for each file that could not be read."""

    hooks: Path | None
    agent: Path | None
    unread: tuple[str, ...] = ()
    rivals: tuple[Path, ...] = ()  # other files that define hooks too (the hooks file defines the most)


def find_in_folder(folder: Path) -> Found:
    """The hooks file and the agent file of a submission folder."""
    return found_among([p for p in folder.rglob("*.py") if p.is_file() and not p.is_symlink()])


def found_among(files: list[Path]) -> Found:
    """The hooks file (the most hooks defined; a file that cannot be read still counts
    as the hooks file when it is the only one) and the agent file among a submission's
    files (its `.py` files outside __pycache__ are looked at, the first MAX_SCANNED in order)."""
    files = sorted(p for p in files if p.suffix == ".py" and "__pycache__" not in p.parts)[:MAX_SCANNED]
    read = facts(files, WANTED)
    scored = [(len(read[p].names & set(HOOK_NAMES)), p) for p in files]
    best = max((count for count, _ in scored), default=0)
    hooks = next((p for count, p in scored if count == best and best > 0), None)
    if hooks is None and len(files) == 1:
        hooks = files[0]  # one file that defines nothing recognisable: grade it, its errors explain why
    agent = next((p for p in files if AGENT_NAME in read[p].names), None)
    rivals = tuple(p for count, p in scored if count > 0 and p != hooks)
    return Found(hooks, agent, tuple(f"{p.name} {read[p].unread}" for p in files if read[p].unread), rivals)


def resolve_solver(name: str) -> str | None:
    """ "reference", or the path of the hooks file to grade: `name` itself, the hooks file
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
    if own_agent(hooks):
        return str(hooks)
    beside = hooks.with_name("agent.py")
    return str(beside) if beside.is_file() else None


def own_agent(hooks: Path) -> Path | None:
    """`hooks` itself when it defines choose_move (None when it does not, or cannot be read)."""
    return hooks if AGENT_NAME in facts_of(hooks, WANTED).names else None


def solved_hooks(folder: Path, pattern: str = "*.py") -> list[str]:
    """ "file: name" for every hook or agent function in `folder` (its files matching
    `pattern`) that is not a stub; SyntaxError naming the file when one cannot be read."""
    found = []
    paths = [p for p in sorted(folder.glob(pattern)) if p.is_file()]
    read = facts(paths, WANTED)
    for path in paths:
        if read[path].unread:
            raise SyntaxError(f"{path.name} {read[path].unread}")
        found += [f"{path.name}: {name}" for name in read[path].written]
    return found


def hooks_calling_hooks(source: Path) -> tuple[tuple[str, str], ...]:
    """(hook, another hook it calls by name) for the top-level hook functions of `source`,
    read without running it; () when it cannot be read."""
    return tuple(sorted(pair for pair in facts_of(source, WANTED).calls if pair[0] in HOOK_NAMES and pair[1] in HOOK_NAMES))
