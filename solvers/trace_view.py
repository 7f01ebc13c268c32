"""Rendering search traces with rich: boards, prunes, dead ends, solutions, trees.

Every state has its own symbol, so meaning never rests on colour alone; rich drops the
colours by itself when output is piped or NO_COLOR is set.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.columns import Columns
from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text
from rich.tree import Tree

from .board import Board, cell_name
from .csp import CSP, Domains
from .trace import DOMAIN_CODES, DOMAIN_OF_CODE, Step, TraceOptions, domains_of, narrowed, step_domains

#: (symbol, style, meaning) for a variable's state.
SYMBOLS = {
    "mine": ("●", "bold red", "mine (assigned)"),
    "safe": ("○", "green", "safe (assigned)"),
    "forced-mine": ("◆", "red", "mine by forward checking"),
    "forced-safe": ("◇", "green", "safe by forward checking"),
    "open": ("?", "yellow", "undecided {0,1}"),
    "empty": ("✗", "bold magenta", "no value left"),
}


#: Explains a forward check by the bound rule: (reasons, variables narrowed with no
#: reason), from the CSP and the domains before and after, as a step keeps them. The answer
#: key has one (`answerkey.explain.explain`); a student copy shows its traces without reasons.
Explainer = Callable[[CSP, str, "str | None"], tuple[list[Any], list[int]]]


def cell_state(domain: tuple[int, ...], value: int | None = None) -> str:
    """A variable's state (a key of SYMBOLS): its value's when assigned (`value`), else its
    domain's."""
    if value is not None:
        return "mine" if value == 1 else "safe"
    if not domain:
        return "empty"
    if len(domain) > 1:
        return "open"
    return "forced-mine" if domain[0] == 1 else "forced-safe"


def _state(var: int, domains: Domains, assigned: dict[int, int]) -> str:
    return cell_state(domains.get(var, ()), assigned.get(var))


def board_grid(board: Board, csp: CSP, domains: Domains, assigned: dict[int, int], highlight: int | None = None, numbered: bool = False) -> Text:
    """The board as a grid: clues, assigned cells, forced cells and undecided cells; with
    `numbered`, each variable's cell also shows its number (v7?)."""
    index = {cell: var for var, cell in enumerate(csp.cells)}
    width = 8 if numbered else 5
    text = Text()
    for r in range(board.rows):
        for c in range(board.cols):
            clue = board.clue((r, c))
            var = index.get((r, c))
            symbol, style = ("", "")
            if var is not None:
                symbol, style, _ = SYMBOLS[_state(var, domains, assigned)]
            number = f"v{var}" if numbered and var is not None else ""
            mark = " ".join(part for part in (str(clue) if clue is not None else "", f"{number}{symbol}") if part)
            if var is not None and var == highlight:
                text.append(f"[{mark}]".center(width), style=style + " reverse")
            else:
                text.append(mark.center(width), style=style or "bold cyan")
        text.append("\n")
    return text


def legend() -> Text:
    text = Text("legend: ")
    for symbol, style, meaning in SYMBOLS.values():
        text.append(symbol, style=style)
        text.append(f" {meaning}  ")
    text.append("[x] just assigned; digits are clues")
    return text


def describe_reason(reason: Any, csp: CSP) -> str:
    """One line: a constraint's bounds against its total, and what followed."""
    where = reason.constraint.label
    bounds = f"bounds [{reason.low}, {reason.high}] vs {reason.constraint.total}"
    if reason.violated:
        side = "lower bound above" if reason.low > reason.constraint.total else "upper bound below"
        return f"✗ {where}: {bounds}: {side} the total, no layout fits"
    cells = ", ".join(cell_name(csp.cells[v]) for v in reason.forced)
    side = "lower bound = total, so these are safe" if reason.value == 0 else "upper bound = total, so these are mines"
    return f"→ {where}: {bounds}: {side}: {cells}"


def _assigned(step: Step) -> dict[int, int]:
    return {var: value for var, value in step["assignment"]}


def _headline(step: Step, csp: CSP) -> Text:
    text = Text(f"step {step['step']} · depth {step['depth']}", style="bold")
    if step["assignment"]:
        var, value = step["assignment"][-1]
        text.append(f" · {cell_name(csp.cells[var])} := {'mine' if value else 'safe'}")
    else:
        text.append(" · root")
    return text


