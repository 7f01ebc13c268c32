"""The trace page (`--export trace.html`) in a real browser: each step's board is the one
the terminal draws for that step, the controls and the URL move one step, the divergence
from the reference sits where the terminal names it, and a hostile student's strings stay
text."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from browser import load
from playwright.sync_api import Page

from answerkey.strategies import HANDOUT, STRATEGIES
from grader.inputs.problemset import load_problems
from solvers.csp import build_csp
from solvers.trace import Step, record
from solvers.trace_view import SYMBOLS, board_grid, shown_domains

ROOT = Path(__file__).resolve().parents[1]
COURSE = ROOT / "problems" / "course.yaml"
STUDENTS = ROOT / "tests" / "student_files"
#: Every board of the course file (it holds three).
BOARDS = ("nctu-1", "nctu-1-as-printed", "nctu-2")
PAYLOAD = "x<img src=x onerror=window.__pwned=1>"
BY_SYMBOL = {symbol: state for state, (symbol, _, _) in SYMBOLS.items()}


def _grader(*args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env.update(PYTHONPATH=str(ROOT), COLUMNS="160")
    return subprocess.run([sys.executable, "-m", "grader", str(COURSE), *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def _problem(problem_id: str) -> Any:
    return next(p for p in load_problems(COURSE)[0] if p.id == problem_id)


def _terminal_board(problem_id: str, step: Step, board: Any = None) -> list[tuple[str, str, bool]]:
    """Each cell of the board the terminal draws for `step`: (name, what it shows, just assigned)."""
    board = board or _problem(problem_id).board
    csp = build_csp(board)
    highlight = step["assignment"][-1][0] if step["assignment"] else None
    text = board_grid(board, csp, shown_domains(step), dict(map(tuple, step["assignment"])), highlight).plain
    cells = []
    for r, line in enumerate(text.splitlines()):
        for c in range(board.cols):
            shown = line[c * 5 : (c + 1) * 5].strip()
            cells.append((f"r{r + 1}c{c + 1}", shown.strip("[]"), shown.startswith("[")))
    return cells


def _open(browser: Page, page: Path, fragment: str = "") -> None:
    """Load `page` afresh (a new fragment on the page already open would not reload it)."""
    load(browser, page, fragment)


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, tuple[Path, list[Step]]]:
    """Each course board's page (written by the grader with the reference's hooks) and the
    steps the terminal renders for it."""
    folder = tmp_path_factory.mktemp("trace-pages")
    made = {}
    for problem_id in BOARDS:
        out = folder / f"{problem_id}.html"
        run = _grader("--trace", problem_id, "--solver", "reference", "--export", str(out))
        assert run.returncode == 0, run.stderr
        steps = record(build_csp(_problem(problem_id).board), HANDOUT, max_steps=200).steps
        made[problem_id] = (out, steps)
    return made


def _picked(steps: list[Step]) -> list[int]:
    """A few step numbers: the first, a middle one, the first dead end, the last."""
    dead = [n for n, s in enumerate(steps, 1) if s["outcome"] == "dead-end"]
    return sorted({1, (len(steps) + 1) // 2, *dead[:1], len(steps)})


CELLS_JS = "[...document.querySelectorAll('#board .cell')].map(d => [d.dataset.cell, d.textContent, d.dataset.state, d.classList.contains('just')])"


@pytest.mark.parametrize("problem_id", BOARDS)
def test_each_step_shows_the_terminals_board(browser: Page, pages: dict[str, tuple[Path, list[Step]]], problem_id: str) -> None:
    page, steps = pages[problem_id]
    assert any(s["outcome"] == "dead-end" for s in steps), "the board's search has a dead end to show"
    for number in _picked(steps):
        _open(browser, page, f"step={number}")
        assert browser.evaluate("[tracePlayer.steps, tracePlayer.step()]") == [len(steps), number]
        shown = browser.evaluate(CELLS_JS)
        expected = _terminal_board(problem_id, steps[number - 1])
        assert [(name, text, just) for name, text, _, just in shown] == expected, number
        for _, text, state, _ in shown:
            assert state == ("clue" if text.isdigit() else BY_SYMBOL[text])
        outcome = browser.evaluate("document.getElementById('outcome').dataset.outcome")
        assert outcome == {"branch": "b", "dead-end": "d", "solution": "s"}[steps[number - 1]["outcome"]]
        assert browser.evaluate("document.getElementById('depth').textContent") == str(steps[number - 1]["depth"])
        path = browser.evaluate("[...document.querySelectorAll('#path li')].map(li => li.textContent.split(' ')[0])")
        assignment = steps[number - 1]["assignment"]
        assert path == (
            [
                f"r{build_csp(_problem(problem_id).board).cells[v][0] + 1}c{build_csp(_problem(problem_id).board).cells[v][1] + 1}"
                for v, _ in assignment
            ]
            or ["(the"]
        )
    dead = next(n for n, s in enumerate(steps, 1) if s["outcome"] == "dead-end")
    _open(browser, page, f"step={dead}")
    assert browser.evaluate("document.getElementById('outcome').textContent") == "✗ dead end"
    assert browser.evaluate("document.getElementById('counts').textContent").startswith(f"{dead} nodes · 1 dead ends")


def test_solvers_trace_exports_the_page_of_a_long_search(browser: Page, tmp_path: Path) -> None:
    """`python -m solvers trace --export`: plain backtracking on nctu-1, past the page's
    replay checkpoints (every 256 steps), stopped at the cap."""
    out = tmp_path / "plain.html"
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    run = subprocess.run(
        [
            sys.executable,
            "-m",
            "solvers",
            "trace",
            "problems/boards/nctu-1.txt",
            "--mines",
            "10",
            "--strategy",
            "plain",
            "--max-steps",
            "300",
            "--export",
            str(out),
        ],
        cwd=ROOT,
        env={**env, "PYTHONPATH": str(ROOT)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert run.returncode == 0, run.stderr
    board = _problem("nctu-1").board
    steps = record(build_csp(board), STRATEGIES["plain"], max_steps=300).steps
    for number in (255, 256, 257, 300, 3, 299):  # out of order: later checkpoints are made first
        _open(browser, out, f"step={number}")
        shown = browser.evaluate(CELLS_JS)
        assert [(name, text, just) for name, text, _, just in shown] == _terminal_board("", steps[number - 1], board), number
    assert "--max-steps 300" in browser.evaluate("document.getElementById('cap').textContent")


def test_keys_buttons_slider_tree_and_hash_move_the_step(browser: Page, pages: dict[str, tuple[Path, list[Step]]]) -> None:
    page, steps = pages["nctu-1"]
    _open(browser, page, "step=3")

    def where() -> list[Any]:
        return browser.evaluate("[tracePlayer.step(), location.hash, document.getElementById('slider').value]")

    assert where() == [3, "#step=3", "3"]
    browser.keyboard.press("ArrowRight")
    assert where() == [4, "#step=4", "4"]
    browser.keyboard.press("ArrowLeft")
    assert where() == [3, "#step=3", "3"]
    browser.evaluate("document.getElementById('next').click()")
    assert where() == [4, "#step=4", "4"]
    browser.evaluate("document.getElementById('prev').click()")
    browser.evaluate("document.getElementById('prev').click()")
    assert where() == [2, "#step=2", "2"]
    browser.keyboard.press("End")
    assert where()[0] == len(steps)
    browser.keyboard.press("Home")
    assert where() == [1, "#step=1", "1"]
    browser.evaluate("document.getElementById('last').click()")
    assert where()[0] == len(steps)
    browser.evaluate("document.getElementById('first').click()")
    assert where()[0] == 1
    moved = "new Promise(done => { location.hash = '#step=7'; setTimeout(() => done(tracePlayer.step()), 100); })"
    assert browser.evaluate(moved) == 7
    browser.keyboard.press("Space")  # play
    assert browser.evaluate("new Promise(done => setTimeout(() => done(tracePlayer.step()), 900))") > 7
    browser.keyboard.press("Space")  # pause
    paused = browser.evaluate("tracePlayer.step()")
    assert browser.evaluate("new Promise(done => setTimeout(() => done(tracePlayer.step()), 700))") == paused
    click = (
        "(() => { const box = document.getElementById('tree').getBoundingClientRect(); const n = tracePlayer.steps;"
        "document.getElementById('tree').dispatchEvent(new MouseEvent('click', {bubbles: true,"
        " clientX: box.left + (K - 0.5) / n * box.width, clientY: box.top + 5})); return tracePlayer.step(); })()"
    )
    assert browser.evaluate(click.replace("K", "10")) == 10
    slide = (
        "(() => { const s = document.getElementById('slider'); s.value = '12';"
        " s.dispatchEvent(new Event('input')); return [tracePlayer.step(), location.hash]; })()"
    )
    assert browser.evaluate(slide) == [12, "#step=12"]


@pytest.mark.parametrize("student", ["reversed_values.py", "small_inputs_mrv.py"])
def test_divergence_is_marked_where_the_terminal_names_it(browser: Page, tmp_path: Path, student: str) -> None:
    out = tmp_path / "against.html"
    run = _grader("--trace", "nctu-2", "--against", "reference", "--solver", str(STUDENTS / student), "--export", str(out))
    named = re.search(r"First difference at step (\d+): (.+)", run.stdout)
    assert named, run.stdout
    _open(browser, out)
    mark = browser.evaluate("document.getElementById('divmark').dataset.step")
    assert mark == named.group(1)
    told = browser.evaluate("[...document.querySelectorAll('#divergence p')].map(p => p.textContent)")
    assert told[0] == named.group(0).strip()
    for line in told[1:]:  # the terminal's own sentences about it
        assert " ".join(line.split()) in " ".join(run.stdout.split())
    browser.evaluate("document.getElementById('divmark').click()")
    assert browser.evaluate("tracePlayer.step()") == int(named.group(1))


def test_the_cap_is_stated_when_hit(browser: Page, tmp_path: Path) -> None:
    out = tmp_path / "capped.html"
    assert _grader("--trace", "nctu-1", "--solver", "reference", "--max-steps", "6", "--export", str(out)).returncode == 0
    _open(browser, out, "step=99")
    assert browser.evaluate("[tracePlayer.steps, tracePlayer.step()]") == [6, 6]
    cap = browser.evaluate("document.getElementById('cap')")
    stated = browser.evaluate("[document.getElementById('cap').dataset.hit, document.getElementById('cap').textContent]")
    assert cap is not None and stated[0] == "1" and "--max-steps 6" in stated[1] and "stopped after 6 steps" in stated[1]


def test_a_hostile_students_strings_stay_text(browser: Page, tmp_path: Path) -> None:
    shutil.copy(STUDENTS / "model_answer.py", tmp_path)
    student = tmp_path / f"{PAYLOAD}.py"
    student.write_text(
        "from model_answer import constraint_bounds, forward_check_once, values_ascending\n\n"
        "forward_check = forward_check_once\norder_values = values_ascending\n\n\n"
        "def select_variable(csp, domains, unassigned):\n"
        "    print('<img src=x onerror=\"window.__pwned=1\">')\n"
        "    raise ValueError('</script><img src=x onerror=\"window.__pwned=1\"><script>window.__pwned=2</script>')\n"
    )
    out = tmp_path / "hostile.html"
    run = _grader("--trace", "nctu-1", "--solver", str(student), "--export", str(out))
    assert out.exists(), run.stderr
    text = out.read_text(encoding="utf-8")
    assert "</script><img" not in text and "<img src=x" not in text
    _open(browser, out, "step=999")
    assert browser.evaluate("typeof window.__pwned") == "undefined"
    assert browser.evaluate("document.querySelectorAll('img, #side script').length") == 0
    assert PAYLOAD in browser.evaluate("document.getElementById('title').textContent")
    assert "window.__pwned=2</script>" in browser.evaluate("document.getElementById('outcome').textContent")
    assert PAYLOAD in browser.evaluate("document.title")


def test_the_pages_ask_for_nothing_but_themselves(browser: Page, requested: list[str], pages: dict[str, tuple[Path, list[Step]]]) -> None:
    for page, _ in pages.values():
        _open(browser, page, "step=2")
    asked = {url.split("#")[0] for url in requested}
    assert asked and all(url.startswith("file:") for url in asked), asked
    assert {page.resolve().as_uri() for page, _ in pages.values()} <= asked
    assert all(url.endswith(".html") for url in asked), asked


@pytest.mark.parametrize("strategy", sorted(STRATEGIES))
def test_stack_and_parents_agree_with_the_engine(strategy: str) -> None:
    """The page's stack sizes peak where the engine's own count does, and each step's
    parent holds its assignment but the last."""
    from solvers.engine import search
    from solvers.trace_page import PageInfo, page_data

    for problem_id in BOARDS:
        board = _problem(problem_id).board
        csp = build_csp(board)
        steps = record(csp, STRATEGIES[strategy]).steps
        data = page_data(board, csp, steps, PageInfo(problem_id))
        assert max(data["stack"]) + 1 == search(csp, STRATEGIES[strategy], "all").stats.max_stack
        for step, parent in zip(steps, data["parent"]):
            expected = steps[parent - 1]["assignment"] if parent else []
            assert step["assignment"][:-1] == expected and (parent > 0) == bool(step["assignment"])


# --- a long search: 10,000 steps -------------------------------------------------------

#: Few clues on an 8x8 board: plain backtracking pops far more than 10,000 nodes.
SPARSE = "1 . . . . . . 1\n. . . . . . . .\n. . 2 . . . . .\n. . . . . . 1 .\n. . . . . . . .\n. 1 . . . . . .\n. . . . . 2 . .\n. . . . . . . 1\n"
LONG = 10_000


class _Enough(Exception):
    """Stops the engine after the step a test wants."""


def _engine_board(board: Any, strategy: Any, wanted: int) -> list[str]:
    """The state of every cell (row by row, "clue" for a clue) on the board the engine's own
    events show at pop `wanted`: the popped node's domains, narrowed by its forward check
    when it answered, each assigned cell by its value. Read from the events, not a trace."""
    from solvers.engine import Popped, Pruned, search
    from solvers.trace_view import cell_state

    csp, seen = build_csp(board), {}

    def observe(event: Any) -> None:
        if event.step > wanted:
            raise _Enough
        if event.step == wanted and isinstance(event, Popped):
            seen.update(shown=event.node.view(), assigned=dict(event.node.assignment))
        elif event.step == wanted and isinstance(event, Pruned):
            seen["shown"] = event.after

    with pytest.raises(_Enough):
        search(csp, strategy, "all", observe)
    var_of = {cell: var for var, cell in enumerate(csp.cells)}
    return [
        "clue" if board.clue((r, c)) is not None else cell_state(seen["shown"][var_of[r, c]], seen["assigned"].get(var_of[r, c]))
        for r in range(board.rows)
        for c in range(board.cols)
    ]


def test_a_10000_step_page_is_written_whole(browser: Any, tmp_path: Path) -> None:
    """The page of 10,000 steps of plain backtracking counts them all, and its last step
    shows the board of the engine's 10,000th pop, its path from the root and its outcome."""
    from answerkey.explain import explain
    from solvers.board import cell_name
    from solvers.textformat import parse_board
    from solvers.trace_page import PageInfo, write_trace_page
    from solvers.trace_view import step_notes

    board = parse_board(SPARSE, "classic", 12)
    csp = build_csp(board)
    trace = record(csp, STRATEGIES["plain"], max_steps=LONG)
    assert len(trace.steps) == LONG and not trace.complete
    page = tmp_path / "long.html"
    write_trace_page(page, board, csp, trace.steps, PageInfo("10,000 steps", trace.complete, LONG), explain=explain)
    _open(browser, page, f"step={LONG}")
    assert browser.evaluate("[tracePlayer.steps, tracePlayer.step()]") == [LONG, LONG]
    assert "stopped after 10000 steps" in browser.evaluate("document.getElementById('cap').textContent")
    shown = browser.evaluate(CELLS_JS)
    assert [state for _, _, state, _ in shown] == _engine_board(board, STRATEGIES["plain"], LONG)
    assert [(name, text, just) for name, text, _, just in shown] == _terminal_board("", trace.steps[-1], board)
    path = browser.evaluate("[...document.querySelectorAll('#path li')].map(li => li.textContent.split(' ')[0])")
    assert path == [cell_name(csp.cells[var]) for var, _ in trace.steps[-1]["assignment"]]
    told = step_notes(trace.steps[-1], csp, sum(s["outcome"] == "solution" for s in trace.steps), explain=explain)[-1].plain
    assert browser.evaluate("document.getElementById('outcome').textContent") == told


