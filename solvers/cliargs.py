"""What the kit's three command lines (`solvers`, `grader`, `play`) share: a parser whose
mistakes are one line, the number types they accept, `--version`, the one reading of a
parse into a command's typed record of options (`read_options`: nothing below a command's
start sees argparse's Namespace), reading a board from a file or standard input, the one
error printer (user text is never read as markup), and the one question whether this
copy of the kit holds the answer key.
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn, TypeVar

if TYPE_CHECKING:
    from _typeshed import DataclassInstance
    from rich.console import Console


class UsageError(Exception):
    """A mistake on the command line: printed as one line, exit status 2."""


class OneLineParser(argparse.ArgumentParser):
    """argparse whose mistakes raise UsageError (one line) instead of printing usage."""

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message} (see '{self.prog} --help')")


Options = TypeVar("Options", bound="DataclassInstance")


def read_options(record: type[Options], args: argparse.Namespace) -> Options:
    """The command's options as its typed record (a frozen dataclass): each field is the
    parsed option of the same name (a list, as `nargs` gives it, becomes a tuple). A field
    the parser does not fill is a mistake of ours: KeyError naming it."""
    parsed = vars(args)
    values = {field.name: parsed[field.name] for field in dataclasses.fields(record)}
    return record(**{name: tuple(value) if isinstance(value, list) else value for name, value in values.items()})


def positive_int(text: str) -> int:
    """A whole number of at least 1."""
    if not text.strip().isdigit() or int(text) < 1:
        raise argparse.ArgumentTypeError(f"expected a positive whole number, got {text!r}")
    return int(text)


def whole(text: str) -> int:
    """Any whole number (a seed may be negative)."""
    if not text.strip().lstrip("-").isdigit():
        raise argparse.ArgumentTypeError(f"expected a whole number, got {text!r}")
    return int(text)


def seconds(text: str) -> float:
    """A positive, finite number of seconds."""
    try:
        value = float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected a number of seconds, got {text!r}") from None
    if not (value > 0 and math.isfinite(value)):
        raise argparse.ArgumentTypeError(f"expected a positive, finite number of seconds, got {text!r}")
    return value


#: The package that holds the answer key: the student copy is the kit without it.
ANSWER_KEY = "answerkey"


def foreign_answer_key() -> Path | None:
    """The folder of an answer key this environment can import that is not this kit's own
    (another kit installed beside a student copy: the instructor's, say), else None."""
    from importlib.util import find_spec

    spec = find_spec(ANSWER_KEY)
    if spec is None:
        return None
    places = [Path(spec.origin).parent] if spec.origin else [Path(place) for place in spec.submodule_search_locations or ()]
    own = Path(__file__).resolve().parents[1] / ANSWER_KEY  # beside this kit's `solvers`
    return next((place for place in places if place.resolve() != own), None)


def instructor_only(what: str) -> str | None:
    """None when this kit's own answer key (the ANSWER_KEY package beside `solvers`) is
    installed; otherwise the one line telling a student copy's user that `what` belongs to
    the instructor's kit. An answer key of another kit that this environment could import
    (the instructor's kit installed where a student copy runs) is never used: the line says
    where it is."""
    from importlib.util import find_spec

    if find_spec(ANSWER_KEY) is None:
        return f"{what} belongs to the instructor's kit: this student copy has no answer key"
    other = foreign_answer_key()
    if other is None:
        return None
    kit = Path(__file__).resolve().parents[1]
    return (
        f"{what} belongs to the instructor's kit: this student copy ({kit}) has no answer key "
        f"(the one at {other} is another kit's, installed in this environment, and is not used)"
    )


def kit_version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("minesweeper-csp-kit")
    except PackageNotFoundError:
        return "unknown (not installed)"


class _VersionAction(argparse.Action):
    """--version: the kit's version, read from the installed metadata only when asked."""

    def __init__(self, option_strings: list[str], dest: str = argparse.SUPPRESS, **kwargs: Any) -> None:
        super().__init__(option_strings, dest, nargs=0, default=argparse.SUPPRESS, help="show program's version number and exit")

    def __call__(self, parser: argparse.ArgumentParser, namespace: argparse.Namespace, values: object, option_string: str | None = None) -> None:
        print(parser.prog, kit_version())
        parser.exit()


def add_version(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--version", action=_VersionAction)


def output_problem(path: Path) -> str | None:
    """Why the file `path` cannot be written, or None: checked before any work is done."""
    if path.is_dir():
        return "is a folder; name a file"
    if not path.resolve().parent.is_dir():
        return f"the folder {path.resolve().parent} does not exist"
    return None


def read_text(path: str | None) -> str:
    """A file's text, or standard input's without a path (or with "-"). OSError with a
    plain reason when standard input is closed."""
    if path not in (None, "-"):
        return Path(path).read_text(encoding="utf-8")
    if sys.stdin is None or sys.stdin.closed:
        raise OSError("standard input is closed: give a FILE")
    return sys.stdin.read()


def print_error(message: str, console: Console | None = None) -> int:
    """'error: MESSAGE' in red on one line (user text never read as markup), on `console`
    (the grader's, which reports on standard output) or standard error; exit status 2."""
    if console is None:
        from rich.console import Console

        console = Console(stderr=True)
    console.print(f"error: {message}", style="red", markup=False, highlight=False, soft_wrap=True)
    return 2