def _outcome(step: Step, csp: CSP, number: int) -> Text:
    if step["outcome"] == "solution":
        return Text(f"✓ solution {number}", style="bold green")
    if step["outcome"] == "dead-end":
        return Text("✗ dead end", style="bold red")
    if step["outcome"] == "stopped":
        return Text(f"■ the search stopped here: {step.get('error', 'a hook failed')}", style="bold red")
    values = ", ".join("safe" if v == 0 else "mine" for v in step["values"])
    return Text(f"↳ branch on {cell_name(csp.cells[step['var']])}: try {values}")


#: What a forward check did to a variable, by the code of its domain after (`DOMAIN_CODES`).
_NARROWED_TO = {DOMAIN_CODES[(0,)]: "made safe", DOMAIN_CODES[(1,)]: "made mines", DOMAIN_CODES[()]: "emptied"}


def what_it_did(step: Step, csp: CSP) -> list[Text]:
    """What the hooks did at a step, in their own terms and nothing more: the cells their
    forward check made safe, made mines or emptied, the dead end it returned, or the
    engine's goal test that rejected the values they left."""
    after = step["after"]
    if step["outcome"] == "stopped" and after is None:
        return []  # the forward check never answered: the outcome says why
    if after is None:
        return [Text("your forward_check returned None: a dead end")]
    groups: dict[str, list[str]] = {}
    for var in narrowed(step):
        kind = _NARROWED_TO.get(after[var], "narrowed")
        groups.setdefault(kind, []).append(cell_name(csp.cells[var]))
    lines = [Text(f"your forward_check {kind}: {', '.join(cells)}") for kind, cells in groups.items()]
    if not groups:
        lines.append(Text("your forward_check changed nothing"))
    return lines + dead_end_cause(step)


def dead_end_cause(step: Step) -> list[Text]:
    """Why the engine ended a node its forward check let through, when it did."""
    if step.get("dead_end") == "empty-domain":
        return [Text("a cell has no value left: a dead end")]
    if step.get("dead_end") == "goal-test":
        return [Text("every cell has one value, but they break a constraint (the engine's goal test): a dead end")]
    return []


def departures(csp: CSP, after: str | None, rule: list[Any]) -> list[Text]:
    """Where a forward check's result (`after`, as a step keeps it) departs from the bound
    rule's reasons `rule` (taken from the same domains): a value the rule forces that it
    ruled out, a dead end the rule does not see, or one it missed."""
    violated = any(reason.violated for reason in rule)
    if after is None:
        return [] if violated else [Text("✗ departs from the bound rule: no constraint is violated here", style="red")]
    if violated:
        reason = next(r for r in rule if r.violated)
        return [Text(f"✗ departs from the bound rule, which finds a dead end: {describe_reason(reason, csp)}", style="red")]
    lines = []
    for reason in rule:
        wrong = [v for v in reason.forced if reason.value not in DOMAIN_OF_CODE[after[v]]]
        if wrong:
            names = ", ".join(cell_name(csp.cells[v]) for v in wrong)
            should = "mines" if reason.value == 1 else "safe"
            lines.append(Text(f"✗ departs from the bound rule: {names} should be {should} ({describe_reason(reason, csp)})", style="red"))
    return lines


def step_notes(step: Step, csp: CSP, solution_number: int = 0, narrate: bool = False, explain: Explainer | None = None) -> list[Text]:
    """What a step's view says under its board: what the hooks did (or the bound rule's
    reasons), then the outcome. The terminal and the trace page both show these lines.

    `narrate`: the step is a student's: say only what its hooks did, then (given `explain`,
    as `--against reference` asks) where that departs from the bound rule, the model
    answer's reasoning. Otherwise the step is the model answer's own, and `explain` gives
    its reasons.
    """
    parts: list[Text] = []
    if narrate:
        parts += what_it_did(step, csp)
        if explain is not None and step["outcome"] != "stopped":
            parts += departures(csp, step["after"], explain(csp, step["domains"], None)[0])
    elif explain is not None and (step["after"] != step["domains"] or step["outcome"] == "dead-end"):
        reasons, unexplained = explain(csp, step["domains"], step["after"])
        parts += [Text(describe_reason(r, csp)) for r in reasons]
        if step["outcome"] == "dead-end" and step["after"] is None and not any(r.violated for r in reasons):
            parts.append(Text("? forward checking said dead end, but no constraint is violated", style="yellow"))
        if unexplained:
            names = ", ".join(cell_name(csp.cells[v]) for v in unexplained)
            parts.append(Text(f"? narrowed with no reason from the bound rule: {names}", style="yellow"))
    if not narrate and step.get("dead_end") == "goal-test":
        parts += dead_end_cause(step)
    parts.append(_outcome(step, csp, solution_number))
    return parts


