"""Each command reads its command line once into its typed record (`read_options`): the
record each command of `python -m grader`, `python -m solvers` and `python -m play`
starts from, caught as the command reads it, holds every option of its parser with the
types the code below relies on; a bad value or a missing file is one line, exit 2, no
traceback."""

from __future__ import annotations

import argparse
import dataclasses
import importlib
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

import grader.commands.cli
import play.cli
import solvers.cli
import solvers.cliargs
from answerkey.instructor.solving.generate import HintsOptions, StatusOptions
from answerkey.instructor.solving.grid import GridOptions
from answerkey.instructor.solving.sat import SatOptions
from answerkey.instructor.solving.trace import BoardTraceOptions
from grader.commands.options import (
    BundleOptions,
    BundleTestOptions,
    CheckOptions,
    GradeOptions,
    InsightsOptions,
    PrairieLearnOptions,
    ReexportOptions,
    ReleaseOptions,
    SimilarityOptions,
)
from grader.inputs.submission import KIT_ROOT
from play.cli import BenchOptions, GameOptions

#: What a parse holds besides the options: how `python -m solvers` finds its subcommand.
DISPATCH = {"command", "kind", "run", "options"}

MAINS: dict[str, Callable[[list[str]], int]] = {"grader": grader.commands.cli.main, "solvers": solvers.cli.main, "play": play.cli.main}
#: The module whose `read_options` each program's commands call (besides solvers.cliargs').
READERS = {
    "grader": ("grader.commands.cli", "grader.commands.grade", "grader.commands.insights", "grader.commands.reexport"),
    "solvers": ("solvers.cli",),
    "play": ("play.cli",),
}


class Read(Exception):
    """Raised by the spy once the command has read its record: the command goes no further."""

    def __init__(self, record: Any, parsed: argparse.Namespace) -> None:
        super().__init__("read")
        self.record, self.parsed = record, parsed


def read(monkeypatch: pytest.MonkeyPatch, program: str, argv: list[str]) -> Any:
    """The record `program`'s command line `argv` starts from (the command stops there),
    after checking that it holds exactly the options its parser parsed."""
    real = solvers.cliargs.read_options

    def spy(record: type, args: argparse.Namespace) -> Any:
        raise Read(real(record, args), args)

    modules = [importlib.import_module(module) for module in READERS[program]]  # first: each imports the real one
    for module in [solvers.cliargs, *modules]:
        monkeypatch.setattr(module, "read_options", spy)
    with pytest.raises(Read) as caught:
        MAINS[program](argv)
    record, parsed = caught.value.record, caught.value.parsed
    assert {field.name for field in dataclasses.fields(record)} == set(vars(parsed)) - DISPATCH, "an option its record does not hold"
    return record


