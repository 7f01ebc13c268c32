"""GMP integers for the big-integer arithmetic of exact counting.

Counting packs polynomials into integers of tens of thousands of bits and convolves
tables of thousands-of-bits coefficients. `gmpy2.mpz` behaves as an int there and is much
faster at that size: about 6x on a product of two 36,000-bit integers, 3x on a sum, 3x on
the convolution of a 128x128 board's tables (bench/README.md, `curves.py`). A value made
with `gmp` stays a GMP integer through + - * // << >> & with ints, so the arithmetic is
written once; results leave as ints (`int(...)`) where a table or a count is handed out.
"""

from __future__ import annotations

from collections.abc import Iterable


def gmp(value: int) -> int:
    """`value` as a GMP integer. gmpy2 is imported here, on first use: its import costs a
    command about 50 ms of start-up (it loads importlib.metadata)."""
    from gmpy2 import mpz

    return mpz(value)


def lowest_one(values: Iterable[int]) -> int:
    """The lowest bit set in any of `values` (nonzero ints or GMP integers), found by GMP
    without building each `value & -value`."""
    from gmpy2 import bit_scan1

    return min(map(bit_scan1, values))
