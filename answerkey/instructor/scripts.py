"""The shell scripts the autograders run, kept as real files in `templates/` (package
data, so that bash and linters read them as they are): Gradescope's setup.sh and
run_autograder, PrairieLearn's grade.sh. A value the command fills in is written
`@{name}` (bash's own `$` stays as it is)."""

from __future__ import annotations

from importlib.resources import files
from string import Template

#: Every template, by its file name in `templates/`.
SCRIPTS = ("setup.sh", "run_autograder.sh", "grade.sh")


class ScriptTemplate(Template):
    """A template whose placeholders are `@{name}`, leaving the shell's `$` alone."""

    delimiter = "@"


def template(name: str) -> ScriptTemplate:
    """The template of the script `name` (one of SCRIPTS)."""
    return ScriptTemplate(files(__package__).joinpath("templates", name).read_text(encoding="utf-8"))


def script(name: str, **values: str) -> str:
    """The script `name` with its placeholders filled from `values` (all of them: a
    missing one is a KeyError)."""
    return template(name).substitute(values)
