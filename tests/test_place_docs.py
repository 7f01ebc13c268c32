"""What the student reads speaks of what the student has: hook cases keep the contract the
stubs state and number the variables they name on their board; every message names a cell
one way (r4c3); the student copy's documents name nothing it lacks; part 3's first command
prints a short table; a case's reason names a mistake it recognises."""

from __future__ import annotations

import re
import shlex
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from conftest import COURSE, grade_json, grader_env, lone

from answerkey.instructor.kit import student_packages
from answerkey.instructor.release import student_problems_readme, student_readme
from grader.hooktable import BY_NAME, Unfit
from grader.scoring.case import Case
from grader.scoring.hookcases import GOLDEN_SEED, HOOK_NAMES, arguments, build_cases, csp_of, describe_case, load_cases
from grader.scoring.misconceptions import MISCONCEPTIONS, Answered, recognised
from play.evaluate import play_agent
from play.levels import parse_level
from play.view import Move, View
from solvers.board import cell_name

ROOT = Path(__file__).resolve().parents[1]

# --- (a) the hook cases keep the stubs' contract ------------------------------------------


def contract_broken(hook: str, case: Case) -> list[str]:
    """What in `case` breaks the contract its hook's table entry states (the stub's and
    HANDOUT section 4's): for its input (`HookSpec.inputs_broken`: the handout's domains,
    one for every variable of the CSP it is given, and `accepts`) and for the model
    answer's answer to it (`HookSpec.fits`), in words; [] when nothing does."""
    spec = BY_NAME[hook]
    variables = frozenset(range(len(csp_of(case).cells))) if spec.engine_calls else None
    broken = spec.inputs_broken(case.args, variables)
    if not broken:
        try:
            spec.fits(case.expected, spec.named(arguments(hook, case)))
        except Unfit as unfit:
            broken.append(f"the answer {case.expected} is not one its contract allows: {unfit.words}")
    return broken


def drawn_numbers(hook: str, case: Case) -> set[int]:
    """The variable numbers the case's board shows where a reason draws it."""
    lines = describe_case(hook, 1, case, {"value": case.expected}).splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  board (")) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i].startswith("    ")), len(lines))
    return {int(n) for line in lines[start:end] for n in re.findall(r"\bv(\d+)", line)}


def named_variables(hook: str, case: Case) -> set[int]:
    """The variables a case's input and answer name."""
    named = {int(v) for v in case.args["domains"]} | set(case.args.get("unassigned", []))
    named |= {case.args[key] for key in ("assigned", "var") if case.args.get(key) is not None}
    return named | ({case.expected} if hook == "select_variable" else set())


SEEDS = (GOLDEN_SEED, 7, 4242, 2**40 + 3)  # the shipped cases, and cases drawn as private hook_seeds draw them


@pytest.mark.parametrize("seed", SEEDS)
def test_every_hook_case_keeps_the_contract_and_draws_what_it_names(seed: int) -> None:
    """Every case (the stored ones, and those of other hook_seeds) gives its hook an input
    the stubs' contract allows, and a case with a board draws every variable it names."""
    cases = load_cases() if seed == GOLDEN_SEED else build_cases(seed)
    assert set(cases) == set(HOOK_NAMES)
    for hook, found in cases.items():
        for number, case in enumerate(found, start=1):
            assert contract_broken(hook, case) == [], (seed, hook, number, case.name)
            if case.board is not None:
                assert named_variables(hook, case) <= drawn_numbers(hook, case), (seed, hook, number)


def test_the_contract_checker_sees_a_broken_case() -> None:
    """The checker itself: an unassigned list that leaves an undecided variable out, an
    `assigned` with two values, an answer to order_values with a value twice and a domain
    of constraint_bounds that is not the handout's are contract errors."""
    case = next(c for c in load_cases()["select_variable"] if len(c.args["unassigned"]) > 1)
    dropped = case.args["unassigned"][0]
    undecided = replace(case, args={**case.args, "unassigned": case.args["unassigned"][1:], "domains": {**case.args["domains"], dropped: [0, 1]}})
    assert any("is assigned but" in line for line in contract_broken("select_variable", undecided))
    fc = next(c for c in load_cases()["forward_check"] if c.args["assigned"] is not None)
    assert contract_broken("forward_check", replace(fc, args={**fc.args, "domains": {**fc.args["domains"], fc.args["assigned"]: [0, 1]}}))
    order = load_cases()["order_values"][0]
    assert any("not one its contract allows" in line for line in contract_broken("order_values", replace(order, expected=[0, 0, 1])))
    bounds = load_cases()["constraint_bounds"][0]
    assert contract_broken("constraint_bounds", replace(bounds, args={**bounds.args, "domains": {**bounds.args["domains"], 7: [2]}}))


# --- (b) one way to name a cell ------------------------------------------------------------

#: Formats that name a cell otherwise than `solvers.board.cell_name`: "row {r}, col {c}",
#: "r{r} c{c}" or "r{..}c{..}" written by hand, and a cell tuple put into a message as it is.
OTHER_FORMATS = (
    re.compile(r"\brows? \{[^}]*\},? col(umn)?s? \{"),
    re.compile(r"\br\{[^}]*\} ?c\{"),
    re.compile(r"\{(\w+\.)*(cell|cursor|exploded)(!r)?\}"),
    re.compile(r"\(\{r\}, ?\{c\}\)"),
)


WRITER = 'return f"r{cell[0] + 1}c{cell[1] + 1}"'  # cell_name's one line
#: The move that is no cell at all: what the agent returned, quoted as it is.
NOT_A_CELL = 'return f"{move.action} of {cell!r}: a cell is a (row, col) pair of ints"'


def test_no_message_names_a_cell_another_way() -> None:
    """No f-string in the product's packages formats a cell but through cell_name (which is
    the one place that writes r4c3)."""
    found = []
    for package in ("grader", "play", "solvers", "assignment", "answerkey"):
        for path in sorted((ROOT / package).rglob("*.py")):
            for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
                strings = re.findall(r"""\bf(["'])(.*?)\1""", line)
                if any(p.search(text) for _, text in strings for p in OTHER_FORMATS):
                    found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert sorted(found) == [
        f"play/game.py:{line_of(ROOT / 'play' / 'game.py', NOT_A_CELL)}: {NOT_A_CELL}",
        f"solvers/board.py:{line_of(ROOT / 'solvers' / 'board.py', WRITER)}: {WRITER}",
    ]


def line_of(path: Path, text: str) -> int:
    """The number of the first line of `path` that holds `text`."""
    return next(n for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1) if text in line)


