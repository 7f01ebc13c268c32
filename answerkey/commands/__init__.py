"""Subcommands of `python -m solvers`, one module each; each module has `register(subparsers)`.

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
