"""`python -m grader similarity CLASS_DIR --out report.html`: which submissions share code.

Every submission of the class folder (as `--submissions` finds them: a `.py` file, or a
folder whose `.py` files are taken together) is compared with every other by copydetect,
a winnowing detector in the manner of MOSS: the code is tokenized first (names of
variables, functions and classes all read alike, comments and layout are dropped), so
renaming variables, rewriting comments or moving functions around hides nothing. The
handout's stubs (`assignment/*.py`, and any `--boilerplate` file or folder) are
boilerplate: code every student starts from counts for nobody.

The terminal shows the top pairs, ranked by the larger of the two shares (how much of
one submission is found in the other); the HTML report (`similarity_html`, drawn from
copydetect's results, self-contained) shows the matrix with the students' names and each
flagged pair side by side with the shared code highlighted. A high share is a reason to
look, not a verdict: read the code.

The comparison cannot see code shipped as data (a classmate's file in base64, run with
`exec`): every submission that builds code from data is flagged beside its name, on the
terminal and in the report, for the instructor to read by hand (`codeflags`). The report
is bounded: each pair shows at most a fixed amount of code, whatever the files' sizes
(`similarity_html`).

copydetect comes with the `instructor` extra: `pip install -e ".[instructor]"`.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.table import Table
from rich.text import Text

from grader.commands.codeflags import read_flags
from grader.commands.options import SimilarityOptions
from grader.inputs.exports import Export, read_export
from grader.inputs.intake import file_refusal, scan_folder, shown
from grader.inputs.names import export_key, file_names, student_names
from grader.sandbox.wire import clean_text

NOISE = 25  # copydetect's noise threshold: shorter shared runs of tokens are not counted
GUARANTEE = 30  # runs of tokens this long are always found
SHOWN = 0.33  # the HTML report shows pairs sharing more than this (copydetect's default)
INSTALL = 'pip install -e ".[instructor]"'
HASH_SEED = "0"  # copydetect's fingerprints depend on it: fixed, so that every run agrees
STUDENT_FLAGS = 8  # flags shown per submission, whatever its number of files; the rest are counted


@dataclass(frozen=True)
class Pair:
    """Two submissions and the share of each found in the other."""

    first: str
    second: str
    first_share: float
    second_share: float
    tokens: int  # tokens in common

    @property
    def share(self) -> float:
        return max(self.first_share, self.second_share)


def exported_files(export: Export) -> tuple[dict[str, list[tuple[str, str]]], list[str]]:
    """`submission_files` for the students of a platform's export, named as grading names
    them (`student_names`): a group's submission is compared once, named by all its members ("s1+s2")."""
    entries = export.entries or []
    named = student_names([(entry.student, export_key(entry.student, entry.folder)) for entry in entries])
    members: dict[Path, list[str]] = {}
    refused = []
    for entry, student in zip(entries, named):
        if entry.folder is None:
            refused.append(f"{student}: {entry.problem.removeprefix('not graded: ')}")
        else:
            members.setdefault(entry.folder, []).append(student)
    submissions = {}
    for folder, students in members.items():
        root = folder.resolve().parent
        scan = scan_folder(folder.resolve(), root)
        files = [f for f in scan.files if f.suffix == ".py" and "__pycache__" not in f.parts]
        name = "+".join(students)
        if why := scan.refusal or ("" if files else "no .py file"):
            refused.append(f"{name}: {why.removeprefix('not graded: ')}")
        else:
            submissions[name] = [(shown(f, root), f.read_text(encoding="utf-8", errors="replace")) for f in files]
    return submissions, refused


