"""The grader's commands: `python -m grader` (grade one solver, trace, compare, grade a
class) and the instructor's commands, whose work lives in the answer key."""
