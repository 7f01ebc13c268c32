"""`python -m grader PATH... --case HOOK:N` (or `HOOK@BOARD:N`): ask one hook case, or one
call of a search, again as grading asked it, and show it in full (see
`grader.commands.reruns` for what a rerun can promise)."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console

    from grader.commands.options import GradeOptions
    from grader.inputs.problemset import Problem
    from grader.sandbox.isolation import Sandbox, Scope
    from grader.scoring.searchcheck import Divergence


def one_case(args: GradeOptions, solver: str, config, console: Console, sandbox: Sandbox | None, scope) -> int:
    """`--case HOOK:N`: ask hook cases 1 to N in order, as grading did, and show case N in
    full; `--case='HOOK:TOKEN'`: a private case a reason carried (see `grader.scoring.rerun`)."""
    from rich.text import Text

    from grader.commands.reruns import ask_in_order, earlier_cases, private_note, rerun_notes, verdict
    from grader.scoring.hookcases import HOOK_NAMES, build_cases, describe_case, load_cases
    from grader.scoring.rerun import unpack
    from solvers.cliargs import print_error

    assert args.case is not None  # run for --case only
    hook, _, number = args.case.partition(":")
    cases = build_cases(config.hook_seed) if config.hook_seed is not None else load_cases()
    if hook in HOOK_NAMES and number and not number.isdigit():
        try:
            hook, course_number, case, graded = unpack(number)
        except ValueError as damaged:
            return print_error(f"--case {hook}:...: {damaged}", console)
        asked, labels = [case], [f"the course's case {course_number}"]
    elif hook not in HOOK_NAMES or not number.isdigit() or not 1 <= int(number) <= len(cases[hook]):
        known = ", ".join(f"{name}:1-{len(cases[name])}" for name in HOOK_NAMES)
        return print_error(f"--case {args.case}: expected HOOK:N, one of {known}", console)
    else:
        course_number, asked, graded = int(number), cases[hook][: int(number)], None
        labels = [f'case {n} ("{c.name}")' for n, c in enumerate(asked, start=1)]
    case = asked[-1]
    shown_number, shown = (
        (course_number, case)
        if graded is None
        else (  # a private case is no case of the copy's
            None,
            replace(case, name=f'the course\'s private case {course_number}, "{case.name}"'),
        )
    )
    rerun = ask_in_order(solver, hook, asked, args.timeout or config.timeout, config.memory_mb, sandbox, scope)
    if not rerun.outcome.ok:
        return print_error(f"{hook} case {course_number}: {rerun.outcome.message}", console)
    console.print(Text(describe_case(hook, shown_number, shown, rerun.answer)), highlight=False)
    if rerun.outcome.output.strip():
        console.print(Text("  printed: " + rerun.outcome.output.strip()[:2000]), highlight=False)
    steady = rerun.unsteady(labels) is None
    notes = private_note(hook, course_number, graded, rerun.answer) if graded is not None and steady else []
    for line in rerun_notes(hook, rerun, labels, case.expected, earlier_cases(asked)) + notes:
        console.print(Text(line), highlight=False)
    return verdict(console, rerun, labels, rerun.answer, case.expected)


def one_search_call(args: GradeOptions, solver: str, problems: list[Problem], config, console: Console, sandbox: Sandbox | None, scope: Scope) -> int:
    """`--case HOOK@BOARD:N`: search BOARD with the solver's hooks up to the N-th call of
    HOOK, and show that call as a case (a reason names it so)."""
    from rich.text import Text

    from grader.commands.reruns import Rerun, rerun_notes, verdict
    from grader.hooktable import BY_NAME
    from grader.sandbox.host import Limits
    from grader.scoring.grading import model_answer, run_solver_tasks
    from grader.scoring.hookcases import HOOK_NAMES, describe_case
    from grader.scoring.problems import problem_task
    from grader.scoring.storedanswers import AnswerTable
    from solvers.cliargs import print_error

    assert args.case is not None  # run for --case only
    hook, _, rest = args.case.partition("@")
    board, _, number = rest.rpartition(":")
    problem = next((p for p in problems if p.id == board and not p.hidden), None)
    if hook not in HOOK_NAMES or problem is None or not number.isdigit() or int(number) < 1:
        why = f"expected HOOK@BOARD:N, a hook of {', '.join(HOOK_NAMES)} and a visible board of the files given"
        return print_error(f"--case {args.case}: {why}", console)
    model = model_answer()
    if isinstance(model, AnswerTable) and model.missing:
        return print_error(f"--case {args.case}: cannot show the model answer's answers: {model.missing}", console)
    limit = args.timeout or problem.timeout or config.timeout
    if BY_NAME[hook].in_searches == "probes":  # asked apart, about the model answer's searches (see board_probes)
        return _one_probe(args, solver, problems, problem, int(number), config, console, sandbox, scope)
    if BY_NAME[hook].in_searches == "":
        return print_error(f"--case {args.case}: the grader's searches do not ask {hook}: its cases are all it is graded on", console)
    task = problem_task(problem, limit, model, stop_at=(hook, int(number)))
    first, again = run_solver_tasks(solver, [task, task], 1, Limits(memory_mb=config.memory_mb), sandbox, scope)
    if not first.ok:
        return print_error(f"{args.case}: {first.message}", console)
    call = first.answered.found
    if call is None:
        return print_error(f"{args.case}: the search of {board} made fewer than {number} calls of {hook}", console)
    if not call.known:
        return print_error(f"{args.case}: {_off_path(call.after, board)}", console)
    case = replace(call.case, name=f"call {number} of {hook} in the search of {board}")
    console.print(Text(describe_case(hook, None, case, call.returned)), highlight=False)
    rerun, labels = Rerun(first, again), [f"call {number}"]
    for line in rerun_notes(hook, rerun, labels, case.expected):
        console.print(Text(line), highlight=False)
    return verdict(console, rerun, labels, call.returned, case.expected)


def _one_probe(
    args: GradeOptions,
    solver: str,
    problems: list[Problem],
    problem: Problem,
    number: int,
    config,
    console: Console,
    sandbox: Sandbox | None,
    scope: Scope,
) -> int:
    """`--case HOOK@BOARD:N` for a probed hook (`HookSpec.probe`): ask the questions about
    the searches of the visible boards in order, as grading did (every board before BOARD,
    then BOARD's up to its N-th), and show the last in full."""
    from rich.text import Text

    from grader.commands.reruns import ask_in_order, rerun_notes, verdict
    from grader.scoring.case import Case
    from grader.scoring.grading import model_answer
    from grader.scoring.hookcases import describe_case
    from grader.scoring.probes import board_probes
    from grader.scoring.storedanswers import OffPath
    from solvers.cliargs import print_error

    assert args.case is not None  # run for --case only
    hook, model = args.case.partition("@")[0], model_answer()
    assert model is not None  # the caller checked
    asked: list[Case] = []
    labels: list[str] = []
    before: list[str] = []
    for shown in (p for p in problems if not p.hidden):
        try:
            probes = board_probes(hook, shown.board, model)
        except OffPath:
            return print_error(
                f"--case {args.case}: this copy does not carry the model answer's search of {shown.id} "
                "(a board changed since the copy was made), so only the course's grader can ask this call",
                console,
            )
        if shown is problem and number > len(probes):
            return print_error(f"{args.case}: the search of {problem.id} made fewer than {number} calls of {hook}", console)
        count = number if shown is problem else len(probes)
        asked += probes[:count]
        labels += [f"call {n} on {shown.id}" for n in range(1, count + 1)]
        last = count - 1 if shown is problem else count
        if last:
            before.append(f"call 1 on {shown.id}" if last == 1 else f"calls 1-{last} on {shown.id}")
        if shown is problem:
            break
    rerun = ask_in_order(solver, hook, asked, args.timeout or config.timeout, config.memory_mb, sandbox, scope)
    if not rerun.outcome.ok:
        return print_error(f"{args.case}: {rerun.outcome.message}", console)
    case = replace(asked[-1], name=f"call {number} of {hook} in the search of {problem.id}")
    console.print(Text(describe_case(hook, None, case, rerun.answer)), highlight=False)
    for line in rerun_notes(hook, rerun, labels, case.expected, ", ".join(before)):
        console.print(Text(line), highlight=False)
    return verdict(console, rerun, labels, rerun.answer, case.expected)


def _off_path(divergence: Divergence | None, board: str) -> str:
    """Why a call of a search cannot be shown with the model answer's answer in a student copy."""
    where = (
        f"after your search had left the model answer's path ({divergence.describe(board)})"
        if divergence is not None
        else "on a board this copy does not carry as it is now"
    )
    return (
        f"this call came {where}; this copy knows the model answer's answers only along its own searches of the "
        "public boards, so only the course's grader can check this call (fix the first wrong call first)"
    )
