"""Grading real (mis)behaving students (tests/student_files/*.py) with the real CLI.

Every student file is graded by `python -m grader ... --json` in a subprocess, and the
statuses, scores and messages are read from its report. The hooks a file does not
misbehave in are the model answer's. OUTCOMES is the table of students graded on
problems/course.yaml, one row a student, each with the whole outcome it must get; the
tests after it are the misbehaviours that need more than one grading run or other boards.
(Attacks on the machine itself, under bubblewrap or a separate user, are in test_hostile.py.)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import uuid
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from conftest import COURSE, STUDENT_FILES, by_id, grade_json, lone, run_grader, sleepers, student_copy

from grader.hooktable import CSP_HOOKS, SAT_ENCODING, SOLVER_HOOK_NAMES
from grader.inputs.config import GradingConfig
from grader.inputs.problemset import load_problem_file
from grader.scoring.hookcases import load_cases

HOOK_IDS = list(SOLVER_HOOK_NAMES)
COURSE_PROBLEMS = load_problem_file(COURSE)[0]
COURSE_IDS = [problem.id for problem in COURSE_PROBLEMS]
#: The points of each item of problems/course.yaml, in the report's order: the hook table's
#: (the default config), the boards' own, then the SAT encoding's.
MAX_SCORES = {
    **{name: GradingConfig().hook_points[name] for name in HOOK_IDS},
    **{p.id: GradingConfig().points_for(p.file, p.points) for p in COURSE_PROBLEMS},
    SAT_ENCODING: GradingConfig().hook_points[SAT_ENCODING],
}
#: How many groups of cases each hook's stored cases make.
GROUPS_OF_CASES = {hook: len({case.group for case in cases}) for hook, cases in load_cases().items()}
#: Names for several items at once in an Outcome.
GROUPS = {
    "boards": COURSE_IDS,
    "sat": ["at_least_clauses", "at_most_clauses", "sat_encoding"],  # what a file with no SAT hooks loses
    "all": [*HOOK_IDS, *COURSE_IDS, "sat_encoding"],
}
#: How the table's students are graded: one item at a time (test_outcomes_do_not_depend_on_jobs
#: shows that an outcome is the same with items graded side by side), one worker a run.
TABLE_JOBS = ("--jobs", "1")
#: Paths that would betray grader internals in a message meant for a student.
INTERNALS = (
    "grader/",
    "grader\\",
    "host.py",
    "child.py",
    "wire.py",
    "searchcheck.py",
    "storedanswers.py",
    "probes.py",
    "engine.py",
    "solvers/",
    "Traceback",
)


def line_of(student: str, marker: str) -> int:
    """The 1-based line of tests/student_files/STUDENT.py holding `marker`."""
    lines = (STUDENT_FILES / f"{student}.py").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, start=1) if marker in line)


def grade(tmp_path: Path, student: str, *extra: str | Path, problems: Path = COURSE) -> tuple[subprocess.CompletedProcess[str], dict]:
    """Grade tests/student_files/STUDENT.py on `problems` with --timeout 2; the run and its JSON report."""
    return grade_json(problems, lone(student), tmp_path / f"{student}.json", "--timeout", "2", *extra)


Graded = Callable[..., tuple[subprocess.CompletedProcess[str], dict]]


@pytest.fixture(scope="module")
def graded(tmp_path_factory: pytest.TempPathFactory) -> Graded:
    """grade() on problems/course.yaml, each distinct run once for the module: tests that grade
    the same student with the same options read one run (its report and terminal are only read)."""
    runs: dict[tuple[str, ...], tuple[subprocess.CompletedProcess[str], dict]] = {}

    def graded_once(student: str, *extra: str) -> tuple[subprocess.CompletedProcess[str], dict]:
        key = (student, *extra)
        if key not in runs:
            runs[key] = grade(tmp_path_factory.mktemp(student), student, *extra)
        return runs[key]

    return graded_once


@dataclass(frozen=True)
class Outcome:
    """What grading a student on problems/course.yaml gives (out of MAX_SCORES).
    Items are named by id or by a GROUPS name."""

    lost: dict[str, str]  # every item that loses points, and its status; all others pass with full marks
    #: words its message holds ("{line of M}": the number of the line holding M; "{all}": N/N, every group of the hook's cases)
    words: dict[str, tuple[str, ...]] = field(default_factory=dict)
    kept: dict[str, float] = field(default_factory=dict)  # the points a losing item still earns (else 0)
    printed: tuple[str, ...] = ()  # words on the terminal, whitespace aside
    returncode: int = 1

    @property
    def score(self) -> float:
        """The total: every item's points, but what the items that lose points keep."""
        lost = {name for key in self.lost for name in items(key)}
        return round(sum(self.kept.get(name, 0) if name in lost else points for name, points in MAX_SCORES.items()), 2)


