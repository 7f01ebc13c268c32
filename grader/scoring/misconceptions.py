"""Mistakes a wrong hook answer can be recognised by: a table, read by every case reason.

Each entry names a common mistake and says how to recognise it from what the hook was
asked, the model answer's answer and the student's. None of them computes a hook's
answer: each only compares the two answers (and the input) it is given, so a reason can
say "this looks like low and high swapped" wherever that is plain to see. The first
entry of a hook that fits is the one a reason names.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from solvers.csp import CSP, Domains


@dataclass(frozen=True)
class Answered:
    """One question and its two answers, as plain data: `case` is the hook's input
    (scope, unassigned, var, ...), `domains` its domains as tuples, `csp` its board's
    CSP (None without a board); `expected` the model answer's, `returned` the student's."""

    case: Mapping[str, Any]
    domains: Domains
    csp: CSP | None
    expected: Any
    returned: Any


def _never(seen: Answered) -> bool:
    return False


@dataclass(frozen=True)
class Misconception:
    """A recognisable mistake of `hook`: `says` is the reason's words, `fits` its test of a
    wrong answer; `alters`: whether the mistake would have made this question's answer wrong
    (a right answer there is evidence against it; `_never` when that cannot be told)."""

    hook: str
    name: str
    says: str
    fits: Callable[[Answered], bool]
    alters: Callable[[Answered], bool] = _never

    def fits_all(self, seen: Sequence[Answered | None]) -> bool:
        """Whether every answer seen fits the mistake: each wrong one fits it, no right one is
        where it would have been wrong, none raised (None)."""
        return all(
            one is not None and bool(self.alters(one) if one.returned == one.expected else self.fits(one)) is (one.returned != one.expected)
            for one in seen
        )


def _pair(value: Any) -> tuple[int, int] | None:
    ok = isinstance(value, (list, tuple)) and len(value) == 2 and all(type(x) is int for x in value)
    return (value[0], value[1]) if ok else None


def _scope_domains(seen: Answered) -> list[tuple[int, ...]]:
    return [seen.domains.get(v, ()) for v in seen.case.get("scope", [])]


def _ordered_bounds(seen: Answered) -> bool:
    want = _pair(seen.expected)
    return want is not None and want[0] < want[1]


def _bounds_swapped(seen: Answered) -> bool:
    got, want = _pair(seen.returned), _pair(seen.expected)
    return got is not None and want is not None and want[0] < want[1] and got == (want[1], want[0])


def _empty_domain_missed(seen: Answered) -> bool:
    return () in _scope_domains(seen) and _pair(seen.returned) != (1, 0)


def _decided_as_mines(seen: Answered) -> bool:
    got, want = _pair(seen.returned), _pair(seen.expected)
    decided = sum(len(d) == 1 for d in _scope_domains(seen))
    return got is not None and want is not None and got[0] != want[0] and (0,) in _scope_domains(seen) and got[0] == decided


def _assigned_mines_left_out(seen: Answered) -> bool:
    got, want = _pair(seen.returned), _pair(seen.expected)
    mines = sum(d == (1,) for d in _scope_domains(seen))
    return (
        got is not None
        and want is not None
        and mines > 0
        and got != want
        and got[0] in (want[0], want[0] - mines)
        and got[1] in (want[1], want[1] - mines)
    )


def _domains(value: Any) -> dict[int, set[int]] | None:
    """A forward_check answer as {variable: set of values}, None when it is not a dict of lists."""
    if not isinstance(value, dict):
        return None
    try:
        return {int(v): set(d) for v, d in value.items()}
    except (TypeError, ValueError):
        return None


def _narrows_further(seen: Answered) -> bool:
    """Narrowed more than the rule: each domain a subset, or a wipeout (None) the rule does not find."""
    got, want = _domains(seen.returned), _domains(seen.expected)
    if seen.returned is None and want is not None:
        return True
    return got is not None and want is not None and got != want and set(got) == set(want) and all(got[v] <= want[v] for v in want)


def _narrows_less(seen: Answered) -> bool:
    """Narrowed less than the rule: each domain a superset, or the rule's wipeout (None) missed."""
    got, want = _domains(seen.returned), _domains(seen.expected)
    if seen.expected is None and got is not None:
        return True
    return got is not None and want is not None and got != want and set(got) == set(want) and all(got[v] >= want[v] for v in want)


