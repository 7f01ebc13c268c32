"""The shipped problem sets and the YAML loader's errors (grader/inputs/problemset.py)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from answerkey.strategies import REFERENCE
from grader.inputs.problemset import CONFIG_FILE, Problem, ProblemError, load_problem_file, load_problems
from solvers.csp import build_csp
from solvers.engine import search

ROOT = Path(__file__).resolve().parent.parent
PROBLEMS = ROOT / "problems"


# --- the shipped problems ---------------------------------------------------------------


@pytest.fixture(scope="module")
def shipped() -> list[Problem]:
    problems, errors = load_problems(PROBLEMS)
    assert errors == [], [str(e) for e in errors]
    return problems


def test_every_shipped_file_loads_without_errors():
    files = sorted(f for f in PROBLEMS.glob("*.yaml") if f.name != CONFIG_FILE)  # grading.yaml is a config
    assert {f.name for f in files} >= {"course.yaml", "generated-6x6.yaml", "sat-examples.yaml", "status-grids.yaml"}
    for file in files:
        problems, errors = load_problem_file(file)
        assert errors == [], [str(e) for e in errors]
        assert problems, file
        assert all(p.file == str(file) for p in problems)
        assert len({p.id for p in problems}) == len(problems)


def test_load_problems_on_the_folder_finds_every_file(shipped):
    assert {Path(p.file).name for p in shipped} >= {"course.yaml", "generated-6x6.yaml", "sat-examples.yaml", "status-grids.yaml"}
    assert len(shipped) >= 45


def test_generated_6x6_set():
    problems, errors = load_problem_file(PROBLEMS / "generated-6x6.yaml")
    assert errors == []
    assert len(problems) >= 30
    for problem in problems:
        board = problem.board
        assert (board.rows, board.cols) == (6, 6), problem.id
        assert board.rule == "classic"
        assert len(board.clue_cells()) == 16, problem.id
        assert len(build_csp(board).cells) == 20, problem.id
        assert board.mines == 10, problem.id
        assert problem.expect is not None, problem.id
    expects = [p.expect for p in problems]
    assert expects.count(0) >= 3
    assert expects.count(1) >= 1
    assert any(e > 1 for e in expects)


def test_every_shipped_expect_matches_the_reference_engine(shipped):
    with_expect = [p for p in shipped if p.expect is not None]
    assert len(with_expect) == len(shipped)
    wrong = {
        (Path(p.file).name, p.id): (p.expect, count)
        for p in with_expect
        if (count := search(build_csp(p.board), REFERENCE, "count").count) != p.expect
    }
    assert wrong == {}


def test_defaults_are_applied(shipped):
    by_id = {p.id: p for p in shipped}
    assert by_id["nctu-1"].board.mines == 10 and by_id["nctu-1"].board.rule == "classic"
    assert by_id["status-3x3"].board.rule == "inclusive" and by_id["status-3x3"].board.mines is None
    assert by_id["sat-row"].board.mines is None
    assert by_id["nctu-1"].points == 1.0


def test_problem_line_points_at_its_entry():
    problems, _ = load_problem_file(PROBLEMS / "course.yaml")
    lines = (PROBLEMS / "course.yaml").read_text(encoding="utf-8").splitlines()
    for problem in problems:
        assert f"id: {problem.id}" in lines[problem.line - 1]


# --- bad input --------------------------------------------------------------------------


def write(tmp_path: Path, text: str, name: str = "set.yaml") -> Path:
    path = tmp_path / name
    path.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")
    return path


def line_of(path: Path, marker: str) -> int:
    """1-based number of the first line of the file containing `marker`."""
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        if marker in line:
            return number
    raise AssertionError(f"{marker!r} not in {path}")


def only_error(path: Path) -> ProblemError:
    problems, errors = load_problem_file(path)
    assert problems == []
    assert len(errors) == 1, [str(e) for e in errors]
    return errors[0]


def assert_located(error: ProblemError, path: Path, pid: str | None, field: str | None, line: int | None) -> None:
    assert error.file == str(path)
    assert error.id == pid
    assert error.field == field
    assert error.line == line
    text = str(error)
    assert str(path) in text
    if line is not None:
        assert text.startswith(f"{path}:{line}: ")
    if pid is not None:
        assert f"problem {pid!r}" in text
    if field is not None:
        assert f"field {field!r}" in text
    assert error.message in text


def test_malformed_yaml_reports_the_line(tmp_path):
    path = write(
        tmp_path,
        """
        problems:
          - id: a
            board: [1, 2
          - id: b
        """,
    )
    error = only_error(path)
    assert "not valid YAML" in error.message
    assert error.line == line_of(path, "- id: b")
    assert str(error).startswith(f"{path}:{error.line}: ")


def test_tab_indentation_reports_the_line(tmp_path):
    path = tmp_path / "tab.yaml"
    path.write_text("problems:\n  - id: a\n    board: |\n      1 .\n\t- id: b\n", encoding="utf-8")
    error = only_error(path)
    assert "not valid YAML" in error.message
    assert error.line == 5


def test_rows_of_different_widths(tmp_path):
    path = write(
        tmp_path,
        """
        problems:
          - id: ragged
            board: |
              . 1 . .
              . 1 .
              . . . .
        """,
    )
    error = only_error(path)
    assert_located(error, path, "ragged", "board", line_of(path, ". 1 .") + 1)
    assert "row 2" in error.message


def test_rows_of_different_widths_after_a_blank_line(tmp_path):
    path = write(
        tmp_path,
        """
        problems:
          - id: ragged
            board: |
              . 1 . .

              . 1 . .
              . . .
        """,
    )
    assert line_of(path, ". . .") == 7
    assert_located(only_error(path), path, "ragged", "board", 7)


def test_unknown_token(tmp_path):
    path = write(
        tmp_path,
        """
        problems:
          - id: letters
            board: |
              . . .
              . x .
        """,
    )
    error = only_error(path)
    assert_located(error, path, "letters", "board", line_of(path, ". x ."))
    assert "'x'" in error.message and "r2c2" in error.message


def test_clue_9_is_out_of_range_under_classic(tmp_path):
    path = write(
        tmp_path,
        """
        problems:
          - id: nine
            board: |
              . 9 .
        """,
    )
    error = only_error(path)
    assert_located(error, path, "nine", "board", line_of(path, ". 9 ."))
    assert "9" in error.message and "classic" in error.message


def test_clue_9_is_fine_under_inclusive_but_10_is_not(tmp_path):
    good = write(
        tmp_path,
        """
        problems:
          - id: nines
            rule: inclusive
            board: |
              9 9 9
              9 9 9
              9 9 9
        """,
        "good.yaml",
    )
    problems, errors = load_problem_file(good)
    assert errors == [] and problems[0].board.clue((1, 1)) == 9
    bad = write(
        tmp_path,
        """
        problems:
          - id: ten
            rule: inclusive
            board: |
              . 10 .
        """,
        "bad.yaml",
    )
    error = only_error(bad)
    assert_located(error, bad, "ten", "board", line_of(bad, ". 10 ."))
    assert "10" in error.message and "inclusive" in error.message


def test_more_mines_than_unknown_cells(tmp_path):
    path = write(
        tmp_path,
        """
        problems:
          - id: crowded
            mines: 3
            board: |
              . 1 .
        """,
    )
    error = only_error(path)
    assert_located(error, path, "crowded", "mines", line_of(path, "mines: 3"))
    assert "3" in error.message and "2" in error.message


def test_mines_exactly_filling_the_unknown_cells_is_fine(tmp_path):
    path = write(
        tmp_path,
        """
        problems:
          - id: full
            mines: 2
            board: |
              . 1 .
        """,
    )
    problems, errors = load_problem_file(path)
    assert errors == [] and problems[0].board.mines == 2


def test_mines_from_defaults_are_checked_too(tmp_path):
    path = write(
        tmp_path,
        """
        defaults:
          mines: 5
        problems:
          - id: small
            board: |
              . 1 .
        """,
    )
    error = only_error(path)
    assert (error.id, error.field) == ("small", "mines")


def test_duplicate_ids(tmp_path):
    path = write(
        tmp_path,
        """
        problems:
          - id: same
            board: |
              . 1 .
          - id: same
            board: |
              1 . 1
        """,
    )
    problems, errors = load_problem_file(path)
    assert [p.id for p in problems] == ["same"]
    assert problems[0].board.clue((0, 1)) == 1  # the first one is kept
    assert len(errors) == 1
    second = [n for n, line in enumerate(path.read_text().splitlines(), 1) if "id: same" in line][1]
    assert_located(errors[0], path, "same", "id", second)
    assert "duplicate" in errors[0].message
    assert f"line {line_of(path, 'id: same')}" in errors[0].message


def test_missing_board(tmp_path):
    path = write(
        tmp_path,
        """
        problems:
          - id: boardless
            expect: 1
        """,
    )
    error = only_error(path)
    assert_located(error, path, "boardless", "board", line_of(path, "id: boardless"))
    assert "missing" in error.message


def test_unknown_field(tmp_path):
    path = write(
        tmp_path,
        """
        problems:
          - id: typo
            mine: 3
            board: |
              . 1 .
        """,
    )
    error = only_error(path)
    assert_located(error, path, "typo", "mine", line_of(path, "mine: 3"))
    assert "unknown field" in error.message


@pytest.mark.parametrize(
    "text",
    [
        "title: no problems here\n",
        "problems: 3\n",
        "problems:\n  id: a\n  board: '. 1 .'\n",
        "- id: a\n  board: '. 1 .'\n",
        "",
    ],
    ids=["missing", "number", "mapping", "top-level-list", "empty"],
)
def test_file_without_a_problems_list(tmp_path, text):
    path = tmp_path / "empty.yaml"
    path.write_text(text, encoding="utf-8")
    error = only_error(path)
    assert error.field == "problems"
    assert str(path) in str(error) and "field 'problems'" in str(error)


def test_problem_without_id(tmp_path):
    path = write(
        tmp_path,
        """
        problems:
          - board: |
              . 1 .
        """,
    )
    error = only_error(path)
    assert error.field == "id" and error.line == 2


@pytest.mark.parametrize(
    "field, value",
    [
        ("expect", "-1"),
        ("expect", "two"),
        ("mines", "true"),
        ("mines", "-1"),
        ("rule", "strict"),
        ("points", "-2"),
        ("timeout", "0"),
        ("visibility", "secret"),
    ],
)
def test_bad_field_values(tmp_path, field, value):
    path = write(
        tmp_path,
        f"""
        problems:
          - id: p
            {field}: {value}
            board: |
              . 1 .
        """,
    )
    error = only_error(path)
    assert_located(error, path, "p", field, line_of(path, f"{field}: {value}"))


def test_one_bad_problem_does_not_stop_the_others(tmp_path):
    path = write(
        tmp_path,
        """
        problems:
          - id: bad
            board: |
              . x .
          - id: good
            expect: 1
            board: |
              ? 1 ? 2 ?
        """,
    )
    problems, errors = load_problem_file(path)
    assert [p.id for p in problems] == ["good"]
    assert problems[0].expect == 1
    assert problems[0].line == line_of(path, "id: good")
    assert search(build_csp(problems[0].board), REFERENCE, "count").count == 1
    assert len(errors) == 1
    assert_located(errors[0], path, "bad", "board", line_of(path, ". x ."))


def test_a_bad_file_does_not_stop_the_other_files(tmp_path):
    write(tmp_path, "problems: [\n", "a-broken.yaml")
    write(
        tmp_path,
        """
        problems:
          - id: fine
            board: |
              ? 1 ?
        """,
        "b-fine.yaml",
    )
    problems, errors = load_problems(tmp_path)
    assert [p.id for p in problems] == ["fine"]
    assert len(errors) == 1 and errors[0].file.endswith("a-broken.yaml")


def test_unknown_top_level_field_is_reported_but_problems_still_load(tmp_path):
    path = write(
        tmp_path,
        """
        titel: typo
        problems:
          - id: fine
            board: |
              ? 1 ?
        """,
    )
    problems, errors = load_problem_file(path)
    assert [p.id for p in problems] == ["fine"]
    assert len(errors) == 1
    assert (errors[0].field, errors[0].line) == ("titel", 1)


def test_bad_defaults_are_reported_and_ignored(tmp_path):
    path = write(
        tmp_path,
        """
        defaults:
          mines: 1
          board: ". 1 ."
        problems:
          - id: fine
            board: |
              ? 1 ?
        """,
    )
    problems, errors = load_problem_file(path)
    assert [p.id for p in problems] == ["fine"]
    assert problems[0].board.mines is None
    assert len(errors) == 1 and (errors[0].field, errors[0].line) == ("defaults", 2)


def test_the_grading_config_beside_problem_files_is_not_a_problem_file(tmp_path):
    write(tmp_path, "efficiency: true\n", "grading.yaml")
    write(
        tmp_path,
        """
        problems:
          - id: fine
            board: |
              ? 1 ?
        """,
        "set.yaml",
    )
    problems, errors = load_problems(tmp_path)
    assert [p.id for p in problems] == ["fine"] and errors == []


def test_missing_path_and_empty_folder(tmp_path):
    _, errors = load_problems(tmp_path / "nowhere")
    assert len(errors) == 1 and "does not exist" in errors[0].message
    _, errors = load_problems(tmp_path)
    assert len(errors) == 1 and "no .yaml" in errors[0].message


def test_a_non_ascii_digit_is_a_board_error_not_a_crash(tmp_path):
    """'²' passes str.isdigit() but int('²') raises: the loader must report, not crash."""
    path = write(
        tmp_path,
        """
        problems:
          - id: superscript
            board: |
              . \u00b2 .
          - id: fine
            board: |
              ? 1 ?
        """,
    )
    problems, errors = load_problem_file(path)
    assert [p.id for p in problems] == ["fine"]
    assert len(errors) == 1
    assert_located(errors[0], path, "superscript", "board", line_of(path, "\u00b2"))


def test_problem_error_str_format():
    assert str(ProblemError("f.yaml", "bad", "p1", "board", 7)) == "f.yaml:7: problem 'p1': field 'board': bad"
    assert str(ProblemError("f.yaml", "bad")) == "f.yaml: bad"
    assert str(ProblemError("f.yaml", "bad", field="problems")) == "f.yaml: field 'problems': bad"


# --- hostile YAML: bounded before it is built -------------------------------------------


def _laughs(levels: int = 9) -> str:
    lines = ['a0: &a0 ["x", "x", "x", "x", "x", "x", "x", "x", "x"]']
    lines += [f"a{i}: &a{i} [{', '.join([f'*a{i - 1}'] * 9)}]" for i in range(1, levels)]
    return "\n".join(lines) + f"\nproblems: *a{levels - 1}\n"


@pytest.mark.parametrize(
    "text, words",
    [
        (_laughs(), "anchor or alias"),
        ("problems: " + "[" * 5000 + "]" * 5000 + "\n", "nested more than 32"),
        ("problems:\n  - id: x\n    expect: " + "9" * 4400 + "\n    board: |\n      . 1 .\n", "4400 digits"),
        ("problems:\n  - id: x\n    title: " + "y" * 250_000 + "\n", "characters"),
        ("problems: []\n" + "# filler\n" * 150_000, "larger than 1 MiB"),
    ],
)
def test_hostile_yaml_is_one_line_and_the_good_file_beside_it_still_loads(tmp_path: Path, text: str, words: str) -> None:
    from grader.inputs.problemset import load_problems

    bad = tmp_path / "bad.yaml"
    bad.write_text(text, encoding="utf-8")
    good = tmp_path / "good.yaml"
    good.write_text("problems:\n  - id: ok\n    board: |\n      . 1 .\n", encoding="utf-8")
    problems, errors = load_problems(tmp_path)
    assert [p.id for p in problems] == ["ok"]
    assert len(errors) == 1 and words in str(errors[0]) and "bad.yaml" in str(errors[0]), errors


# --- writing: one record type, read back as written ------------------------------------


def test_a_written_problem_set_reads_back_as_the_same_problems(tmp_path: Path) -> None:
    """problem_set_yaml and load_problem_file are inverses on every field the format has
    (ids and notes with quotes and backslashes, a note of several lines, both rules, mines,
    points, timeout, hidden)."""
    from dataclasses import replace

    from grader.inputs.problemset import problem_set_yaml

    shipped, errors = load_problems(PROBLEMS / "course.yaml")
    assert not errors
    written = [
        replace(shipped[0], id='odd "id" \\ one', notes='a "quoted" note \\ here', points=2.5, timeout=3.0),
        replace(shipped[0], id="a note of two lines", notes="first line: a colon\n  second, indented # not a comment"),
        replace(shipped[1], visibility="hidden", expect=None),
        replace(shipped[2], board=replace(shipped[2].board, rule="inclusive", mines=None)),
    ]
    path = tmp_path / "set.yaml"
    path.write_text(problem_set_yaml('a title with "quotes"', written, source="a test"), encoding="utf-8")
    read, errors = load_problem_file(path)
    assert errors == []
    assert [replace(p, file="", line=None) for p in read] == [replace(p, file="", line=None) for p in written]