def _replayed(data: dict[str, Any]) -> list[list[str]]:
    """Each step's board (state names) from the page's data, as its script rebuilds it."""
    board, boards = ["open"] * len(data["cells"]), []
    for delta in data["delta"]:
        for var, state in zip(delta[::2], delta[1::2]):
            board[var] = data["legend"][state][0]
        boards.append(list(board))
    return boards


def _terminal_states(step: Step, cells: int) -> list[str]:
    """The state of each variable on the board the terminal draws for `step`."""
    from solvers.trace_view import cell_state

    domains, assigned = shown_domains(step), dict(map(tuple, step["assignment"]))
    return [cell_state(domains[var], assigned.get(var)) for var in range(cells)]


@pytest.mark.slow  # records 20,000 steps: a few seconds
@pytest.mark.parametrize("strategy", ["plain", "fc-once"])
def test_every_board_of_a_10000_step_page_is_the_terminals(strategy: str) -> None:
    """Every step's board the page's data rebuilds is the terminal's, its notes are the
    terminal's lines, its parent holds its assignment but the last; and the steps out of
    the engine's order (the parent rule no longer holds) still give every board."""
    from solvers.textformat import parse_board
    from solvers.trace_page import PageInfo, page_data
    from solvers.trace_view import step_notes

    board = parse_board(SPARSE, "classic", 12)
    csp = build_csp(board)
    steps = record(csp, STRATEGIES[strategy], max_steps=LONG).steps
    data = page_data(board, csp, steps, PageInfo("long"), narrate=True)
    assert len(data["depth"]) == len(data["notes"]) == LONG
    assert _replayed(data) == [_terminal_states(step, len(csp.cells)) for step in steps]
    found = 0
    for step, notes, parent in zip(steps, data["notes"], data["parent"]):
        found += step["outcome"] == "solution"
        assert [data["texts"][i] for i in notes] == [line.plain for line in step_notes(step, csp, found, narrate=True)]
        assert step["assignment"][:-1] == (steps[parent - 1]["assignment"] if parent else [])
    shuffled = steps[::-7] + steps[:50]
    assert _replayed(page_data(board, csp, shuffled, PageInfo("shuffled"))) == [_terminal_states(step, len(csp.cells)) for step in shuffled]