def submission_files(folder: Path, unpacked: Mapping[str, str] | None = None) -> tuple[dict[str, list[tuple[str, str]]], list[str]]:
    """Each submission's `.py` files (the name shown, the text), by student name as grading
    names them (`student_names`; a folder's files in order), and a line for every entry
    refused (a link, a FIFO, too large...), read the way grading a class reads them
    (nothing followed, nothing outside the folder); and for each entry refused while the
    export was `unpacked` ({name: why}: not in `folder`)."""
    found: list[tuple[str, str, list[tuple[str, str]] | str]] = []  # name as found, entry, files or why refused
    for name, why in (unpacked or {}).items():
        found.append((name.removesuffix(".py"), name, why.removeprefix("not graded: ")))
    root = folder.resolve()
    for entry in sorted(root.iterdir()):
        raw = entry.stem if entry.suffix == ".py" else entry.name
        try:
            mode = entry.lstat().st_mode
        except OSError as error:
            found.append((raw, entry.name, f"cannot be read ({error.strerror})"))
            continue
        if entry.name.startswith((".", "__")) or (stat.S_ISREG(mode) and entry.suffix != ".py"):
            continue
        if stat.S_ISDIR(mode):
            scan = scan_folder(entry, root)
            files = [f for f in scan.files if f.suffix == ".py" and "__pycache__" not in f.parts]
            why = scan.refusal or ("" if files else "no .py file")
        else:
            why, files = file_refusal(entry, root), [entry]
        read = [(shown(f, root), f.read_text(encoding="utf-8", errors="replace")) for f in files] if not why else []
        found.append((raw, entry.name, why.removeprefix("not graded: ") or read))
    found.sort(key=lambda item: item[1])
    submissions, refused = {}, []
    for (_, _, got), student in zip(found, student_names([(raw, key) for raw, key, _ in found])):
        if isinstance(got, str):
            refused.append(f"{student}: {got}")
        else:
            submissions[student] = got
    return submissions, refused


def submission_flags(files: list[tuple[str, str]]) -> list[str]:
    """The flags of a submission's files (see `codeflags`), at most `STUDENT_FLAGS` lines
    and a count of the rest."""
    found = [line for label, text in files for line in read_flags(label, text)]
    if len(found) > STUDENT_FLAGS:
        found = [*found[:STUDENT_FLAGS], f"and {len(found) - STUDENT_FLAGS} more"]
    return found


def boilerplate_files(paths: list[Path]) -> list[Path]:
    """The `.py` files of `paths` (files, or folders searched in depth)."""
    found: list[Path] = []
    for path in paths:
        found += sorted(path.rglob("*.py")) if path.is_dir() else [path]
    return found


def compare(sources: dict[str, str], boilerplate: list[Path], out: Path | None, flags: dict[str, list[str]] | None = None) -> list[Pair]:
    """Every pair of submissions with what they share, most shared first; the HTML report
    written to `out` (when given), with the `flags` of each flagged student.

    copydetect fingerprints code with Python's `hash()`, which differs from one process to
    the next unless PYTHONHASHSEED is set: the comparison runs in a Python of its own with
    a fixed seed, so that the same class gets the same shares at every run.
    RuntimeError saying why when it fails.
    """
    flags = flags or {}
    if os.environ.get("PYTHONHASHSEED") == HASH_SEED:
        return _compare_here(sources, boilerplate, out, flags)
    from grader.commands.launch import kit_process

    boilerplate_paths = [str(p.resolve()) for p in boilerplate]
    request = json.dumps({"sources": sources, "boilerplate": boilerplate_paths, "out": str(out.resolve()) if out else None, "flags": flags})
    argv, cwd, env = kit_process("grader.commands.similarity", env={"PYTHONHASHSEED": HASH_SEED})
    ran = subprocess.run(argv, cwd=cwd, env=env, input=request, capture_output=True, text=True)
    if ran.returncode != 0:
        last = (ran.stderr.strip().splitlines() or ["no message"])[-1]
        raise RuntimeError(f"the comparison failed: {clean_text(last, 300)}")
    return [Pair(**pair) for pair in json.loads(ran.stdout)]


