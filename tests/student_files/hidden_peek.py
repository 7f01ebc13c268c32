"""A student who fails the boards without a mine count (those with more than 16 cells that
may hold a mine: the hook tests' boards are smaller) and prints the board it was given.

On such a board forward_check reports a dead end at the root, so the grader's reason is
"claims there is no solution, but the board has N"; the printed PEEK line lists the clues.
"""

from model_answer import constraint_bounds, forward_check_once, select_mrv, values_ascending

select_variable = select_mrv
order_values = values_ascending


def forward_check(csp, domains, assigned):
    has_mine_count = bool(csp.constraints) and csp.constraints[-1].cell is None
    if not has_mine_count and len(csp.cells) > 16:
        clues = " ".join(f"{c.cell[0]},{c.cell[1]}={c.total}" for c in csp.constraints)
        print(f"PEEK {clues}")
        return None
    return forward_check_once(csp, domains, assigned)


# Part 2 (the SAT exercise): the reference subset encodings, re-exported as lists.
from model_answer import at_least_subsets, at_most_subsets  # noqa: E402


def at_least_clauses(lits, k):
    return [list(clause) for clause in at_least_subsets(lits, k)]


def at_most_clauses(lits, k):
    return [list(clause) for clause in at_most_subsets(lits, k)]
