"""The one kind of error the grader's commands print as one line (and exit 2 for)."""


class UserError(RuntimeError):
    """Something the user can act on: a bad option, a missing piece of the kit, an
    isolation that cannot be had. Printed as one line, never as a traceback."""
