"""`python -m grader PATH --trace ID` and `--compare`: watching the search.

The search runs here, in the grader, whoever's hooks it uses: a student's hooks answer
from a sandboxed worker, one call at a time, exactly as when grading; the steps are
recorded here, so a student's trace and the reference's are the same kind of data.
A student's trace tells only what its hooks did; the model answer's reasoning (the bound
rule) appears with `--against reference`, or in the reference's own trace. Rendering is
`solvers.trace_view`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from pathlib import Path

from rich.console import Console
from rich.table import Table
from rich.text import Text

from grader.commands.options import GradeOptions
from grader.inputs.problemset import Problem
from grader.reference import reference_explainer, reference_strategies
from grader.reports.shown import details_shown
from grader.sandbox.host import Asker, Limits, WorkerFailure
from grader.sandbox.isolation import Sandbox
from grader.sandbox.tasks import Task, WorkerLost
from grader.scoring.grading import run_solver_tasks
from grader.scoring.hookcalls import TASK_FAILURES, Hooks
from solvers.cliargs import print_error
from solvers.csp import build_csp
from solvers.engine import search
from solvers.trace import Recorder, Step, Trace, TraceLimit, TraceOptions, export_error, record, step_filter, stop_at_last_step

COMPARED = ("plain", "fc-once", "fc-fixpoint", "fc-mrv")


def _find(problems: list[Problem], wanted: str) -> Problem | None:
    return next((p for p in problems if p.id == wanted), None)


@dataclass
class TraceAnswer:
    """The answer of a trace task: the steps recorded, whether the search ended within
    max_steps (`complete`), and the failure that stopped it (`error`)."""

    steps: list[Step] = field(default_factory=list)
    complete: bool = True
    error: str | None = None


def trace_task(problem: Problem, max_steps: int | None, limit: float) -> Task[TraceAnswer]:
    """Record the search of one problem, step by step (up to max_steps), asking the hooks."""

    def run(asker: Asker) -> TraceAnswer | WorkerLost[TraceAnswer]:
        recorder = Recorder(max_steps)
        hooks = Hooks(asker)
        result = TraceAnswer()
        lost = False
        try:
            hooks.use_board(problem.board)
            search(build_csp(problem.board), hooks.strategy(), "all", recorder)
        except TraceLimit:
            result.complete = False
        except TASK_FAILURES as error:
            result.error = str(error)
        except WorkerFailure as failure:
            if failure.ours:
                raise
            result.error, lost = failure.message, True
        if result.error is not None:
            stop_at_last_step(recorder.steps, result.error)
        result.steps = recorder.steps
        return WorkerLost(result) if lost else result

    return Task(run, limit, problem.id)


def trace_command(args: GradeOptions, solver: str, problems: list[Problem], console: Console, sandbox: Sandbox | None) -> int:
    """Trace one problem with the solver's hooks (and the reference with --against)."""
    from solvers.trace_page import PageInfo, write_trace_page
    from solvers.trace_view import divergence_story, render_divergence, render_trace, save_export

    assert args.trace is not None  # run for --trace only
    problem = _find(problems, args.trace)
    if problem is None:
        return print_error(f"--trace {args.trace}: no problem with that id under {', '.join(map(str, args.paths))}", console)
    if (why := export_error(args.export)) is not None:
        return print_error(why, console)
    if not details_shown(problem, args.show_hidden):
        return print_error(f"problem {problem.id!r} is hidden; instructors can add --show-hidden", console)
    out = Console(record=True) if args.export else console
    view = TraceOptions(step_filter(args.only or "all") or "all", args.compact, args.tree)  # --only: checked where the run started
    board, csp = problem.board, build_csp(problem.board)
    task = trace_task(problem, args.max_steps, args.timeout or 30.0)
    outcome = run_solver_tasks(solver, [task], 1, Limits(), sandbox)[0]
    answer = outcome.answer or TraceAnswer()  # a search that did not run to its end: no steps
    if outcome.ok and answer.error is not None:
        outcome = replace(outcome, status="error", message=answer.error)
    steps = answer.steps
    summary = Trace(steps, answer.complete, outcome.seconds).summary()
    title = f"{problem.id} with {'the reference' if solver == 'reference' else Path(solver).name}"
    story, model = None, None
    if args.against:
        reference = record(csp, reference_strategies().HANDOUT, max_steps=args.max_steps)
        render_divergence(out, board, csp, steps, reference.steps, reference_explainer())
        story = divergence_story(csp, steps, reference.steps, reference_explainer())
        model = reference.steps[story[0]] if story is not None and story[0] < len(reference.steps) else None
    elif solver == "reference":  # the model answer's own search, with its reasons
        render_trace(out, board, csp, steps, summary, view, title, reference_explainer())
    else:  # a student's search: only what its hooks did
        render_trace(out, board, csp, steps, summary, view, title, narrate=True)
    if not outcome.ok:
        out.print(Text(f"! the search stopped: {outcome.message or outcome.status}", style="red"))
    if args.export and args.export.suffix == ".html":  # a page that plays the search
        info = PageInfo(title, summary["complete"], args.max_steps, story, model)
        narrate = solver != "reference"
        write_trace_page(args.export, board, csp, steps, info, narrate, reference_explainer() if args.against or not narrate else None)
        console.print(f"wrote {args.export}")
    elif args.export:
        for line in save_export(out, args.export, title):
            console.print(line, markup=False, highlight=False)
    return 0 if outcome.ok else 1


def compare_command(args: GradeOptions, problems: list[Problem], console: Console) -> int:
    """Nodes, dead ends and time of each reference strategy, per problem and in total."""
    strategies = reference_strategies().STRATEGIES
    chosen = [p for p in problems if (args.trace is None or p.id == args.trace) and details_shown(p, args.show_hidden)]
    if not chosen:
        return print_error("no problem to compare", console)
    table = Table(title="strategy comparison: nodes · dead ends · time", title_justify="left")
    table.add_column("problem", overflow="fold")
    for name in COMPARED:
        table.add_column(name, justify="right")
    totals = {name: [0, 0, 0.0] for name in COMPARED}
    for problem in chosen:
        csp = build_csp(problem.board)
        cells = []
        for name in COMPARED:
            stats = search(csp, strategies[name], "all").stats
            for index, value in enumerate((stats.popped, stats.dead_ends, stats.seconds)):
                totals[name][index] += value
            cells.append(f"{stats.popped} · {stats.dead_ends} · {stats.seconds * 1000:.1f} ms")
        table.add_row(Text(f"{Path(problem.file).stem}/{problem.id}"), *cells)
    if len(chosen) > 1:
        table.add_section()
        table.add_row("[bold]total[/]", *(f"{n} · {d} · {s * 1000:.1f} ms" for n, d, s in totals.values()))
    console.print(table)
    console.print(
        "plain: backtracking with a bounds check; fc-once: one forward-checking pass per node; "
        "fc-fixpoint: forward checking repeated to a fixpoint; fc-mrv: fixpoint with MRV."
    )
    return 0
