"""What the grader shows: the result records, the terminal and JSON reports, and Gradescope's results.json."""
