"""The answer key: what stays with the instructor.

The reference hooks (`strategies`) and the engine's fast path for the fixpoint ones
(`fastsearch`), the reference agent (`agent`), the SAT encodings (`sat`) and every tool
built on them: the component solver and counter (`components`), the board generator, the
explanations shown in traces and the expected counts of problems (`oracle`). Beside
them, the instructor's commands (`instructor`): the student copy, the autograders, the
problem check, and the subcommands of `python -m solvers`.

The student copy of the kit (`python -m grader release`) is the kit without this
package, and the Gradescope bundle makes it unreadable to student code. Nothing in
`solvers/`, `play/` or `grader/` imports it at the top of a module: each room asks for it
through `solvers.cliargs.instructor_only`, which says in one line that a command belongs
to the instructor's kit when the package is absent.
"""
