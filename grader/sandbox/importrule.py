"""What graded code may import, as a reason states it: Python's standard library, the
student's own files and the kit modules the handout lists (section 5). The worker enforces
it alike in every isolation mode (`child.OwnFilesAndStandardLibrary`); the grader words the
reason from the worker's typed report of the missing module (`wire.Missing`), never from
its text."""

from __future__ import annotations

import sys

from grader.sandbox.wire import Missing

RULE = "graded code may import only Python's standard library, your own files and the kit modules the handout lists (section 5)"


def outside_rule(missing: Missing) -> str | None:
    """The one-line reason for an import that found no module because it is none of
    those the rule allows; None when its top-level package is in the standard library
    (judged here, by the grader's own list: a module this machine lacks, or an error the
    student raised by hand, is then told in the exception's own words)."""
    if missing.module.partition(".")[0] in sys.stdlib_module_names:
        return None
    where = f"{missing.file} line {missing.line} imports" if missing.file and missing.line else "it imports"
    return f"{where} {missing.module}: {RULE}"