def _min_max_swapped(seen: Answered) -> bool:
    got, want = _domains(seen.returned), _domains(seen.expected)
    if got is None or want is None or set(got) != set(want) or got == want:
        return False
    return all(got[v] == {1 - x for x in want[v]} for v in want if got[v] != want[v]) and all(len(want[v]) == 1 for v in want if got[v] != want[v])


def _size(seen: Answered, var: Any) -> int | None:
    return len(seen.domains[var]) if type(var) is int and var in seen.domains else None


def _degree(seen: Answered, var: int) -> int:
    return len(seen.csp.constraints_of[var]) if seen.csp is not None and 0 <= var < len(seen.csp.cells) else 0


def _largest_domain(seen: Answered) -> bool:
    got, want = _size(seen, seen.returned), _size(seen, seen.expected)
    sizes = [len(seen.domains[v]) for v in seen.case.get("unassigned", []) if v in seen.domains]
    return got is not None and want is not None and got > want and got == max(sizes, default=-1)


def _degree_tie_broken_otherwise(seen: Answered) -> bool:
    got, want = _size(seen, seen.returned), _size(seen, seen.expected)
    return (
        got is not None
        and got == want
        and seen.returned in seen.case.get("unassigned", [])
        and _degree(seen, seen.returned) < _degree(seen, seen.expected)
    )


def _number_tie_broken_otherwise(seen: Answered) -> bool:
    got, want = _size(seen, seen.returned), _size(seen, seen.expected)
    return (
        got is not None
        and got == want
        and seen.returned in seen.case.get("unassigned", [])
        and _degree(seen, seen.returned) == _degree(seen, seen.expected)
        and seen.returned > seen.expected
    )


def _order_matters(seen: Answered) -> bool:
    return isinstance(seen.expected, list) and len(seen.expected) > 1


def _reversed(seen: Answered) -> bool:
    return _order_matters(seen) and seen.returned == seen.expected[::-1]


MISCONCEPTIONS: tuple[Misconception, ...] = (
    Misconception(
        "constraint_bounds", "an empty domain missed", "a variable with no value left makes every sum unreachable: (1, 0)", _empty_domain_missed
    ),
    Misconception("constraint_bounds", "low and high swapped", "return (low, high), the smallest sum first", _bounds_swapped, _ordered_bounds),
    Misconception("constraint_bounds", "decided cells counted as mines", "a variable decided safe, (0,), adds 0 to low", _decided_as_mines),
    Misconception(
        "constraint_bounds", "decided mines left out", "a variable decided a mine, (1,), adds 1 to low and 1 to high", _assigned_mines_left_out
    ),
    Misconception(
        "forward_check",
        "more than one pass",
        "one pass in order narrows less: repeating it until nothing changes (a fixpoint) is not the rule",
        _narrows_further,
    ),
    Misconception(
        "forward_check",
        "minimum and maximum swapped",
        "where low == total the undecided variables keep their minimum (safe), where high == total their maximum (a mine)",
        _min_max_swapped,
    ),
    Misconception(
        "forward_check",
        "less than one pass",
        "each constraint sees the domains as narrowed so far in this pass, and every constraint counts, the last one too",
        _narrows_less,
    ),
    Misconception("select_variable", "the largest domain", "MRV picks a variable with the smallest domain", _largest_domain),
    Misconception(
        "select_variable",
        "a degree tie broken otherwise",
        "among the smallest domains, the variable in the most constraints (len(csp.constraints_of[v])) comes first",
        _degree_tie_broken_otherwise,
    ),
    Misconception(
        "select_variable",
        "a number tie broken otherwise",
        "among the smallest domains and the most constraints, the lowest number comes first",
        _number_tie_broken_otherwise,
    ),
    Misconception(
        "order_values",
        "the order reversed",
        "ascending, the value to try first first: the engine already pushes them in that order",
        _reversed,
        _order_matters,
    ),
)


def recognised(hook: str, seen: Answered, evidence: Sequence[Answered | None] = ()) -> Misconception | None:
    """The first mistake of `hook`'s table that fits this wrong answer and every other
    answer of `evidence` (the hook's other questions; None for one it raised on), if any:
    a mistake is named only when the answers seen bear it out."""
    if seen.returned == seen.expected:
        return None
    return next((m for m in MISCONCEPTIONS if m.hook == hook and m.fits(seen) and m.fits_all(evidence)), None)
