"""Bad input across every command and file format: one line, a non-zero exit, no
traceback, bounded time and memory, and (for problem files) the good file beside the bad
one still checked.

Each case is data: what it feeds which command, and a word its one line must contain.
`python tests/test_bad_inputs.py` prints the table of every case and what it got.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
GOOD = "problems:\n  - id: good-one\n    board: |\n      . 1 .\n"
COURSE = str(ROOT / "problems" / "course.yaml")


def _laughs() -> str:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, 9)]
    return "\n".join(lines) + "\nproblems: *a8\n"


def _problem(board: str = ". 1 .", **fields: str) -> str:
    extra = "".join(f"    {key}: {value}\n" for key, value in fields.items())
    rows = "".join(f"      {row}\n" for row in board.split("/"))
    return f"problems:\n  - id: p\n{extra}    board: |\n{rows}"


@dataclass(frozen=True)
class Case:
    """`argv` after `python -m`; FOLDER in it is a scratch folder holding `files`."""

    name: str
    argv: tuple[str, ...]
    words: str  # what its one line says
    files: dict[str, str | bytes] = field(default_factory=dict)
    stdin: str | None = ""  # None: standard input closed
    good_survives: bool = False  # a good problem file beside it is still checked


CASES = [
    # --- problem files (python -m grader check FOLDER, a good file beside) ---
    Case("billion laughs", ("grader", "check", "FOLDER"), "anchor or alias", {"bad.yaml": _laughs()}, good_survives=True),
    Case("deep nesting", ("grader", "check", "FOLDER"), "nested more than", {"bad.yaml": "problems: " + "[" * 5000 + "]" * 5000}, good_survives=True),
    Case("4,400-digit expect", ("grader", "check", "FOLDER"), "digits", {"bad.yaml": _problem(expect="9" * 4400)}, good_survives=True),
    Case(
        "a text of 250,000 characters", ("grader", "check", "FOLDER"), "characters", {"bad.yaml": _problem(notes="y" * 250_000)}, good_survives=True
    ),
    Case("a file over 1 MiB", ("grader", "check", "FOLDER"), "larger than", {"bad.yaml": "problems: []\n" + "#\n" * 600_000}, good_survives=True),
    Case("not UTF-8", ("grader", "check", "FOLDER"), "UTF-8", {"bad.yaml": b"problems:\n  - id: \xff\xfe\n"}, good_survives=True),
    Case("YAML syntax error", ("grader", "check", "FOLDER"), "not valid YAML", {"bad.yaml": "problems: [\n"}, good_survives=True),
    Case("problems not a list", ("grader", "check", "FOLDER"), "problems", {"bad.yaml": "problems: 3\n"}, good_survives=True),
    Case(
        "unknown top-level field",
        ("grader", "check", "FOLDER"),
        "unknown top-level field",
        {"bad.yaml": "colour: red\n" + GOOD.replace("good-one", "x")},
        good_survives=True,
    ),
    Case("a stray character in a board", ("grader", "check", "FOLDER"), "board", {"bad.yaml": _problem(". x .")}, good_survives=True),
    Case("a clue of 9 under classic", ("grader", "check", "FOLDER"), "board", {"bad.yaml": _problem(". 9 .")}, good_survives=True),
    Case("ragged rows", ("grader", "check", "FOLDER"), "board", {"bad.yaml": _problem(". 1 ./. 1")}, good_survives=True),
    Case(
        "duplicate ids",
        ("grader", "check", "FOLDER"),
        "duplicate id",
        {"bad.yaml": GOOD.replace("good-one", "d") + "  - id: d\n    board: |\n      . 1 .\n"},
        good_survives=True,
    ),
    Case("negative mine count", ("grader", "check", "FOLDER"), "mines", {"bad.yaml": _problem(mines="-3")}, good_survives=True),
    Case("expect not a number", ("grader", "check", "FOLDER"), "expect", {"bad.yaml": _problem(expect="abc")}, good_survives=True),
    Case("negative points", ("grader", "check", "FOLDER"), "points", {"bad.yaml": _problem(points="-1")}, good_survives=True),
    Case("a timeout of .nan", ("grader", "check", "FOLDER"), "timeout", {"bad.yaml": _problem(timeout=".nan")}, good_survives=True),
    Case("an unknown visibility", ("grader", "check", "FOLDER"), "visibility", {"bad.yaml": _problem(visibility="sometimes")}, good_survives=True),
    Case("an unknown rule", ("grader", "check", "FOLDER"), "rule", {"bad.yaml": _problem(rule="hexagonal")}, good_survives=True),
    Case("no problem id", ("grader", "check", "FOLDER"), "no id", {"bad.yaml": "problems:\n  - board: |\n      . 1 .\n"}, good_survives=True),
    # --- grading.yaml ---
    Case("config: unknown key", ("grader", "check", "FOLDER"), "unknown setting", {"grading.yaml": "colour: red\n"}, good_survives=True),
    Case(
        "config: problem_sets not a mapping", ("grader", "check", "FOLDER"), "problem_sets", {"grading.yaml": "problem_sets: 3\n"}, good_survives=True
    ),
    Case(
        "config: a misspelt problem set",
        ("grader", "check", "FOLDER"),
        "no problem file has that name",
        {"grading.yaml": "problem_sets:\n  goood.yaml: 2\n"},
        good_survives=True,
    ),
    Case("config: an infinite timeout", ("grader", "check", "FOLDER"), "timeout", {"grading.yaml": "timeout: .inf\n"}, good_survives=True),
    Case("config: hook_seed not a number", ("grader", "check", "FOLDER"), "hook_seed", {"grading.yaml": "hook_seed: x\n"}, good_survives=True),
    Case(
        "config: an unknown agent level",
        ("grader", "check", "FOLDER"),
        "agent.level",
        {"grading.yaml": "agent:\n  level: godlike\n"},
        good_survives=True,
    ),
    Case("config: billion laughs", ("grader", "check", "FOLDER"), "anchor or alias", {"grading.yaml": _laughs()}, good_survives=True),
    Case(
        "config: nested 20,000 deep on one line",
        ("grader", "check", "FOLDER"),
        "nested more than 32",
        {"grading.yaml": "agent: " + "{a: " * 20_000 + "}" * 20_000 + "\n"},
        good_survives=True,
    ),
    # --- grader options ---
    Case("a missing problem path", ("grader", "FOLDER/nowhere"), "does not exist"),
    Case("--timeout nan", ("grader", COURSE, "--timeout", "nan"), "finite"),
    Case("--timeout inf", ("grader", COURSE, "--timeout", "inf"), "finite"),
    Case("--timeout -1", ("grader", COURSE, "--timeout", "-1"), "finite"),
    Case("--jobs 0", ("grader", COURSE, "--jobs", "0"), "positive whole number"),
    Case("--jobs abc", ("grader", COURSE, "--jobs", "abc"), "positive whole number"),
    Case("--json a folder", ("grader", COURSE, "--json", "FOLDER"), "is a folder"),
    Case("--json in a missing folder", ("grader", COURSE, "--json", "FOLDER/no/x.json"), "does not exist"),
    Case("--csv a folder", ("grader", COURSE, "--submissions", "FOLDER", "--csv", "FOLDER"), "is a folder"),
    Case("--submissions a missing folder", ("grader", COURSE, "--submissions", "FOLDER/nowhere"), "not a folder"),
    Case("--solver a missing file", ("grader", COURSE, "--solver", "FOLDER/nope.py"), "--solver"),
    Case("--solver a folder with no hooks", ("grader", COURSE, "--solver", "FOLDER"), "defines the hooks", {"notes.txt": "hi\n"}),
    Case("--trace an unknown id", ("grader", COURSE, "--trace", "nope", "--solver", "reference"), "no problem with that id"),
    Case("--trace with --only bogus", ("grader", COURSE, "--trace", "nctu-1", "--only", "bogus"), "with --trace"),
    Case("--export a bad suffix", ("grader", COURSE, "--trace", "nctu-1", "--export", "FOLDER/x.pdf"), "must end in"),
    Case("--case an unknown hook", ("grader", COURSE, "--case", "bogus:1"), "expected HOOK:N"),
    Case("--case out of range", ("grader", COURSE, "--case", "forward_check:999"), "expected HOOK:N"),
    Case("--only an unknown item", ("grader", COURSE, "--only", "nope"), "nothing is called"),
    Case("--isolation bogus", ("grader", COURSE, "--isolation", "bogus"), "invalid choice"),
    Case("--format bogus", ("grader", COURSE, "--format", "bogus"), "invalid choice"),
    Case("an unknown option", ("grader", COURSE, "--bogus"), "unrecognized arguments"),
    Case("check --json a folder", ("grader", "check", COURSE, "--json", "FOLDER"), "is a folder"),
    Case("release into a non-empty folder", ("grader", "release", "FOLDER"), "not empty", {"x.txt": "taken\n"}),
    Case("gradescope-bundle --problems missing", ("grader", "gradescope-bundle", "FOLDER/a.zip", "--problems", "FOLDER/none"), "not a folder"),
    # --- python -m solvers ---
    Case("sat: empty input", ("solvers", "sat"), "empty"),
    Case("sat: closed standard input", ("solvers", "sat"), "standard input is closed", stdin=None),
    Case("sat: a bad header", ("solvers", "sat"), "line 1", stdin="x y\n"),
    Case("sat: too few rows", ("solvers", "sat"), "line", stdin="3 3\n? 1 ?\n"),
    Case("sat: markup in a board", ("solvers", "sat"), "'[/x]' is not a clue", stdin="2 3\n1 [/x] ?\n? ? ?\n"),
    Case("sat: a missing file", ("solvers", "sat", "FOLDER/none.txt"), "No such file"),
    Case("grid: closed standard input", ("solvers", "grid"), "standard input is closed", stdin=None),
    Case("grid: a clue of 10", ("solvers", "grid"), "out of range", stdin="1 10\n3 4\n"),
    Case("grid: ragged rows", ("solvers", "grid"), "row 2", stdin="12\n3\n"),
    Case("grid: a missing file", ("solvers", "grid", "FOLDER/none.txt"), "No such file"),
    Case("trace: closed standard input", ("solvers", "trace"), "standard input is closed", stdin=None),
    Case("trace: markup in a board", ("solvers", "trace"), "'[/x]' is not a clue", stdin=". [/x]\n. 1\n"),
    Case("trace: --max-steps 0", ("solvers", "trace", "--max-steps", "0"), "max-steps", stdin=". 1 .\n"),
    Case("generate: --count 0", ("solvers", "generate", "hints", "--count", "0"), "count"),
    Case("generate: --percent 150", ("solvers", "generate", "status", "--percent", "150"), "percent"),
    Case("generate: --output a folder", ("solvers", "generate", "hints", "--output", "FOLDER"), "is a folder"),
    Case("solvers: an unknown command", ("solvers", "bogus"), "invalid choice"),
    # --- python -m play ---
    Case("play: an unknown level", ("play", "--level", "godlike"), "level"),
    Case("play: a seed that is not a number", ("play", "--seed", "x"), "whole number"),
    Case("bench: --games 0", ("play", "bench", "--games", "0"), "positive whole number"),
    Case("bench: too many mines", ("play", "bench", "--level", "5x5x30"), "mines"),
    Case("bench: --json in a missing folder", ("play", "bench", "--games", "1", "--json", "FOLDER/no/x.json"), "does not exist"),
    Case("bench: --rules bogus", ("play", "bench", "--rules", "bogus"), "invalid choice"),
    Case("bench: --json a folder", ("play", "bench", "--games", "1", "--json", "FOLDER"), "is a folder"),
]


@dataclass(frozen=True)
class Outcome:
    code: int
    lines: list[str]
    seconds: float
    memory_mb: float
    good_checked: bool


def run(case: Case, folder: Path) -> Outcome:
    folder.mkdir(parents=True, exist_ok=True)
    for name, content in case.files.items():
        (folder / name).write_bytes(content if isinstance(content, bytes) else content.encode())
    if case.good_survives:
        (folder / "good.yaml").write_text(GOOD, encoding="utf-8")
    argv = [sys.executable, "-m", *(a.replace("FOLDER", str(folder)) for a in case.argv)]
    env = {**os.environ, "PYTHONPATH": str(ROOT), "COLUMNS": "300"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
    started = time.monotonic()
    done = subprocess.run(
        argv,
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
        input=case.stdin,
        stdin=subprocess.DEVNULL if case.stdin is None else None,
        preexec_fn=(lambda: os.close(0)) if case.stdin is None else None,
    )
    seconds = time.monotonic() - started
    memory = max(before, resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss) / 1024
    text = done.stdout + done.stderr
    lines = [line for line in text.splitlines() if line.startswith("error") or "Traceback" in line]
    return Outcome(done.returncode, lines, seconds, memory, "good-one" in done.stdout)


@pytest.mark.parametrize("case", CASES, ids=[c.name for c in CASES])
def test_bad_input_is_one_clean_line(tmp_path: Path, case: Case) -> None:
    got = run(case, tmp_path / "work")
    assert got.code != 0, got
    assert not any("Traceback" in line for line in got.lines), got
    errors = [line for line in got.lines if line.startswith("error")]
    assert errors and any(case.words in line for line in errors), errors
    if not case.good_survives:
        assert len(errors) == 1, errors
    else:
        assert got.good_checked, "the good problem file beside the bad one was not checked"
    assert got.memory_mb < 1024, got


def test_there_are_at_least_sixty_cases_across_every_command() -> None:
    assert len(CASES) >= 60
    assert {case.argv[0] for case in CASES} == {"grader", "solvers", "play"}


if __name__ == "__main__":  # the table of every case, for a closing note
    import tempfile

    print("| # | command | bad input | exit | lines | traceback | s | MB | good file checked |")
    print("|---|---|---|---|---|---|---|---|---|")
    for number, case in enumerate(CASES, start=1):
        with tempfile.TemporaryDirectory() as scratch:
            got = run(case, Path(scratch) / "work")
        errors = [line for line in got.lines if line.startswith("error")]
        survives = ("yes" if got.good_checked else "NO") if case.good_survives else "-"
        print(
            f"| {number} | {' '.join(case.argv[:2])} | {case.name} | {got.code} | {len(errors)} | "
            f"{'YES' if any('Traceback' in line for line in got.lines) else 'no'} | {got.seconds:.2f} | {got.memory_mb:.0f} | {survives} |"
        )