def case(student: str, why: str, outcome: Outcome) -> object:
    return pytest.param(student, outcome, id=f"{student}: {why}")


def cannot_load(student: str, *words: str) -> Outcome:
    """A file that does not load: every item is an error that says why, and the terminal says so too."""
    said = (f"cannot load {student}.py", *words)
    return Outcome({"all": "error"}, {"all": said}, printed=said[:1])


OUTCOMES = [
    # -- right answers, however written
    case(
        "correct",
        "the model answer under the student names",
        Outcome({}, {"sat_encoding": ("3/3 problems solved through your clauses",)}, printed=("Full marks.",), returncode=0),
    ),
    case("standalone_correct", "written out by hand, another style", Outcome({}, returncode=0)),
    case("correct_reexport", "the model answer's hooks re-exported", Outcome({}, printed=("Full marks.",), returncode=0)),
    case("mutates_domains", "changes the dict it was given: costs nothing with the grader's copies", Outcome({}, returncode=0)),
    # -- wrong answers: points lost where they went wrong, with the reason
    case(
        "lazy_fc",
        "forward checking too weak: hook points lost, every board solved",
        Outcome({"forward_check": "fail"}, {"forward_check": ("expected", "in the grader's searches, 0/3 visible boards right")}),
    ),
    case("skips_mine_count", "boards still solved: the goal test sees the count", Outcome({"forward_check": "fail"}, kept={"forward_check": 1.93})),
    case("fixpoint_loop", "stronger than one pass: the hook test says so, boards pass", Outcome({"forward_check": "fail"})),
    case(
        "small_inputs_mrv",
        "MRV only on inputs as small as the named cases: the boards' calls cost the hook",
        Outcome(
            {"select_variable": "fail"},
            {
                "select_variable": (
                    "{all} groups of cases right",
                    "in the grader's searches, 0/3 visible boards right",
                    "returned: 0",
                    "--case select_variable@nctu-1:1",
                )
            },
        ),
    ),
    case(
        "bounds_skip_decided",
        "constraint_bounds forgets decided variables under a right forward_check that calls it",
        Outcome(
            {"constraint_bounds": "fail", "forward_check": "fail", "boards": "fail"},
            printed=("Next step: fix constraint_bounds first: your forward_check calls it",),
        ),
    ),
    case(
        "slow_forward_check",
        "right but slow on real boards: the next step names the slow hook, with its calls",
        Outcome(
            {"nctu-1": "timeout", "nctu-1-as-printed": "timeout", "nctu-2": "not_run"},
            {"nctu-1": ("ran out of time (2 s)",)},
            printed=("Next step: make forward_check faster: 2 items ran out of time and 1 more was not run after them", "forward_check"),
        ),
    ),
    case("reversed_values", "mine before safe", Outcome({"order_values": "fail"}, kept={"order_values": 0.2})),
    case("lazy_upper", "an upper bound never narrowed", Outcome({"forward_check": "fail"})),
    case("adds_values", "forward checking adds values: wrong answers on the boards", Outcome({"forward_check": "fail", "boards": "fail"})),
    case(
        "returns_some_variables",
        "forward checking drops variables: an error on the boards, which its share counts",
        Outcome({"forward_check": "fail", "boards": "error"}),
    ),
    case("off_by_one_bounds", "bounds one off", Outcome({"forward_check": "fail", "boards": "fail"})),
    case("flips_values", "forward checking makes safe cells mines", Outcome({"forward_check": "fail", "boards": "fail"})),
    case(
        "parallel_buggy",
        "its other bugs need other boards: on these forward_check's half rule and a hook case of 6 cells cost points",
        Outcome(
            {"forward_check": "fail", "order_values": "error", "sat": "error"},
            {"order_values": ("the process running it ended (exit code 4)",), "sat": ("no function named at_",)},
            printed=("Next step: fix forward_check",),
        ),
    ),
    case(
        "sat_off_by_one",
        "at_least_clauses one off: the assignment named; part 1 graded on its own",
        Outcome(
            {"at_least_clauses": "fail", "sat_encoding": "fail"},
            {
                "at_least_clauses": ("your clauses reject the assignment with true literals",),
                "sat_encoding": ("1/3 problems solved through your clauses",),
            },
            kept={"at_least_clauses": 1.29, "sat_encoding": 1.33},
        ),
    ),
    case("claims_none", "a search that finds nothing", Outcome({"forward_check": "fail", "boards": "fail", "sat": "error"})),
    case(
        "constant_answers",
        "answers that ignore their input earn nothing",
        Outcome(
            {
                "constraint_bounds": "fail",
                "forward_check": "fail",
                "select_variable": "fail",
                "order_values": "fail",
                "boards": "fail",
                "sat": "error",
            }
        ),
    ),
    case(
        "mutates_csp",
        "empties its own CSP: the grader's is untouched, so its goal test rejects the layouts",
        Outcome(
            {"forward_check": "fail", "boards": "fail"}, {"nctu-1": ("claims there is no solution",), "nctu-2": ("claims there is no solution",)}
        ),
    ),
    # -- wrong return types
    case(
        "wrong_types",
        "a str for a pair of ints, values not in the domain",
        Outcome(
            {"constraint_bounds": "fail", "order_values": "fail", "boards": "error", "sat": "error"},
            {
                "constraint_bounds": ("pair of ints", "<text of 12 characters>"),
                "order_values": ("[7, 8]",),
                "boards": ("order_values returned [7, 8]",),
            },
        ),
    ),
    case(
        "returns_set",
        "a set for a variable",
        Outcome(
            {"select_variable": "fail", "boards": "error"},
            {"select_variable": ("variable number (int)", "{"), "boards": ("select_variable returned {", "not an unassigned variable")},
        ),
    ),
    case(
        "returns_generator",
        "a generator for a dict of domains",
        Outcome(
            {"forward_check": "fail", "boards": "error"},
            {"forward_check": ("dict of domains", "generator"), "boards": ("forward_check must return None or a dict",)},
        ),
    ),
    case(
        "missing",
        "hooks not written are named",
        Outcome(
            {"forward_check": "error", "select_variable": "error", "order_values": "error", "boards": "error", "sat": "error"},
            {
                "forward_check": ("no function named forward_check",),
                "select_variable": ("no function named select_variable",),
                "order_values": ("no function named order_values",),
                "boards": ("no function named forward_check",),
                "at_least_clauses": ("no function named at_least_clauses",),
                "at_most_clauses": ("no function named at_most_clauses",),
                "sat_encoding": ("no function named at_least_clauses",),
            },
        ),
    ),
    case(
        "stubs_bare",
        "stubs with a bare NotImplementedError: each named by the hook the grader asked, not 'a hook'",
        Outcome(
            {"all": "error"},
            {
                **{name: (f"{name} is not implemented yet (it raises NotImplementedError)",) for name in HOOK_IDS},
                "boards": ("forward_check is not implemented yet",),
                "sat_encoding": ("at_least_clauses is not implemented yet",),
            },
            printed=("Next step: implement constraint_bounds",),
        ),
    ),
    # -- exceptions, loops, exits, signals, memory
    case(
        "crash",
        "an exception: named with the student's line",
        Outcome(
            {"select_variable": "fail", "boards": "error", "sat": "error"},
            {
                "select_variable": ("ZeroDivisionError", "crash.py, line {line of CRASH_LINE}"),
                "boards": ("ZeroDivisionError", "crash.py, line {line of CRASH_LINE}"),
                "at_least_clauses": ("no function named at_least_clauses",),
            },
        ),
    ),  # no SAT hooks: named
    case(
        "deep_helper",
        "an exception deep in a helper: the student's line, no grader internals",
        Outcome(
            {"select_variable": "fail", "boards": "error"},
            {
                "select_variable": ("StatisticsError", "deep_helper.py, line {line of DEEP_LINE}, in _average"),
                "boards": ("StatisticsError", "deep_helper.py, line {line of DEEP_LINE}, in _average"),
            },
            printed=("deep_helper.py, line {line of DEEP_LINE}, in _average",),
        ),
    ),
    case(
        "loop_bounds",
        "an endless loop times out and the next items are graded",
        Outcome({"constraint_bounds": "timeout"}, {"constraint_bounds": ("ran out of time (2 s): your code used",)}),
    ),
    case(
        "exits",
        "os._exit in a hook ends the worker with its code",
        Outcome(
            {"select_variable": "error", "boards": "error", "sat": "error"},
            {"select_variable": ("the process running it ended (exit code 3)",), "boards": ("the process running it ended (exit code 3)",)},
        ),
    ),
    case(
        "os_exit_bounds",
        "os._exit ends the worker; later items get a fresh one",
        Outcome({"constraint_bounds": "error"}, {"constraint_bounds": ("the process running it ended (exit code 7)",)}),
    ),
    case(
        "sys_exit",
        "sys.exit is an error that names sys.exit",
        Outcome({"select_variable": "error", "boards": "error"}, {"select_variable": ("called sys.exit(3)",), "boards": ("called sys.exit(3)",)}),
    ),
    case(
        "segfault_bounds", "death by signal is named", Outcome({"constraint_bounds": "error"}, {"constraint_bounds": ("killed by signal SIGSEGV",)})
    ),
    case(
        "huge_alloc",
        "a huge allocation is a MemoryError and the grader survives to print its table",
        Outcome({"constraint_bounds": "error"}, {"constraint_bounds": ("MemoryError",)}, printed=("total",)),
    ),
    # -- misbehaving at import time: every item is an error
    case(
        "tab_error",
        "tabs and spaces mixed: the next step is to make the file load, at its line",
        Outcome(
            {"all": "error"},
            {"all": ("cannot load tab_error.py", "TabError", "line {line of TAB_LINE}")},
            printed=(
                f"all {len(MAX_SCORES)} items: cannot load tab_error.py",
                "Next step: fix tab_error.py so that it loads (TabError",
                "line {line of TAB_LINE}",
            ),
        ),
    ),
    case("syntax", "does not parse", cannot_load("syntax", "SyntaxError", "line {line of def constraint_bounds(scope, domains)}")),
    case("at_import", "raises at import", cannot_load("at_import", "RuntimeError", "setup went wrong", "line {line of raise RuntimeError}")),
    case(
        "import_raises",
        "raises in a helper called at import",
        cannot_load("import_raises", "KeyError", "'weight'", "line {line of IMPORT_RAISE_LINE}, in _build_table"),
    ),
    case(
        "imports_grader",
        "importing the grader is refused",
        cannot_load("imports_grader", "student code may not import the grader", "imports_grader.py, line {line of IMPORT_LINE}"),
    ),
    case(
        "import_loops",
        "never finishes loading",
        Outcome({"all": "error"}, {"all": ("the file did not finish loading in time",)}, printed=("did not finish loading",)),
    ),
    case(
        "import_os_exit",
        "ends its process while loading",
        Outcome({"all": "error"}, {"all": ("the process ended while loading", "exit code 9")}, printed=("the process ended while loading",)),
    ),
]


