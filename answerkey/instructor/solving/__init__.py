"""Subcommands of `python -m solvers`, one module each; each module has `register(subparsers)`,
which sets the subcommand's function (`run`) and the typed record of its options that the
function takes (`options`, read by `solvers.cliargs.read_options`).

Start-up matters (bench/startup.py): a module's top level imports only what `register`
needs; the solvers, PySAT and rich are imported when a command runs.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rich.console import Console


@cache
def stderr_console() -> Console:
    """A rich console on standard error, made (and rich imported) on first use."""
    from rich.console import Console

    return Console(stderr=True, soft_wrap=True, highlight=False)


def decimal(number: int) -> str:
    """`number` in decimal, however many digits (a count of a 256x256 board's layouts has
    over 10,000: more than Python converts by default, a guard against slow conversions of
    untrusted input that does not apply to a number the kit computed)."""
    import sys

    limit = sys.get_int_max_str_digits()
    sys.set_int_max_str_digits(0)
    try:
        return str(number)
    finally:
        sys.set_int_max_str_digits(limit)