def shown_domains(step: Step) -> Domains:
    """The domains a step's board shows: after forward checking, or before it when the
    check returned None."""
    before, after = step_domains(step)
    return after if after is not None else before


def step_view(step: Step, board: Board, csp: CSP, solution_number: int = 0, narrate: bool = False, explain: Explainer | None = None) -> Group:
    """One popped node in full: headline, the board after forward checking, then
    `step_notes` (reasons or what the hooks did, and the outcome)."""
    highlight = step["assignment"][-1][0] if step["assignment"] else None
    board_text = board_grid(board, csp, shown_domains(step), _assigned(step), highlight)
    return Group(_headline(step, csp), board_text, *step_notes(step, csp, solution_number, narrate, explain))


def compact_line(step: Step, csp: CSP, solution_number: int = 0) -> Text:
    """One line per node: step, depth, what was assigned, how much was pruned, the outcome."""
    text = _headline(step, csp)
    before, after = step_domains(step)
    if after is not None and after != before:
        pruned = sum(len(before[var]) - len(values) for var, values in after.items())
        text.append(f" · pruned {pruned}")
    text.append(" · ")
    text.append_text(_outcome(step, csp, solution_number))
    return text


def _numbered(steps: list[Step]) -> list[tuple[Step, int]]:
    """Each step with its solution number (counting solutions so far)."""
    numbered, count = [], 0
    for step in steps:
        count += step["outcome"] == "solution"
        numbered.append((step, count))
    return numbered


def search_tree(steps: list[Step], csp: CSP, max_nodes: int = 500) -> Tree:
    """The search as a tree: each node by its last assignment, leaves marked ✓ or ✗."""
    root = Tree("root")
    by_path: dict[tuple[tuple[int, int], ...], Tree] = {}
    for step, number in _numbered(steps)[:max_nodes]:
        path = tuple(tuple(p) for p in step["assignment"])
        parent = by_path.get(path[:-1], root) if path else None
        if parent is None:
            by_path[path] = root
            continue
        var, value = path[-1]
        label = Text(f"{cell_name(csp.cells[var])}={'mine' if value else 'safe'} ")
        label.append_text(_outcome(step, csp, number))
        by_path[path] = parent.add(label)
    return root


def summary_table(summary: dict[str, Any]) -> Table:
    table = Table(title="search summary", title_justify="left", show_header=False)
    table.add_column("what")
    table.add_column("value", justify="right")
    for key in ("nodes", "dead_ends", "solutions", "max_depth"):
        table.add_row(key.replace("_", " "), str(summary[key]))
    table.add_row("time", f"{summary['seconds'] * 1000:.1f} ms")
    if not summary.get("complete", True):
        table.add_row("stopped", "after --max-steps")
    return table


def render_trace(
    console: Console,
    board: Board,
    csp: CSP,
    steps: list[Step],
    summary: dict[str, Any],
    options: TraceOptions = TraceOptions(),
    title: str = "",
    explain: Explainer | None = None,
    narrate: bool = False,
) -> None:
    """Print a trace: steps (full, compact or as a tree, filtered), then the summary.

    `narrate`: the steps are a student's, told by what their hooks did (`explain` is then
    not used); else each step of the model answer's search comes with `explain`'s reasons.
    """
    if title:
        console.rule(Text(title))
    if options.tree:
        console.print(search_tree(steps, csp))
    else:
        if not options.compact:
            console.print(legend())
        wanted = {"all": None, "dead-ends": "dead-end", "solutions": "solution"}[options.only]
        for step, number in _numbered(steps):
            if wanted is not None and step["outcome"] != wanted:
                continue
            console.print(
                compact_line(step, csp, number) if options.compact else step_view(step, board, csp, number, narrate, None if narrate else explain)
            )
            if not options.compact:
                console.print()
    console.print(summary_table(summary))


