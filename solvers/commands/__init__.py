"""Subcommands of `python -m solvers`, one module each; each module has `register(subparsers)`."""
