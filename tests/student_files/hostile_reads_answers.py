"""An attacker whose hooks work only if it can reach the answer key: by import, by path,
or through the grader's own modules. It also prints whatever problem file it can read.
The test writes the real kit's path into its copy ({{KIT}})."""

import sys

sys.path[:0] = ["{{KIT}}"]
for name in [n for n in sys.modules if n.split(".")[0] in ("solvers", "grader")]:
    del sys.modules[name]
sys.meta_path[:] = [finder for finder in sys.meta_path if type(finder).__name__ != "NoGrader"]

try:
    from answerkey.strategies import constraint_bounds, forward_check_once, select_mrv, values_ascending
    from answerkey.sat import at_least_subsets, at_most_subsets
except Exception as error:
    print("no answer key:", type(error).__name__)
else:
    forward_check, select_variable, order_values = forward_check_once, select_mrv, values_ascending

    def at_least_clauses(lits, k):
        return [list(c) for c in at_least_subsets(lits, k)]

    def at_most_clauses(lits, k):
        return [list(c) for c in at_most_subsets(lits, k)]

for path in ("{{KIT}}/problems/course.yaml", "{{KIT}}/problems/grading.yaml", "{{HIDDEN}}"):
    try:
        with open(path, encoding="utf-8") as handle:
            print("READ", path, handle.read())
    except OSError as error:
        print("cannot read", path, type(error).__name__)
