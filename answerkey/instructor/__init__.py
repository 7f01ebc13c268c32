"""The instructor's commands: what the answer key does for a course, beside the model
answers that grading compares against.

The student copy (`release`, with the private seeds of `seeds` and the model answer's
recorded answers of `pathanswers`), the course's autograders (`bundle` for Gradescope,
`prairielearn` for PrairieLearn, both built from the kit's parts, `kit`, and checked for
time by `agentcost`), and the problem check (`checking`). The shell scripts they write
are package data in `templates/` (`scripts`). The grader reaches them only through the
typed facade `grader.reference.InstructorTools`.
"""
