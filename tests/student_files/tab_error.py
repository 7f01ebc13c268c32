"""A file that mixes tabs and spaces: Python refuses to load it (TabError)."""


def constraint_bounds(scope, domains):
    low = 0
	high = 0  # TAB_LINE
    return low, high
