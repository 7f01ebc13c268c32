"""Search traces: the recorded event stream, the rendered text, divergence, comparison, export."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from rich.console import Console

from answerkey.explain import explain
from answerkey.strategies import FC_FIXPOINT, HANDOUT, PLAIN, REFERENCE
from solvers.csp import CSP, Constraint, build_csp
from solvers.engine import Branched, DeadEnd, Popped, Pruned, Solved, Strategy, search
from solvers.textformat import parse_board
from solvers.trace import TraceOptions, record
from solvers.trace_view import first_difference, render_divergence, render_trace

ROOT = Path(__file__).resolve().parents[1]
SNAPSHOT = Path(__file__).with_name("snapshots") / "trace_small.txt"
# A 3x4 board with 3 mines and 2 solutions: the root's forward check narrows, and the
# handout's search meets a dead end (made by the project's generator).
SMALL = parse_board("1 . 3 .\n1 . . .\n1 2 . .", "classic", 3)


def _render(steps, summary, options=TraceOptions(), board=SMALL) -> str:
    console = Console(width=100, record=True, color_system=None, force_terminal=False)
    csp = build_csp(board)
    render_trace(console, board, csp, steps, summary, options, explain=explain)
    return console.export_text()


def test_event_stream_order_and_content() -> None:
    events = []
    csp = build_csp(SMALL)
    result = search(csp, REFERENCE, "all", events.append)
    kinds = [type(e).__name__ for e in events]
    assert kinds[0] == "Popped" and events[0].step == 1 and events[0].node.assignment == ()
    # every step starts with its pop, and ends in exactly one of branch, dead end or solution
    steps: dict[int, list[str]] = {}
    for event in events:
        steps.setdefault(event.step, []).append(type(event).__name__)
    for step, names in steps.items():
        assert names[0] == "Popped", (step, names)
        assert sum(n in ("Branched", "DeadEnd", "Solved") for n in names) == 1, (step, names)
        assert set(names) <= {"Popped", "Pruned", "Branched", "DeadEnd", "Solved"}
    assert len(steps) == result.stats.popped
    assert sum(isinstance(e, DeadEnd) for e in events) == result.stats.dead_ends
    solved = [e.values for e in events if isinstance(e, Solved)]
    assert sorted(solved) == sorted(result.solutions) and len(solved) == result.count
    # the root's forward check narrows some domains and widens none
    root_prune = next(e for e in events if isinstance(e, Pruned) and e.step == 1)
    assert root_prune.before != root_prune.after
    assert all(len(root_prune.after[v]) <= len(root_prune.before[v]) for v in root_prune.before)
    branches = [e for e in events if isinstance(e, Branched)]
    assert all(e.values == tuple(sorted(e.values)) for e in branches)  # safe before mine
    pops = [e for e in events if isinstance(e, Popped)]
    assert [p.step for p in pops] == list(range(1, len(pops) + 1))


def test_recorded_steps_match_the_engine() -> None:
    csp = build_csp(SMALL)
    trace = record(csp, HANDOUT)
    stats = search(csp, HANDOUT, "all").stats
    summary = trace.summary()
    assert summary["nodes"] == stats.popped and summary["dead_ends"] == stats.dead_ends
    assert summary["solutions"] == search(csp, HANDOUT, "count").count
    assert summary["max_depth"] == stats.max_depth
    cut = record(csp, PLAIN, max_steps=3)
    assert len(cut.steps) == 3 and not cut.complete


def test_rendered_trace_matches_the_snapshot() -> None:
    trace = record(build_csp(SMALL), HANDOUT)
    summary = {**trace.summary(), "seconds": 0.0}  # time varies; everything else is deterministic
    text = _render(trace.steps, summary)
    if os.environ.get("UPDATE_SNAPSHOTS"):  # after a deliberate change to the rendering
        SNAPSHOT.write_text(text, encoding="utf-8")
    assert SNAPSHOT.exists(), "no snapshot: run once with UPDATE_SNAPSHOTS=1 and review the file"
    assert text == SNAPSHOT.read_text(encoding="utf-8")


def test_rendering_explains_prunes_dead_ends_and_solutions() -> None:
    trace = record(build_csp(SMALL), PLAIN)
    text = _render(trace.steps, trace.summary())
    assert "✗ dead end" in text and "✓ solution 1" in text
    pruned = _render(record(build_csp(SMALL), FC_FIXPOINT).steps, trace.summary())
    assert "clue 1 at r3c1: bounds [0, 1] vs 1: upper bound = total, so these are mines: r2c2" in pruned
    assert "lower bound = total, so these are safe: r1c2" in pruned


def test_dead_end_names_the_violated_constraint() -> None:
    board = parse_board("? 3 ? 3 ?", "classic")  # the reference SAT solver's unsatisfiable row
    trace = record(build_csp(board), FC_FIXPOINT)
    text = _render(trace.steps, trace.summary(), board=board)
    assert "✗ clue 3 at r1" in text and "no layout fits" in text


def test_filters_compact_and_tree() -> None:
    trace = record(build_csp(SMALL), PLAIN)
    only_dead = _render(trace.steps, trace.summary(), TraceOptions(only="dead-ends"))
    assert "✓ solution" not in only_dead and "✗ dead end" in only_dead
    compact = _render(trace.steps, trace.summary(), TraceOptions(compact=True))
    assert sum(line.startswith("step ") for line in compact.splitlines()) == len(trace.steps)
    tree = _render(trace.steps, trace.summary(), TraceOptions(tree=True))
    assert tree.startswith("root") and "└──" in tree


def test_divergence_stops_at_the_first_different_decision() -> None:
    csp = build_csp(SMALL)
    mine, reference = record(csp, PLAIN).steps, record(csp, HANDOUT).steps
    index, kind = first_difference(mine, reference)
    assert index == 0 and kind == "domains after forward checking"
    console = Console(width=120, record=True, color_system=None)
    assert render_divergence(console, SMALL, csp, mine, reference, explain)
    text = console.export_text()
    assert "your hooks" in text and "reference" in text and "First difference at step 1" in text
    assert not render_divergence(Console(file=open(os.devnull, "w")), SMALL, csp, reference, reference)


def test_choice_divergence_explains_mrv() -> None:
    csp = CSP(cells=((0, 0), (0, 1), (0, 2)), constraints=(Constraint((0, 1, 2), 1, (1, 1)),))
    reference = record(csp, HANDOUT).steps
    mine = [dict(step) for step in reference]
    mine[0] = {**mine[0], "var": 2}
    console = Console(width=120, record=True, color_system=None)
    render_divergence(console, SMALL, csp, mine, reference, explain)
    assert "MRV: fewest values first" in console.export_text()


def _cli(*args: str, env_extra: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("FORCE_COLOR", "TTY_COMPATIBLE")}
    env.update(PYTHONPATH=str(ROOT), COLUMNS="100", **(env_extra or {}))
    return subprocess.run([sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=120)


def test_grader_trace_compare_and_export(tmp_path: Path) -> None:
    traced = _cli("grader", "problems/course.yaml", "--trace", "nctu-2", "--solver", "reference", "--compact")
    assert traced.returncode == 0 and "✓ solution 2" in traced.stdout and "search summary" in traced.stdout
    against = _cli("grader", "problems/course.yaml", "--trace", "nctu-2", "--against", "reference", "--solver", "tests/student_files/lazy_fc.py")
    assert "First difference at step 1" in against.stdout
    compared = _cli("grader", "problems/course.yaml", "--compare")
    for name in ("plain", "fc-once", "fc-fixpoint", "fc-mrv", "total"):
        assert name in compared.stdout
    board = tmp_path / "board.txt"
    board.write_text(". 1 . 1 1 .\n2 2 3 . . 1\n. . 5 . 5 .\n2 . 5 . . .\n. 2 . . 3 .\n. . 1 1 . 0\n")
    for suffix in (".svg", ".html", ".txt"):
        target = tmp_path / f"trace{suffix}"
        exported = _cli("solvers", "trace", str(board), "--mines", "10", "--export", str(target))
        assert exported.returncode == 0, exported.stderr
        assert "solution" in target.read_text(encoding="utf-8")
    missing = _cli("grader", "problems/course.yaml", "--trace", "no-such-id")
    assert missing.returncode == 2 and "Traceback" not in missing.stderr + missing.stdout


def test_plain_output_when_piped_or_no_color(tmp_path: Path) -> None:
    result = _cli("grader", "problems/course.yaml", "--trace", "nctu-2", "--solver", "reference", env_extra={"NO_COLOR": "1"})
    assert "\x1b[" not in result.stdout  # no escape codes: symbols carry the meaning
    legend = "legend: ● mine (assigned)  ○ safe (assigned)  ◆ mine by forward checking  ◇ safe by forward checking"
    assert legend in result.stdout
    drawn = result.stdout.replace(legend, "")
    assert "●" in drawn and "◆" in drawn  # nctu-2's search both assigns mines and forces them


def test_without_an_explainer_a_trace_shows_no_reasons() -> None:
    """A student copy has no answer key: the same trace, without the bound rule's reasons."""
    trace = record(build_csp(SMALL), HANDOUT)
    console = Console(width=100, record=True, color_system=None, force_terminal=False)
    render_trace(console, SMALL, build_csp(SMALL), trace.steps, trace.summary())
    text = console.export_text()
    assert "bounds [" not in text and "r2c2" in text


