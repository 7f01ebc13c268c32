"""The grader's errors: the one kind its commands print as one line (and exit 2 for), and
the kinds of failure a graded item records as typed facts."""

from typing import Literal

ErrorKind = Literal["not_implemented", "raised", "contract", "unloadable", "timeout", "output", "crashed"]
"""How a graded item's code failed, as the grader itself observed it (never read back from a
reason's text): a hook raised NotImplementedError or is not in the file at all
("not_implemented": not written yet, whatever its words) or another exception ("raised"); its answer broke the hook's contract ("contract");
the student's file did not load ("unloadable"); the item ran out of time ("timeout"),
printed past the output cap ("output"), or its process ended or was stopped over a limit
("crashed"). Never a failure of the grader's own: that is an item's status "ungraded"."""


class UserError(RuntimeError):
    """Something the user can act on: a bad option, a missing piece of the kit, an
    isolation that cannot be had. Printed as one line, never as a traceback."""


class HookError(Exception):
    """A call of the student's hook `hook` that failed in a way that costs its task only
    (or, in a search, the board): `kind` says how."""

    def __init__(self, message: str, hook: str, kind: ErrorKind):
        super().__init__(message)
        self.message, self.hook, self.kind = message, hook, kind