def test_an_agents_illegal_move_and_its_lost_game_name_cells_as_r4c3() -> None:
    """A real game: an agent that opens r4c3 twice is told so in the one convention, and
    the handout says once how r4c3 maps to the (3, 2) of code."""

    def twice(view: View) -> Move:
        return Move("open", (3, 2))

    result = play_agent(twice, parse_level("beginner"), 0, "classic")
    assert cell_name((3, 2)) == "r4c3" and str(Move("flag", (3, 2))) == "flag r4c3"
    if result.exploded is not None:  # the first open was a mine: the loss names it
        assert result.loss() == "opened r4c3, a mine"
    else:
        assert result.error == "illegal move: open of r4c3: the cell is already revealed", result
    handout = " ".join((ROOT / "assignment" / "HANDOUT.md").read_text(encoding="utf-8").split())
    assert "`r4c3` is row 4, column 3, the cell `(3, 2)` of your code" in handout


# --- (c) the student copy's documents name only what the copy has --------------------------

INSTRUCTORS_ONLY = "instructor's kit only"


def copy_documents() -> dict[str, str]:
    """The texts a student copy gives its student, as release writes them: the handout,
    the stubs' docstrings, its README and problems/README."""

    def docstring(path: Path) -> str:
        return path.read_text(encoding="utf-8").split('"""')[1]

    return {
        "assignment/HANDOUT.md": (ROOT / "assignment" / "HANDOUT.md").read_text(encoding="utf-8"),
        "assignment/hooks.py": docstring(ROOT / "assignment" / "hooks.py"),
        "assignment/agent.py": docstring(ROOT / "assignment" / "agent.py"),
        "README.md": student_readme(True),  # with the course's problems/grading.yaml: the longer text
        "problems/README.md": student_problems_readme(True),
    }


def missing_from_the_copy() -> set[str]:
    """The kit's top-level folders a student copy does not have (its packages but the
    answer key, and problems/, are what it ships)."""
    shipped = {*student_packages(ROOT), "problems"}
    return {p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith(".") and p.name not in shipped}


def unmarked_mentions(name: str, text: str) -> list[str]:
    """Sentences of `text` that name a folder the copy lacks, or run the model answer
    (`reference` in a command), without saying "instructor's kit only"."""
    missing = "|".join(sorted(map(re.escape, missing_from_the_copy())))
    pattern = re.compile(rf"(?<![\w/.])({missing})/|`python[^`]*\breference\b[^`]*`|^python .*\breference\b", re.M)
    found = []
    for paragraph in re.split(r"\n\s*\n", text):
        for sentence in re.split(r"(?<=[.!?:])\s+(?=[A-Z`(])|\n(?=python )", paragraph):
            if pattern.search(sentence) and INSTRUCTORS_ONLY not in sentence:
                found.append(f"{name}: {' '.join(sentence.split())[:160]}")
    return found


def test_the_copys_documents_name_no_folder_or_command_it_lacks() -> None:
    """The handout, the stubs and the READMEs a student copy ships name no bench/ (or other
    left-out folder) and no command of the model answer unless marked instructor's kit only."""
    assert {"bench", "answerkey"} <= missing_from_the_copy()
    found = [line for name, text in copy_documents().items() for line in unmarked_mentions(name, text)]
    assert found == []


