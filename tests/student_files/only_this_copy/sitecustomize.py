"""Run at start-up in the student-copy tests: forget the full kit's editable install.

An editable install (`pip install -e .`) resolves `solvers.*` from the full checkout even
when a student copy comes first on PYTHONPATH. A student has only the copy, so the tests
drop that finder to see exactly what the student sees.
"""

import sys

sys.meta_path[:] = [finder for finder in sys.meta_path if "__editable__" not in getattr(finder, "__module__", "")]
