"""What several commands share: the exit status of a run the grader could not grade, the
check that a command which writes the kit's own files runs from a source checkout, and
which kit grades when the problems belong to another copy of it."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from grader.inputs.submission import KIT_ROOT
from solvers.cliargs import UsageError

NOT_GRADED_EXIT = 3  # the grader could not grade: nothing was scored


def need_source_checkout(command: str) -> None:
    """UsageError unless the kit runs from a source checkout (a wheel or `pip install .`
    has no pyproject.toml, and its files are not the ones anybody publishes or commits)."""
    if not (KIT_ROOT / "pyproject.toml").is_file():
        raise UsageError(f"{command} needs a source checkout of the kit (this one is installed without its pyproject.toml)")


def other_kit(paths: Sequence[Path]) -> Path | None:
    """The root of another copy of the kit (a folder holding `grader/` and `solvers/`, not
    this one) that holds one of `paths`, else None: a student copy's problems graded by a
    kit installed elsewhere (the instructor's, say), which grades with its own files."""
    own = KIT_ROOT.resolve()
    for path in paths:
        start = path.resolve()
        for folder in (start, *start.parents):
            if (folder / "grader" / "__init__.py").is_file() and (folder / "solvers").is_dir():
                if folder != own:
                    return folder
                break
    return None


def which_kit(paths: Sequence[Path]) -> str | None:
    """The line saying which kit grades, when `other_kit` finds the problems in another copy."""
    other = other_kit(paths)
    if other is None:
        return None
    return (
        f"note: the kit at {KIT_ROOT} grades this (this environment's, its own grader and cases), not the copy at {other} "
        f"that holds the problems: to grade with that copy's files, run python -m grader from inside {other}"
    )
