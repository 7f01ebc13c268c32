"""What several commands share: the exit status of a run the grader could not grade, and
the check that a command which writes the kit's own files runs from a source checkout."""

from __future__ import annotations

from grader.inputs.submission import KIT_ROOT
from solvers.cliargs import UsageError

NOT_GRADED_EXIT = 3  # the grader could not grade: nothing was scored


def need_source_checkout(command: str) -> None:
    """UsageError unless the kit runs from a source checkout (a wheel or `pip install .`
    has no pyproject.toml, and its files are not the ones anybody publishes or commits)."""
    if not (KIT_ROOT / "pyproject.toml").is_file():
        raise UsageError(f"{command} needs a source checkout of the kit (this one is installed without its pyproject.toml)")