READS = [
    (
        "grader",
        ["problems", "more.yaml", "--jobs", "2", "--timeout", "1.5", "--csv", "class.csv", "--trace", "b1", "--max-steps", "9"],
        GradeOptions,
        dict(paths=(Path("problems"), Path("more.yaml")), jobs=2, timeout=1.5, csv=Path("class.csv"), trace="b1", max_steps=9, isolation="auto"),
    ),
    ("grader", ["problems"], GradeOptions, dict(jobs=os.cpu_count() or 1, timeout=None, csv=Path("grades.csv"), solver="assignment", format="table")),
    ("grader", ["check", "a.yaml", "b.yaml", "--json", "x.json"], CheckOptions, dict(paths=(Path("a.yaml"), Path("b.yaml")), json=Path("x.json"))),
    ("grader", ["release", "out"], ReleaseOptions, dict(out=Path("out"), problems=KIT_ROOT / "problems", allow_solutions=False)),
    (
        "grader",
        ["gradescope-bundle", "a.zip", "--test", "s.py", "folder", "--keep", "kept"],
        BundleOptions,
        dict(out=Path("a.zip"), test=(Path("s.py"), Path("folder")), keep=Path("kept"), public_hook_cases=False),
    ),
    (
        "grader",
        ["gradescope-test", "a.zip", "s.py", "t"],
        BundleTestOptions,
        dict(zip=Path("a.zip"), submissions=(Path("s.py"), Path("t")), keep=None),
    ),
    ("grader", ["prairielearn", "out", "--job-timeout", "60"], PrairieLearnOptions, dict(out=Path("out"), job_timeout=60, uuid=None)),
    (
        "grader",
        ["similarity", "class", "--boilerplate", "a.py", "stubs", "--top", "3"],
        SimilarityOptions,
        dict(folder=Path("class"), boilerplate=(Path("a.py"), Path("stubs")), top=3, out=Path("similarity.html")),
    ),
    ("grader", ["insights", "r", "--csv-dir", "d"], InsightsOptions, dict(results=Path("r"), csv_dir=Path("d"), html=None)),
    (
        "grader",
        ["reexport", "r", "--roster", "roster.csv", "--gradebook", "canvas"],
        ReexportOptions,
        dict(results=Path("r"), roster=Path("roster.csv"), gradebook="canvas", assignment="Minesweeper CSP", missing=None),
    ),
    ("solvers", ["sat", "board.txt", "--mines", "3", "--count"], SatOptions, dict(file="board.txt", mines=3, count=True, all=False)),
    ("solvers", ["grid", "--all", "--method", "brute"], GridOptions, dict(file=None, all=True, method="brute", mines=None)),
    (
        "solvers",
        ["trace", "b.txt", "--only", "solutions", "--export", "t.svg"],
        BoardTraceOptions,
        dict(only="solutions", export=Path("t.svg"), max_steps=200),
    ),
    ("solvers", ["generate", "hints", "--count", "4", "-o", "x.yaml"], HintsOptions, dict(count=4, output="x.yaml", seed=0, prefix="gen", rows=6)),
    ("solvers", ["generate", "status", "-N", "3", "-P", "12.5"], StatusOptions, dict(rows=3, percent=12.5, count=10, prefix="status")),
    ("play", ["bench", "--games", "5", "--json", "out.json"], BenchOptions, dict(games=5, json=Path("out.json"), level="expert", seed=0, jobs=1)),
    ("play", ["--level", "expert", "--seed", "-7"], GameOptions, dict(level="expert", seed=-7, rules=None)),
]


@pytest.mark.parametrize(("program", "argv", "record", "expected"), READS, ids=lambda value: " ".join(value) if isinstance(value, list) else None)
def test_each_command_reads_its_record_with_its_types(
    monkeypatch: pytest.MonkeyPatch, program: str, argv: list[str], record: type, expected: dict[str, object]
) -> None:
    options = read(monkeypatch, program, argv)
    assert type(options) is record
    assert {name: getattr(options, name) for name in expected} == expected
    with pytest.raises(dataclasses.FrozenInstanceError):
        options.__setattr__(dataclasses.fields(options)[0].name, None)  # read once: nothing below writes into it


def test_every_record_is_read_by_a_test_above() -> None:
    """A command given a record later is added to READS (its options checked as above)."""
    modules = ["grader.commands.options", "play.cli", *(f"answerkey.instructor.solving.{name}" for name in solvers.cli.COMMANDS)]
    classes = {value for module in modules for value in vars(importlib.import_module(module)).values() if isinstance(value, type)}
    records = {c for c in classes if dataclasses.is_dataclass(c) and c.__name__.endswith("Options") and not c.__subclasses__()}
    assert records == {record for _, _, record, _ in READS}


def test_a_field_its_parser_does_not_fill_is_named() -> None:
    @dataclasses.dataclass(frozen=True)
    class Record:
        jobs: int
        paths: tuple[Path, ...]

    assert solvers.cliargs.read_options(Record, argparse.Namespace(jobs=2, paths=[Path("a")], run=None)) == Record(2, (Path("a"),))
    with pytest.raises(KeyError, match="paths"):
        solvers.cliargs.read_options(Record, argparse.Namespace(jobs=2))


def see(command: str) -> str:
    return f" (see 'python -m {command} --help')"


