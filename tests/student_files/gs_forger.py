"""Writes its own results.json (score 999) into the autograder's results folder, then
kills the grader, hoping its file is the one Gradescope reads."""

import json
import os
import signal

from model_answer import *  # noqa: F401,F403

for folder in ("/autograder/results", "{{ROOT}}/results"):
    try:
        with open(f"{folder}/results.json", "w", encoding="utf-8") as handle:
            json.dump({"score": 999, "tests": []}, handle)
    except OSError:
        pass
for target in {os.getppid(), 1}:
    try:
        os.kill(target, signal.SIGKILL)
    except OSError:
        pass