def _compare_here(sources: dict[str, str], boilerplate: list[Path], out: Path | None, flags: dict[str, list[str]]) -> list[Pair]:
    """`compare`, in this process."""
    import matplotlib

    matplotlib.use("Agg")  # copydetect imports pyplot: no display needed
    from copydetect import CopyDetector, __version__

    with tempfile.TemporaryDirectory(prefix="similarity-") as scratch:
        folder, names = Path(scratch), {}
        for (student, code), name in zip(sources.items(), file_names(list(sources))):
            path = folder / f"{name}.py"
            path.write_text(code, encoding="utf-8")
            names[str(path)] = student
        detector = CopyDetector(
            extensions=["py"],
            noise_t=NOISE,
            guarantee_t=GUARANTEE,
            display_t=SHOWN,
            autoopen=False,
            silent=True,
            out_file=str(out or folder / "report.html"),
        )
        for path_text in names:
            detector.add_file(path_text)
        for path in boilerplate:
            detector.add_file(str(path), type="boilerplate")
        detector.run()
        pairs = sorted(_pairs(detector, names), key=lambda p: (-p.share, -p.tokens, p.first, p.second))
        if out is not None:
            out.write_text(_report(detector, names, pairs, flags, __version__), encoding="utf-8")
    return pairs


def _report(detector: Any, names: dict[str, str], pairs: list[Pair], flags: dict[str, list[str]], version: str) -> str:
    """The HTML report of the detector's results (see `similarity_html`)."""
    from grader.commands.similarity_html import PAIRS_WITH_CODE, Settings, ShownPair, report, shared_runs, shown_code

    files = list(detector.test_files)
    shares = {(names[a], names[b]): float(detector.similarity_matrix[i][j][0]) for i, a in enumerate(files) for j, b in enumerate(files) if i != j}
    by_name = {student: path for path, student in names.items()}
    shown = []
    for rank, pair in enumerate(p for p in pairs if p.share > SHOWN):
        first, second, a, b = (
            (pair.first, pair.second, pair.first_share, pair.second_share)
            if pair.first_share >= pair.second_share
            else (pair.second, pair.first, pair.second_share, pair.first_share)
        )
        code = None
        if rank < PAIRS_WITH_CODE:
            test, ref = by_name[first], by_name[second]
            slices = detector.slice_matrix.get((test, ref)) or detector.slice_matrix[(ref, test)][::-1]
            code = (
                shown_code(detector.file_data[test].raw_code, shared_runs(slices[0]), "highlight-red"),
                shown_code(detector.file_data[ref].raw_code, shared_runs(slices[1]), "highlight-green"),
            )
        shown.append(ShownPair(first, second, a, b, pair.tokens, code))
    settings = Settings(NOISE, GUARANTEE, SHOWN, version)
    return report([names[f] for f in files], shares, [p.share for p in pairs], shown, flags, settings)


def _pairs(detector: object, names: dict[str, str]) -> list[Pair]:
    """Every compared pair of the detector's files, once."""
    files = list(getattr(detector, "test_files", []))
    matrix = getattr(detector, "similarity_matrix", [])
    overlap = getattr(detector, "token_overlap_matrix", [])
    pairs = []
    for i, first in enumerate(files):
        for j in range(i + 1, len(files)):
            a, b = (float(x) for x in matrix[i][j])
            if a < 0:  # not compared (a file that could not be read)
                continue
            pairs.append(Pair(names[first], names[files[j]], a, b, int(overlap[i][j])))
    return pairs


def pairs_table(pairs: list[Pair], top: int) -> Table:
    table = Table(title=f"Most similar pairs (top {min(top, len(pairs))} of {len(pairs)})", title_justify="left")
    table.add_column("#", justify="right")
    table.add_column("submission", overflow="fold")
    table.add_column("submission", overflow="fold")
    table.add_column("share", justify="right", no_wrap=True)
    table.add_column("tokens in common", justify="right")
    for rank, pair in enumerate(pairs[:top], start=1):
        style = "red" if pair.share > SHOWN else ""
        table.add_row(
            str(rank), Text(pair.first), Text(pair.second), Text(f"{pair.first_share:.0%} / {pair.second_share:.0%}", style=style), str(pair.tokens)
        )
    return table