def items(name: str) -> list[str]:
    return GROUPS.get(name, [name])


@pytest.mark.parametrize("student, outcome", OUTCOMES)
def test_every_student_gets_the_outcome_it_deserves(graded: Graded, student: str, outcome: Outcome) -> None:
    def filled(words: tuple[str, ...], name: str = "") -> list[str]:
        groups = GROUPS_OF_CASES.get(name)
        return [re.sub(r"\{line of (.+?)\}", lambda m: str(line_of(student, m[1])), word).replace("{all}", f"{groups}/{groups}") for word in words]

    result, report = graded(student, *TABLE_JOBS)
    assert result.returncode == outcome.returncode, result.stdout
    assert [h["id"] for h in report["hooks"]] == HOOK_IDS and [p["id"] for p in report["problems"]] == COURSE_IDS
    entries = by_id(report)
    assert {name: e["max_score"] for name, e in entries.items()} == MAX_SCORES and list(entries) == list(MAX_SCORES)
    lost = {name: status for key, status in outcome.lost.items() for name in items(key)}
    assert report["score"] == outcome.score and report["max_score"] == sum(MAX_SCORES.values()), [(e["id"], e["score"]) for e in entries.values()]
    assert {name: e["status"] for name, e in entries.items() if e["score"] < e["max_score"]} == lost
    for name, entry in entries.items():
        if name in lost:
            assert entry["score"] == outcome.kept.get(name, 0) and entry["message"], entry  # every lost point has its reason
        else:
            assert entry["status"] == "pass" and entry["score"] == entry["max_score"], entry
        for internal in INTERNALS:
            assert internal not in entry["message"], (internal, entry)
    for key, words in outcome.words.items():
        for name in items(key):
            for word in filled(words, name):
                assert word in entries[name]["message"], (word, entries[name])
    for word in filled(outcome.printed):
        assert word in " ".join(result.stdout.split()), result.stdout  # the terminal tells the student too


