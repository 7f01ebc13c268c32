"""The kit's parts, read from its own `pyproject.toml`: the packages it installs, the one
among them that stays with the instructor, its version and its dependencies."""

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


def kit_version(source: Path) -> str:
    """The version of the kit at `source`."""
    with open(source / "pyproject.toml", "rb") as file:
        return str(tomllib.load(file)["project"]["version"])


def kit_requirements(source: Path) -> str:
    """The dependencies of the kit at `source` as its pyproject gives them (ranges), one a
    line: what the PrairieLearn image installs, pinned by constraints.txt."""
    with open(source / "pyproject.toml", "rb") as file:
        dependencies = tomllib.load(file)["project"]["dependencies"]
    return "".join(f"{line}\n" for line in dependencies)
