"""`python -m grader`: grade a solver on problem sets, or check the problem sets themselves.

    python -m grader PATH [--solver assignment|reference|FILE.py] [--json FILE] [--timeout S]
    python -m grader check PATH [--json FILE]
    python -m grader goldens        (instructors: rebuild the hook test cases)
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from rich.console import Console

from .checking import check_problems, show_check
from .grading import grade
from .hookcases import CASES_FILE, write_cases
from .problemset import load_problems
from .report import report_json, show_errors, show_report, write_json


def resolve_solver(name: str) -> str | None:
    """"reference", or the path of the hooks file to grade (None when it does not exist)."""
    if name == "reference":
        return name
    if name == "assignment":
        local = Path("assignment/hooks.py")
        path = local if local.exists() else Path(__file__).resolve().parent.parent / "assignment" / "hooks.py"
    else:
        path = Path(name)
    return str(path.resolve()) if path.is_file() and path.suffix == ".py" else None


def _grade(argv: list[str], console: Console) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader", description="Grade a solver's hooks on problem sets.")
    parser.add_argument("path", type=Path, help="a problem file or a folder of them")
    parser.add_argument("--solver", default="assignment", help="assignment (default), reference, or a hooks .py file")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the report as JSON")
    parser.add_argument("--timeout", type=float, help="seconds allowed per graded item (default 10)")
    args = parser.parse_args(argv)
    solver = resolve_solver(args.solver)
    if solver is None:
        console.print(f"[red]error:[/] --solver {args.solver}: not 'assignment', 'reference' or an existing .py file")
        return 2
    problems, errors = load_problems(args.path)
    show_errors(console, errors)
    report = grade(solver, problems, args.timeout)
    show_report(console, report, errors)
    if args.json:
        write_json(args.json, report_json(report, errors))
    return 0 if not errors and report.score == report.max_score else 1


def _check(argv: list[str], console: Console) -> int:
    parser = argparse.ArgumentParser(prog="python -m grader check", description="Validate problem files and count solutions.")
    parser.add_argument("path", type=Path, help="a problem file or a folder of them")
    parser.add_argument("--json", type=Path, metavar="FILE", help="also write the results as JSON")
    args = parser.parse_args(argv)
    problems, errors = load_problems(args.path)
    show_errors(console, errors)
    rows = check_problems(problems)
    show_check(console, rows)
    if args.json:
        write_json(args.json, {"problems": [r.as_dict() for r in rows], "errors": [str(e) for e in errors]})
    return 0 if not errors and all(r.ok for r in rows) else 1


def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    console = Console()
    if argv[:1] == ["check"]:
        return _check(argv[1:], console)
    if argv[:1] == ["goldens"]:
        count = write_cases()
        console.print(f"wrote {count} hook test cases to {CASES_FILE}")
        return 0
    return _grade(argv, console)
