"""The instructor's commands: what the answer key does for a course, beside the model
answers that grading compares against.

The student copy (`release`, with the private seeds of `seeds` and the model answer's
recorded answers of `pathanswers`), the course's autograders (`bundle` for Gradescope,
`prairielearn` for PrairieLearn, both built from the kit's parts, `kit`, and checked for
time by `agentcost`), the problem check (`checking`), and the subcommands of
`python -m solvers` (`solving`). The shell scripts the autograders run are package data
in `templates/` (`scripts`). The grader reaches these commands only through the typed
facade `grader.commands.instructor.InstructorTools`; `python -m solvers` registers its own.
"""
