"""The import path of the grader's own processes: never a folder a student can write to.

Python puts the folder `python -m grader` is started from first on its import path, before
any code of the kit's runs. An instructor who grades from inside a class folder
(`cd class && python -m grader ... --submissions .`) would then import a student's
`yaml.py` or `rich.py` as the grader. `forget_working_folder` takes that folder off the
path as the grader starts (`grader/__main__.py`, before it imports anything else), and
`kit_process` is how the grader starts a Python process of its own: without the working
folder or the user's site folder on its path, without the caller's PYTHON* variables, with
the kit's own root on its path when the kit is not installed, from a folder the kit
chooses.

What no code of the kit's can defend: Python finds `grader` itself on that path, so a
`grader.py` (or a `grader/` folder) in the working folder runs instead of the kit (README:
start the grader from outside the class folder, or with `python -P -m grader`).

This module imports only `os` and `sys`, which Python loads before it reads any import
path: any other import here would be looked up on the path it is meant to clean.
"""

import os
import sys

#: The folder that holds the kit's packages (a checkout, or the site folder it is installed in).
KIT_ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.realpath(__file__))))
#: The working folder of every process `kit_process` starts: one no student can write to.
WORKING_FOLDER = "/"


def forget_working_folder(path: list[str], cwd: str | None = None) -> list[str]:
    """`path` without its entries that name the working folder `cwd` (`''` and `'.'`
    among them), unless that folder is the kit's own root (a checkout run in place)."""
    try:
        here = os.path.realpath(os.getcwd() if cwd is None else cwd)
    except OSError:  # the working folder is gone: nothing is imported from it
        return [entry for entry in path if entry not in ("", ".")]
    if here == KIT_ROOT:
        return list(path)
    return [entry for entry in path if os.path.realpath(os.path.join(here, entry)) != here]


def kit_process(module: str, *args: str, env: dict[str, str] | None = None) -> tuple[list[str], str, dict[str, str]]:
    """`python -m MODULE ARGS` as the grader starts a process of its own: its command line,
    working folder and environment (this one without its PYTHON* variables, then `env`)."""
    import site

    user_site = bool(site.ENABLE_USER_SITE) and site.getusersitepackages() in sys.path  # the instructor's own, if this process uses it
    flags = ["-P"] if user_site else ["-P", "-s"]
    own = {name: value for name, value in os.environ.items() if not name.startswith("PYTHON")}
    if not _installed([*site.getsitepackages(), *([site.getusersitepackages()] if user_site else [])]):
        own["PYTHONPATH"] = KIT_ROOT
    own.update(env or {})
    return [sys.executable, *flags, "-m", module, *args], WORKING_FOLDER, own


def _installed(site_folders: list[str]) -> bool:
    """True when the kit's root is a folder Python puts on the path of its own (the kit is
    installed there): no PYTHONPATH is needed to find it."""
    return KIT_ROOT in {os.path.realpath(folder) for folder in site_folders}