def test_a_forward_check_that_empties_the_assigned_cell_shows_it_assigned() -> None:
    """A hostile forward check empties the cell just assigned a mine (a dead end) and makes
    every other undecided cell safe: the page shows that cell as assigned, like the
    terminal, and the others as forced, on every step."""
    from solvers.engine import Strategy
    from solvers.textformat import parse_board
    from solvers.trace_page import PageInfo, page_data

    def hostile(csp: Any, domains: dict[int, tuple[int, ...]], assigned: int | None) -> dict[int, tuple[int, ...]]:
        narrowed = {var: (0,) if len(values) > 1 and var % 3 == 0 else values for var, values in domains.items()}
        if assigned is not None and domains[assigned] == (1,):
            narrowed[assigned] = ()
        return narrowed

    board = parse_board(SPARSE, "classic", 12)
    csp = build_csp(board)
    strategy = Strategy("hostile", lambda csp, domains, unassigned: unassigned[-1], lambda csp, var, domains: [1, 0], hostile)
    steps = record(csp, strategy, max_steps=400).steps
    assert any(step["after"] is not None and "-" in step["after"] for step in steps)  # the emptied cell was recorded
    boards = _replayed(page_data(board, csp, steps, PageInfo("hostile"), narrate=True))
    assert boards == [_terminal_states(step, len(csp.cells)) for step in steps]
    assert any("mine" in shown and "forced-safe" in shown for shown in boards)