# --- beyond one run on the course boards ---------------------------------------------------


def test_an_endless_loop_costs_only_the_boards_it_loops_on(tmp_path: Path) -> None:
    """loops.py's forward_check never returns when the board has a mine count."""
    problems = tmp_path / "loops.yaml"
    problems.write_text(
        "problems:\n"
        "  - id: counted\n    mines: 2\n    expect: 1\n    board: |\n      ? 1 ? 2 ?\n"
        "  - id: uncounted\n    expect: 1\n    board: |\n      ? 1 ? 2 ?\n",
        encoding="utf-8",
    )
    result, report = grade(tmp_path, "loops", problems=problems)
    assert result.returncode == 1
    hooks = {h["id"]: h for h in report["hooks"]}
    assert hooks["forward_check"]["status"] == "timeout" and hooks["forward_check"]["score"] == 0
    assert "2 s" in hooks["forward_check"]["message"]
    # items before and after the endless loop are graded as usual
    for name in (spec.name for spec in CSP_HOOKS if spec.name != "forward_check"):
        assert hooks[name]["status"] == "pass", hooks[name]
    assert {p["id"]: p["status"] for p in report["problems"]} == {"counted": "timeout", "uncounted": "pass"}


def test_outcomes_do_not_depend_on_jobs(graded: Graded, tmp_path: Path) -> None:
    def statuses(jobs: str) -> list[tuple[str, str, float]]:
        # --jobs 1 is the table's own run of exits.py (TABLE_JOBS)
        _, report = graded("exits", "--jobs", jobs) if ("--jobs", jobs) == TABLE_JOBS else grade(tmp_path, "exits", "--jobs", jobs)
        return [(e["id"], e["status"], e["score"]) for e in report["hooks"] + report["problems"]]

    assert statuses("1") == statuses("3")