#: (program, argv, the one line it prints): a bad number or a missing file for each command;
#: {missing} is a path that does not exist, {file} a file, {tmp} an empty folder.
BAD = [
    ("grader", ["problems", "--jobs", "two"], "argument --jobs: expected a positive whole number, got 'two'" + see("grader")),
    (
        "grader",
        ["problems", "--timeout", "-1"],
        "argument --timeout: expected a positive, finite number of seconds, got '-1'" + see("grader"),
    ),
    ("grader", ["{missing}"], "{missing}: does not exist; nothing was graded"),
    ("grader", ["problems", "--agent", "{missing}"], "--agent {missing}: no such file; nothing was graded"),
    ("grader", ["problems", "--trace", "b1", "--only", "agent"], "--only agent: with --trace, one of all, dead-ends, solutions"),
    ("grader", ["check", "problems", "--json", "{missing}/x.json"], "--json {missing}/x.json: the folder {missing} does not exist"),
    ("grader", ["release"], "the following arguments are required: OUT_DIR" + see("grader release")),
    ("grader", ["gradescope-bundle", "{tmp}/a.zip", "--problems", "{missing}"], "--problems {missing}: not a folder"),
    ("grader", ["gradescope-test", "{missing}", "{file}"], "{missing}: does not exist; nothing was run"),
    (
        "grader",
        ["prairielearn", "{tmp}/pl", "--job-timeout", "ten"],
        "argument --job-timeout: invalid int value: 'ten'" + see("grader prairielearn"),
    ),
    ("grader", ["prairielearn", "{tmp}/pl", "--uuid", "not-one"], "--uuid not-one: not a uuid"),
    ("grader", ["similarity", "{missing}"], "{missing}: not a folder nor a zip"),
    (
        "grader",
        ["similarity", "{tmp}", "--top", "0"],
        "argument --top: expected a positive whole number, got '0'" + see("grader similarity"),
    ),
    ("grader", ["insights", "{missing}", "--csv-dir", "{file}"], "--csv-dir {file}: is a file; name a folder"),
    ("grader", ["reexport", "{missing}", "--missing", "zero"], "--missing goes with --gradebook"),
    ("solvers", ["sat", "{missing}"], "{missing}: No such file or directory"),
    ("solvers", ["sat", "--mines", "three"], "argument --mines: invalid int value: 'three'" + see("solvers sat")),
    ("solvers", ["grid", "{missing}"], "{missing}: No such file or directory"),
    ("solvers", ["trace", "{missing}"], "{missing}: No such file or directory"),
    (
        "solvers",
        ["generate", "hints", "--count", "0"],
        "argument --count: expected a positive whole number, got '0'" + see("solvers generate hints"),
    ),
    ("solvers", ["generate", "status", "--percent", "200"], "--percent must be between 0 and 100"),
    ("play", ["bench", "--games", "many"], "argument --games: expected a positive whole number, got 'many'" + see("play bench")),
    ("play", ["--seed", "x"], "argument --seed: expected a whole number, got 'x'" + see("play")),
]


@pytest.mark.parametrize(("program", "argv", "line"), BAD, ids=lambda value: " ".join(value) if isinstance(value, list) else None)
def test_a_bad_value_or_missing_file_is_one_line(
    program: str, argv: list[str], line: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    places = {"missing": tmp_path / "missing", "file": tmp_path / "a-file", "tmp": tmp_path}
    places["file"].write_text("", encoding="utf-8")
    monkeypatch.chdir(KIT_ROOT)  # `problems` is the kit's
    status = MAINS[program]([arg.format(**places) for arg in argv])
    out, err = capsys.readouterr()
    said = [text for text in (out + err).splitlines() if text.strip()]
    assert status == 2
    assert said == [f"error: {line.format(**places)}"], said
    assert "Traceback" not in out + err


def command_of(program: str, argv: list[str]) -> tuple[str, ...]:
    """The command an argv runs: its program and its command words (none for grading, or the game)."""
    words = {"grader": set(grader.commands.cli.COMMANDS), "solvers": {"sat", "grid", "trace", "generate", "hints", "status"}, "play": {"bench"}}
    return (program, *[word for word in argv[:2] if word in words[program]])


def test_every_command_that_reads_a_record_meets_a_bad_value() -> None:
    read_by = {command_of(program, argv) for program, argv, _, _ in READS}
    assert len(read_by) == len({record for _, _, record, _ in READS})  # one command per record
    assert read_by == {command_of(program, argv) for program, argv, _ in BAD}