def command(argv: list[str], console: Console) -> int:
    """`python -m grader similarity CLASS_DIR`."""
    from solvers.cliargs import OneLineParser, add_version, output_problem, positive_int, read_options

    parser = OneLineParser(
        prog="python -m grader similarity", description="Rank pairs of submissions by the code they share (copydetect), stubs excluded."
    )
    add_version(parser)
    parser.add_argument(
        "folder",
        type=Path,
        metavar="CLASS_DIR",
        help="the submissions, as for --submissions (a folder, or a Gradescope or PrairieLearn export, zipped or not)",
    )
    parser.add_argument("--out", type=Path, default=Path("similarity.html"), help="the HTML report (default: similarity.html)")
    parser.add_argument(
        "--boilerplate",
        type=Path,
        nargs="+",
        default=[],
        metavar="FILE_OR_DIR",
        help="more code every student was given (the handout's stubs, assignment/*.py, always are)",
    )
    parser.add_argument("--top", type=positive_int, default=10, help="pairs shown in the terminal (default 10)")
    args = read_options(SimilarityOptions, parser.parse_args(argv))
    from grader.reference import require_answer_key
    from solvers.cliargs import print_error

    require_answer_key("python -m grader similarity")
    if not (args.folder.is_dir() or zipfile.is_zipfile(args.folder)):
        return print_error(f"{args.folder}: not a folder nor a zip", console)
    if why := output_problem(args.out):
        return print_error(f"--out {args.out}: {why}", console)
    missing = [path for path in args.boilerplate if not path.exists()]
    if missing:
        return print_error(f"--boilerplate {missing[0]}: does not exist", console)
    try:
        import copydetect  # noqa: F401
    except ImportError:
        return print_error(f"the similarity report needs copydetect: {INSTALL}", console)
    with tempfile.TemporaryDirectory(prefix="grader-export-") as scratch:
        try:
            export = read_export(args.folder, Path(scratch))
        except (OSError, zipfile.BadZipFile) as error:
            return print_error(f"{args.folder}: cannot be read ({getattr(error, 'strerror', None) or error})", console)
        console.print(Text(f"submissions: {export.layout}"))
        for line in export.notes:
            console.print(Text.assemble(("! ", "red"), line))
        found = exported_files(export) if export.entries is not None else submission_files(export.folder, export.refused)
    return _compared(args, console, *found) or (1 if export.notes or export.refused else 0)


def _compared(args: SimilarityOptions, console: Console, submissions: dict[str, list[tuple[str, str]]], refused: list[str]) -> int:
    """Compare the class's `submissions` and show the pairs; an exit status (0 when all went well)."""
    from grader.inputs.submission import KIT_ROOT
    from solvers.cliargs import print_error

    if len(submissions) < 2:
        return print_error(f"{args.folder}: {len(submissions)} submission(s) to compare; at least two are needed", console)
    flags = {student: found for student, files in submissions.items() if (found := submission_flags(files))}
    sources = {student: "\n\n".join(text for _, text in files) for student, files in submissions.items()}
    try:
        pairs = compare(sources, boilerplate_files([KIT_ROOT / "assignment", *args.boilerplate]), args.out, flags)
    except RuntimeError as error:
        return print_error(str(error), console)
    console.print(pairs_table(pairs, args.top))
    flagged = sum(pair.share > SHOWN for pair in pairs)
    console.print(
        Text(
            f"{len(sources)} submissions, {len(pairs)} pairs; {flagged} share more than {SHOWN:.0%} "
            f"(in {args.out}, side by side); {len(flags)} to read by hand (code built from data, or not readable)"
        )
    )
    for student, lines in sorted(flags.items()):
        console.print(Text.assemble(("! ", "red"), f"read by hand: {student}"))
        for line in lines:
            console.print(Text(f"    {line}"))
    for line in refused:
        console.print(Text.assemble(("! ", "red"), f"not compared: {line}"))
    return 0


def main() -> None:
    """The comparison's own process (see `compare`): a JSON request on standard input,
    the pairs as JSON on standard output."""
    request = json.loads(sys.stdin.read())
    out = Path(request["out"]) if request["out"] else None
    pairs = _compare_here(request["sources"], [Path(p) for p in request["boilerplate"]], out, request["flags"])
    json.dump([asdict(pair) for pair in pairs], sys.stdout)


if __name__ == "__main__":
    main()