def save_export(console: Console, path: Path, title: str) -> list[str]:
    """Write what a recording console printed, in the format the suffix names; a line
    for each file written (an SVG trace may take several: `solvers.trace_svg`)."""
    if path.suffix == ".svg":
        from solvers.trace_svg import PAGE_LINES, save_svg_pages

        pages = save_svg_pages(console, path, title)
        if len(pages) == 1:
            return [f"wrote {path}"]
        return [f"wrote {page.describe()}" for page in pages] + [
            f"(the trace in {len(pages)} SVG files of at most {PAGE_LINES} lines each, cut between steps)"
        ]
    console.save_text(str(path))  # .txt (a .html export is the trace page: solvers.trace_page)
    return [f"wrote {path}"]


# --- divergence: where a solver first decides differently from the reference ---

#: The title of the reference's side of a divergence: its reasons are the model answer's.
MODEL_ANSWER = "model answer (reference)"


def first_difference(mine: list[Step], reference: list[Step]) -> tuple[int, str] | None:
    """The index of the first step where the decisions differ, and what differs."""
    for index, (a, b) in enumerate(zip(mine, reference)):
        if a["outcome"] == "stopped":
            return index, "your search stopped (a hook failed)"
        if a["after"] != b["after"]:  # one encoding: equal strings, equal domains
            return index, "domains after forward checking"
        if a["outcome"] != b["outcome"]:
            return index, "outcome"
        if a.get("var") != b.get("var"):
            return index, "variable chosen"
        if a.get("values") != b.get("values"):
            return index, "value order"
    if len(mine) != len(reference):
        return min(len(mine), len(reference)), "number of steps"
    return None


def why_reference(kind: str, mine: Step, reference: Step, csp: CSP, explain: Explainer | None = None) -> list[str]:
    """Sentences explaining the reference's decision at a divergence."""
    after = step_domains(reference)[1]
    if kind in ("domains after forward checking", "outcome"):
        reasons, _ = explain(csp, reference["domains"], reference["after"]) if explain else ([], [])
        lines = [describe_reason(r, csp) for r in reasons] or ["the bound rule narrows nothing here"]
        if (yours := step_domains(mine)[1]) is not None:
            differing = [v for v in yours if after is None or yours[v] != after.get(v)]
            if differing:
                lines.append(
                    "yours differs at "
                    + ", ".join(
                        f"{cell_name(csp.cells[v])} {list(yours[v])} (reference {list(after[v]) if after else 'dead end'})" for v in differing[:6]
                    )
                )
        return lines
    if kind == "variable chosen":
        domains = domains_of(reference["after"])

        def facts(var: int) -> str:
            return f"{cell_name(csp.cells[var])} (variable {var}): {len(domains[var])} value(s), in {len(csp.constraints_of[var])} constraints"

        return [
            f"reference picks {facts(reference['var'])}",
            f"yours picks {facts(mine['var'])}" if mine.get("var") is not None else "yours does not branch",
            "MRV: fewest values first, then most constraints, then the lowest variable number",
        ]
    if kind == "value order":
        return [f"reference tries {reference['values']}, yours {mine.get('values')}: safe (0) before mine (1)"]
    return [f"your search has {kind} different from the reference's"]


WHY_HEADLINE = "Why the model answer decides so:"


def divergence_story(csp: CSP, mine: list[Step], reference: list[Step], explain: Explainer | None = None) -> tuple[int, list[str]] | None:
    """The index of the first step where `mine` leaves `reference`, and the sentences the
    terminal says about it (headline first); None when the searches never differ."""
    found = first_difference(mine, reference)
    if found is None:
        return None
    index, kind = found
    lines = [f"First difference at step {index + 1}: {kind}"]
    if index < len(mine) and index < len(reference) and mine[index]["outcome"] != "stopped":
        lines += [WHY_HEADLINE, *why_reference(kind, mine[index], reference[index], csp, explain)]
    return index, lines


def render_divergence(console: Console, board: Board, csp: CSP, mine: list[Step], reference: list[Step], explain: Explainer | None = None) -> bool:
    """Show the first step where `mine` and `reference` differ; False when they never do."""
    story = divergence_story(csp, mine, reference, explain)
    if story is None:
        console.print(f"[green]✓ identical to the reference for all {len(reference)} steps[/]")
        return False
    index, (headline, *why) = story
    console.print(Text(headline, style="bold"))
    panels = []
    for title, steps in (("your hooks", mine), (MODEL_ANSWER, reference)):
        body = (
            step_view(steps[index], board, csp, narrate=title == "your hooks", explain=explain)
            if index < len(steps)
            else Text("(search already ended)")
        )
        panels.append(Panel(body, title=title))
    console.print(Columns(panels))
    for line in why:
        console.print(line, highlight=False)
    return True
