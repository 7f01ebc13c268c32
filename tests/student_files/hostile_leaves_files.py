"""An attacker that leaves a file in every folder anyone may write to, for whoever runs
next under the same user id. The test writes a unique name into its copy ({{NAME}})."""

from model_answer import *  # noqa: F401,F403

for folder in ("/tmp", "/var/tmp", "/dev/shm", "/run/lock", "/var/lock", "/dev/mqueue"):
    try:
        with open(f"{folder}/{{NAME}}", "w", encoding="utf-8") as handle:
            handle.write("planted by a worker\n")
    except OSError:
        pass