# --- a student's trace tells what the student's hooks did, and nothing more ---------------

#: Words of the bound rule's reasoning (the model answer's): never in a student's own trace.
RULE_WORDS = ("bounds [", "so these are", "no constraint is violated", "bound rule")


def _student_trace(*args: str) -> str:
    traced = _cli("grader", "problems/course.yaml", "--trace", *args)
    assert "Traceback" not in traced.stdout + traced.stderr, traced.stderr
    return " ".join(traced.stdout.split())


def test_the_stubs_trace_says_the_search_stopped_and_nothing_else() -> None:
    """With the stubs, forward_check raises at the root: nothing was decided there."""
    shown = _student_trace("nctu-2")
    assert "■ the search stopped here: forward_check is not implemented yet (it raises NotImplementedError)" in shown
    assert not any(word in shown for word in RULE_WORDS), shown
    assert "✗ dead end" not in shown and "dead ends │ 0" in shown
    against = _student_trace("nctu-2", "--against", "reference")
    assert "First difference at step 1: your search stopped (a hook failed)" in against
    mine = against.split("model answer (reference) ─")[0]
    assert not any(word in mine for word in RULE_WORDS), mine
    assert "Why the model answer decides so" not in against  # nothing of the student's to compare


def test_a_students_trace_narrates_only_its_hooks_answers() -> None:
    dead = _student_trace("nctu-1", "--solver", "tests/student_files/off_by_one_bounds.py")
    assert "your forward_check returned None: a dead end" in dead
    assert not any(word in dead for word in RULE_WORDS), dead
    flipped = _student_trace("nctu-1", "--solver", "tests/student_files/flips_values.py", "--max-steps", "3")
    assert "your forward_check made mines: r1c6, r2c5" in flipped
    assert not any(word in flipped for word in RULE_WORDS), flipped


