"""GMP integers for the big-integer arithmetic of exact counting.

Counting packs polynomials into integers of tens of thousands of bits and convolves
tables of thousands-of-bits coefficients. `gmpy2.mpz` behaves as an int there and is much
faster at that size: about 6x on a product of two 36,000-bit integers, 3x on a sum, 3x on
the convolution of a 128x128 board's tables (bench/README.md, `curves.py`). A value made
with `gmp_for` stays a GMP integer through + - * // << >> & with ints, so the arithmetic
is written once; results leave as ints (`int(...)`) where a table or a count is handed out.
"""

from __future__ import annotations

#: The work (bits of the numbers times the operations on them, roughly) from which a
#: computation's integers are GMP ones: an mpz is hardly faster than an int below a few
#: thousand bits, and the first one costs the process gmpy2's import (about 70 ms of CPU:
#: it loads importlib.metadata), which only a long computation on long numbers pays back.
GMP_WORK = 10**9


def gmp_for(value: int, work: int) -> int:
    """`value` as the integer to compute with in a computation of about `work` bit
    operations: a GMP integer from GMP_WORK on (gmpy2 imported then, on first use), else
    itself."""
    if work < GMP_WORK:
        return value
    from gmpy2 import mpz

    return mpz(value)
