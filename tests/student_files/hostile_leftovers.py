"""An attacker that leaves everything it can behind for the next worker given its user id,
and tries to kill that worker: at import it starts a detached daemon (a new session,
double-forked) that kills every process it may signal, every 20 ms, for a minute; creates
System V shared memory segments and a message queue (keys {{KEY}} to {{KEY}} + 3); and
plants a file in a world-writable folder nested in another one. The test writes a unique
tag ({{TAG}}) and key."""

import ctypes
import os
import signal
import time

from model_answer import *  # noqa: F401,F403

libc = ctypes.CDLL(None)
for number in range(3):
    libc.shmget({{KEY}} + number, 1 << 20, 0o1000 | 0o666)  # IPC_CREAT, 1 MB each
libc.msgget({{KEY}} + 3, 0o1000 | 0o666)
for top in ("/tmp", "/var/tmp", "/dev/shm"):
    try:
        nested = f"{top}/{{TAG}}/deeper"
        os.makedirs(nested, exist_ok=True)
        os.chmod(f"{top}/{{TAG}}", 0o777)
        os.chmod(nested, 0o777)
        with open(f"{nested}/planted", "w", encoding="utf-8") as handle:
            handle.write("for the next one\n")
    except OSError:
        pass
try:
    daemon = os.fork()
except OSError:  # refused: then it has only the files above to leave
    daemon = -1
if daemon == 0:
    os.setsid()
    if os.fork() == 0:
        end = time.monotonic() + 60
        while time.monotonic() < end:
            try:
                os.kill(-1, signal.SIGKILL)
            except OSError:
                pass
            time.sleep(0.02)
        os._exit(0)
    os._exit(0)