def test_the_mention_check_sees_what_it_looks_for() -> None:
    """The check flags a bench/ path and an unmarked `--solver reference`, and passes the
    same command marked."""
    assert unmarked_mentions("x", "Run `python bench/play_jsms.py` to compare.")
    assert unmarked_mentions("x", "Run `python -m grader problems/ --solver reference` to see it.")
    assert not unmarked_mentions("x", "Run `python -m grader problems/ --solver reference` (instructor's kit only).")


# --- (d) part 3's first command prints a short table ----------------------------------------


def part3_first_command() -> str:
    """The first command the handout's part 3 shows (section 10's first bash block)."""
    handout = (ROOT / "assignment" / "HANDOUT.md").read_text(encoding="utf-8")
    part3 = handout.split("## 10. Part 3", 1)[1]
    block = part3.split("```bash\n", 1)[1].split("```", 1)[0]
    command = block.replace("\\\n", "").splitlines()[0]
    return command.split(" # ", 1)[0].strip()


def test_part_3s_first_command_prints_a_short_table() -> None:
    """Run as the handout shows it, part 3's first command prints a table of a few lines
    (not a dict of every lost game)."""
    words = shlex.split(part3_first_command())
    assert words[0] == "python"
    run = subprocess.run([sys.executable, *words[1:]], cwd=ROOT, env=grader_env(columns=120), capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stderr
    lines = [line for line in run.stdout.splitlines() if line.strip()]
    assert len(lines) <= 12 and len(run.stdout) < 2500, run.stdout
    assert any("win rate" in line and "│" in line or "┃" in line for line in lines), run.stdout
    assert "{" not in run.stdout


# --- (e) view.hidden() --------------------------------------------------------------------


def test_hidden_says_and_does_include_flagged_cells() -> None:
    """view.hidden() lists the flagged cells, and both its docstring and the agent stub say so."""
    from play.view import FLAGGED, HIDDEN

    view = View(1, 3, 1, ((1, FLAGGED, HIDDEN),))
    assert view.hidden() == [(0, 1), (0, 2)]
    assert "flagged" in (View.hidden.__doc__ or "")
    stub = " ".join((ROOT / "assignment" / "agent.py").read_text(encoding="utf-8").split())
    assert "`view.hidden()` (every cell not revealed, the flagged ones included)" in stub


# --- (f) a reason names the mistake it recognises --------------------------------------------


def answered(hook: str, case: Case, returned: Any) -> Answered:
    domains = {int(v): tuple(d) for v, d in case.args.get("domains", {}).items()}
    return Answered(case.args, domains, csp_of(case) if case.board is not None else None, case.expected, returned)


def test_right_and_malformed_answers_are_no_recognised_mistake() -> None:
    """A right answer names no mistake, and no answer, however malformed, makes a
    recogniser raise (student code may return anything)."""
    odd: list[Any] = [None, "x", [1], [1, 2, 3], {"a": [0]}, {0: "zz"}, 10**30, -1, [True, False], {0: None}]
    for hook, cases in load_cases().items():
        for case in cases:
            assert recognised(hook, answered(hook, case, case.expected)) is None
            for value in odd:
                recognised(hook, answered(hook, case, value))


def test_every_recogniser_names_a_mistake_it_can_see() -> None:
    """Each entry of the table is some hook's, and fits a wrong answer built the way its
    name says (on a shipped case)."""
    cases = load_cases()
    bounds = next(c for c in cases["constraint_bounds"] if c.name == "mixed domains")
    fc = next(c for c in cases["forward_check"] if c.name == "assigned is given")
    order = next(c for c in cases["order_values"] if c.name == "undecided")
    assert {m.hook for m in MISCONCEPTIONS} <= set(HOOK_NAMES)
    low, high = bounds.expected
    found = recognised("constraint_bounds", answered("constraint_bounds", bounds, [high, low]))
    assert found is not None and found.name == "low and high swapped"
    unchanged = {int(v): d for v, d in fc.args["domains"].items()}
    found = recognised("forward_check", answered("forward_check", fc, unchanged))
    assert found is not None and found.name == "less than one pass"
    found = recognised("order_values", answered("order_values", order, [1, 0]))
    assert found is not None and found.name == "the order reversed"
    tie = next(c for c in cases["select_variable"] if c.name == "a degree tie")
    domains = {int(v): d for v, d in tie.args["domains"].items()}
    smallest = min(len(domains[v]) for v in tie.args["unassigned"])
    by_number = min(v for v in tie.args["unassigned"] if len(domains[v]) == smallest)
    found = recognised("select_variable", answered("select_variable", tie, by_number))
    assert found is not None and found.name == "a degree tie broken otherwise"


def test_a_graded_reason_names_swapped_bounds(tmp_path: Path) -> None:
    """Graded through the command line, a constraint_bounds that returns (high, low) loses
    its points with a reason that names that mistake, next to the case it failed."""
    _, report = grade_json(COURSE, lone("docs_swapped_bounds"), tmp_path / "r.json")
    bounds = next(item for item in report["hooks"] if item["id"] == "constraint_bounds")
    assert bounds["status"] == "fail", bounds
    assert "this looks like: low and high swapped (return (low, high), the smallest sum first)" in bounds["message"]
