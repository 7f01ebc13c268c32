"""What is graded, and how: problem sets, the grading config, bounded YAML reading, and finding a submission's files by what they define."""