def test_expected_answers_never_reach_student_code(tmp_path: Path) -> None:
    """The worker gets the hook cases' inputs only: peeking at the grader's frames finds nothing."""
    _, peeking = grade(tmp_path, "peeks")
    _, guessing = grade(tmp_path, "guesses")  # the same stand-ins, no peeking
    scores = {h["id"]: h["score"] for h in peeking["hooks"]}
    assert scores == {h["id"]: h["score"] for h in guessing["hooks"]}
    assert not any(h["status"] == "pass" for h in peeking["hooks"])


def test_replacing_the_engine_in_its_own_process_changes_nothing(graded: Graded, tmp_path: Path) -> None:
    """The search runs in the grader: a fake engine in the student's process is never used."""
    _, honest = graded("correct", *TABLE_JOBS)  # the run the table's row for correct.py reads
    result, report = grade(tmp_path, "fake_search", *TABLE_JOBS)  # graded as the honest run was
    assert result.returncode == 0 and report["score"] == report["max_score"]
    assert [p["nodes"] for p in report["problems"]] == [p["nodes"] for p in honest["problems"]]


def test_printing_megabytes_costs_only_the_flooding_items_and_output_stays_small(tmp_path: Path) -> None:
    result, report = grade(tmp_path, "chatty")
    entries = by_id(report)
    # select_variable prints 6 MB a call: every item that calls it three times floods past the bound
    for name in ("select_variable", "nctu-1", "nctu-2"):
        assert entries[name]["status"] == "error" and "printed more than 16 MiB" in entries[name]["message"], entries[name]
    for name in (name for name in SOLVER_HOOK_NAMES if name != "select_variable"):
        assert entries[name]["status"] == "pass", entries[name]  # 10 MB printed at import is drained, not fatal
    # two nodes on the as-printed board stay under the bound, but with no board that has a
    # solution solved, its "no solution" earns nothing
    assert "earns nothing" in entries["nctu-1-as-printed"]["message"]
    assert len(result.stdout) < 200_000 and len(result.stderr) < 200_000
    assert (tmp_path / "chatty.json").stat().st_size < 200_000
    assert "x" * 5000 not in result.stdout
    # Gradescope shows what a test printed: cut, and said to be cut
    results_json = tmp_path / "results.json"
    gs = run_grader(COURSE, "--solver", lone("chatty"), "--format", "gradescope", "--output", results_json)
    assert gs.returncode == 0 and len(gs.stdout) < 200_000, gs.stdout[-2000:]
    assert results_json.stat().st_size < 200_000
    results = json.loads(results_json.read_text(encoding="utf-8"))
    select = next(t for t in results["tests"] if t["name"] == "hooks/select_variable")
    assert select["status"] == "failed"
    assert len(select["output"]) <= 4000 and "more characters cut" in select["output"], select["output"][-200:]


@pytest.mark.parametrize("mode", ["loop", "return"])
def test_student_code_cannot_start_a_process(tmp_path: Path, mode: str) -> None:
    """Starting a process fails (the worker's seccomp filter): the hook's own error, in
    every isolation mode alike, and nothing is left running."""
    tag = f"1000.{uuid.uuid4().int % 10**9:09d}"  # `sleep 1000.xxxxxxxxx`: unique to this run
    student = student_copy(tmp_path / "student", "spawns_sleeper", SLEEP=tag, MODE=mode)
    try:
        _, report = grade_json(COURSE, student, tmp_path / "report.json", "--timeout", "2", "--only", "constraint_bounds")
        bounds = by_id(report)["constraint_bounds"]
        assert bounds["status"] == "fail" and "PermissionError: [Errno 1] Operation not permitted" in bounds["message"]
        assert sleepers(tag) == []
    finally:  # never leave a sleeper behind, even when the test fails
        for pid in sleepers(tag):
            os.kill(pid, 9)
