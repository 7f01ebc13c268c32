"""The sandbox: student code runs in worker processes that answer the grader's questions
(one call, or a batch of calls whose inputs the grader fixed beforehand).

Host side (the grader's process): `isolation.py` chooses and builds the isolation
(bubblewrap, an unprivileged user, or process limits only), `host.py` starts workers,
asks them questions with a time limit and stops them, `stopping.py` all that a signal
does (it takes no lock). Child side (inside the worker):
`child.py`. Both sides speak the message format of `wire.py`.

This package's `__init__` imports nothing: the child side is loaded inside the sandbox,
where only the student-facing library, `child.py`, `wire.py`, `confine.py` and the hook
table (`grader/hooktable.py`) exist.
"""
