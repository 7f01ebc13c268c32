"""An attacker that tries, at import, to change the kit, the answer key's data and the
problem files for everyone graded after it. The test writes the real kit's path into its
copy ({{KIT}}), the worst case: the attacker knows exactly where everything lives."""

import os

from model_answer import *  # noqa: F401,F403

TARGETS = ["{{KIT}}/solvers/engine.py", "{{KIT}}/grader/scoring/hook_cases.yaml", "{{KIT}}/problems/course.yaml",
           "{{KIT}}/problems/grading.yaml", "/kit/solvers/engine.py", "/kit/solvers/csp.py"]
for path in TARGETS:
    try:
        with open(path, "a", encoding="utf-8") as handle:
            handle.write("\nraise SystemExit('tampered')\n")
    except OSError:
        pass
for root in ("{{KIT}}", "/kit"):
    for folder, _, files in os.walk(root):
        for name in files:
            try:
                os.chmod(os.path.join(folder, name), 0o777)
            except OSError:
                pass
