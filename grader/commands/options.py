"""The grader's commands' options as typed records: each command reads its parse once
into its record where it starts (`solvers.cliargs.read_options`), and everything below
takes the record. The parsers (names, defaults, help) stay beside their commands; a
field is named as the option's `dest`."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class GradeOptions:
    """`python -m grader PATH...`: one solver graded, a class (--submissions), a rerun
    (--case), a trace (--trace) or the strategies compared (--compare)."""

    paths: tuple[Path, ...]
    solver: str
    json: Path | None
    timeout: float | None
    jobs: int
    config: Path | None
    format: str
    output: Path | None
    submissions: Path | None
    csv: Path
    roster: Path | None
    gradebook: str | None
    assignment: str
    show_hidden: bool
    agent: str | None
    isolation: str
    only: str | None
    case: str | None
    trace: str | None
    against: str | None
    compare: bool
    max_steps: int
    compact: bool
    tree: bool
    export: Path | None


@dataclass(frozen=True)
class SimilarityOptions:
    """`python -m grader similarity CLASS_DIR`."""

    folder: Path
    out: Path
    boilerplate: tuple[Path, ...]
    top: int
