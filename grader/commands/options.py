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


@dataclass(frozen=True)
class CheckOptions:
    """`python -m grader check PATH...`."""

    paths: tuple[Path, ...]
    json: Path | None
    config: Path | None


@dataclass(frozen=True)
class ReleaseOptions:
    """`python -m grader release OUT_DIR`."""

    out: Path
    problems: Path
    allow_solutions: bool


@dataclass(frozen=True)
class BundleOptions:
    """`python -m grader gradescope-bundle OUT.zip`."""

    out: Path
    problems: Path
    public_hook_cases: bool
    unseeded_agent_games: bool
    test: tuple[Path, ...] | None
    keep: Path | None


@dataclass(frozen=True)
class BundleTestOptions:
    """`python -m grader gradescope-test AUTOGRADER.zip SUBMISSION...`."""

    zip: Path
    submissions: tuple[Path, ...]
    keep: Path | None


@dataclass(frozen=True)
class PrairieLearnOptions:
    """`python -m grader prairielearn OUT_DIR`."""

    out: Path
    problems: Path
    image: str | None
    job_timeout: int
    uuid: str | None
    public_hook_cases: bool
    unseeded_agent_games: bool


@dataclass(frozen=True)
class InsightsOptions:
    """`python -m grader insights RESULTS_DIR`."""

    results: Path
    html: Path | None
    csv_dir: Path | None
    against: Path | None


@dataclass(frozen=True)
class ReexportOptions:
    """`python -m grader reexport RESULTS_DIR`."""

    results: Path
    csv: Path | None
    roster: Path | None
    gradebook: str | None
    assignment: str
    missing: str | None
