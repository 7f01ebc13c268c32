"""Run inside a copy of the kit: import every module of it and try every function found
as each search hook on the stored hook cases (JSON on stdin). Writes to the file named
by its second argument one line per function that gets a group of some hook's cases
right (whatever the functions print goes elsewhere). Used by test_release.py.

The sandbox's own modules are left out: they act on the machine (they kill processes,
remove files, confine the process that calls them), and none of them computes anything
a hook does."""

import importlib
import inspect
import json
import pkgutil
import signal
import sys
from pathlib import Path

root, found_file = Path(sys.argv[1]), Path(sys.argv[2])
signal.signal(signal.SIGALRM, lambda *_: (_ for _ in ()).throw(TimeoutError()))
cases = json.load(sys.stdin)
from solvers.board import Board  # noqa: E402  (the copy's own model)
from solvers.csp import build_csp  # noqa: E402
from solvers.textformat import parse_rows  # noqa: E402


def arguments(hook, case):
    domains = {int(v): tuple(d) for v, d in case["domains"].items()}
    if hook == "constraint_bounds":
        return tuple(case["scope"]), domains
    parsed = parse_rows(case["board"], case.get("rule", "classic"))
    csp = build_csp(Board(parsed.clues, parsed.rule, case.get("mines")))
    if hook == "forward_check":
        return csp, domains, case.get("assigned")
    if hook == "select_variable":
        return csp, domains, list(case["unassigned"])
    return csp, case["var"], domains


def as_data(hook, value):
    if hook == "forward_check" and isinstance(value, dict):
        return {str(v): sorted(d) for v, d in value.items()}
    if isinstance(value, tuple):
        return list(value)
    return value


def expected(hook, case):
    value = case["expected"]
    return {str(v): d for v, d in value.items()} if hook == "forward_check" and isinstance(value, dict) else value


ACTING_ON_THE_MACHINE = ("grader.sandbox.",)
functions = []
for package in sorted(p.name for p in root.iterdir() if (p / "__init__.py").is_file()):  # every package there is
    for info in pkgutil.walk_packages([str(root / package)], prefix=f"{package}."):
        if info.name.startswith(ACTING_ON_THE_MACHINE):
            continue
        try:
            module = importlib.import_module(info.name)
        except BaseException:
            continue
        functions += [f for _, f in inspect.getmembers(module, inspect.isfunction) if f.__module__ == module.__name__]
for function in functions:
    for hook, hook_cases in cases.items():
        groups, lost = {c["group"] for c in hook_cases}, set()
        for case in hook_cases:
            signal.alarm(2)
            try:
                if as_data(hook, function(*arguments(hook, case))) != expected(hook, case):
                    lost.add(case["group"])
            except BaseException:
                lost.add(case["group"])
            finally:
                signal.alarm(0)
            if lost == groups:
                break
        if lost != groups:
            with found_file.open("a", encoding="utf-8") as found:
                found.write(f"{function.__module__}.{function.__name__} gets {len(groups - lost)}/{len(groups)} groups of {hook}\n")
