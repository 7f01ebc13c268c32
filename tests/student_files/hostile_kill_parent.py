"""An attacker that kills (or freezes) its parent at import, hoping to end the whole batch.
The test writes the signal ("SIGKILL" or "SIGSTOP") into its copy."""

import os
import signal

from model_answer import *  # noqa: F401,F403

for target in {os.getppid(), 1}:
    try:
        os.kill(target, getattr(signal, "{{SIGNAL}}"))
    except OSError:
        pass