def test_the_model_answers_reasoning_comes_with_against_reference_labelled() -> None:
    shown = _student_trace("nctu-1", "--solver", "tests/student_files/flips_values.py", "--against", "reference")
    mine, model = shown.split("model answer (reference) ─", 1)
    assert "so these are" not in mine.split("✗ departs")[0]
    assert "so these are safe" in model and "Why the model answer decides so:" in model


def test_a_goal_test_dead_end_is_the_engines_not_the_forward_checks() -> None:
    """A forward check that narrows nothing lets full assignments through; the engine's goal
    test rejects those that break a clue, and the trace says so, not "returned None"."""

    def unchanged(csp: CSP, domains: dict, assigned: int | None) -> dict:
        return dict(domains)

    blind = Strategy("blind", lambda csp, domains, unassigned: unassigned[0], lambda csp, var, domains: list(domains[var]), forward_check=unchanged)
    trace = record(build_csp(SMALL), blind)
    ends = [step for step in trace.steps if step["outcome"] == "dead-end"]
    assert ends and {step["dead_end"] for step in ends} == {"goal-test"} and all(step["after"] for step in ends)
    console = Console(width=140, record=True, color_system=None, force_terminal=False)
    render_trace(console, SMALL, build_csp(SMALL), trace.steps, trace.summary(), TraceOptions(only="dead-ends"), narrate=True)
    text = " ".join(console.export_text().split())
    assert "they break a constraint (the engine's goal test): a dead end" in text
    assert "returned None" not in text
