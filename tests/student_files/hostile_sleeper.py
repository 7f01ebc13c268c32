"""An attacker that leaves processes behind: at import it starts a detached `sleep` in a
new session and double-forks another, then loops in constraint_bounds. The test writes a
unique sleep argument into its copy ({{SLEEP}})."""

import os
import subprocess

from model_answer import *  # noqa: F401,F403

subprocess.Popen(["sleep", "{{SLEEP}}"], start_new_session=True)
if os.fork() == 0:
    if os.fork() == 0:
        os.setsid()
        os.execvp("sleep", ["sleep", "{{SLEEP}}"])
    os._exit(0)


def constraint_bounds(scope, domains):
    while True:
        pass
