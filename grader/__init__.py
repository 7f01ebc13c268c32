"""`python -m grader`, one room per stage of grading:

- `inputs`: what is graded and how (problem sets, the grading config, submissions);
- `sandbox`: running student code in a worker that sees almost nothing;
- `scoring`: asking it questions and scoring the answers;
- `reports`: what is shown (terminal, JSON, Gradescope);
- `commands`: the command line that runs the stages.

`reference` is the one door to the answer key, `errors` the one kind of error a user sees.
"""
