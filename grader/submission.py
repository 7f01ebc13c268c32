"""Which files a grading run reads: the solver's hooks and the playing agent."""

from __future__ import annotations

from pathlib import Path

KIT_ROOT = Path(__file__).resolve().parent.parent


def resolve_solver(name: str) -> str | None:
    """"reference", or the path of the hooks file to grade (None when it does not exist)."""
    if name == "reference":
        return name
    if name == "assignment":
        local = Path("assignment/hooks.py")
        path = local if local.exists() else KIT_ROOT / "assignment" / "hooks.py"
    else:
        path = Path(name)
    return str(path.resolve()) if path.is_file() and path.suffix == ".py" else None


def resolve_agent(explicit: str | None, solver: str) -> str | None:
    """The agent to play: the one named, the reference's, or one found beside the solver's file."""
    if explicit is not None:
        path = Path(explicit)
        return str(path.resolve()) if path.is_file() else None
    if solver == "reference":
        return "reference"
    hooks = Path(solver)
    if "def choose_move" in hooks.read_text(encoding="utf-8", errors="replace"):
        return str(hooks)
    beside = hooks.with_name("agent.py")
    return str(beside) if beside.is_file() else None
