"""The kit's parts, read from its own `pyproject.toml`: the packages it installs, and the
one among them that stays with the instructor."""

from __future__ import annotations

import tomllib
from pathlib import Path

from solvers.cliargs import ANSWER_KEY  # the package the student copy leaves out


def kit_packages(source: Path) -> list[str]:
    """The top-level packages the kit at `source` installs (its setuptools `include`)."""
    with open(source / "pyproject.toml", "rb") as file:
        data = tomllib.load(file)
    patterns = data["tool"]["setuptools"]["packages"]["find"]["include"]
    return sorted({pattern.split(".")[0].rstrip("*") for pattern in patterns})


def student_packages(source: Path) -> list[str]:
    """The packages of the student copy: every one but the answer key."""
    return [name for name in kit_packages(source) if name != ANSWER_KEY]
