#!/usr/bin/env bash
# Gradescope runs this for every submission. Only the grader writes results.json. When it
# cannot grade a submission (its own failure, or the machine's), it writes none and this
# script fails: Gradescope then records no score, never a zero, and shows the reason here.
set -uo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
results="$root/results/results.json"
mkdir -p "$root/results"
rm -f "$results"
# -I: no working folder, user site folder or PYTHON* variable on the grader's import path (the
# kit is installed in the venv); started from the root's own folder.
cd "$root" || exit 1
"$root/venv/bin/python" -I -m grader "$root/source/kit/problems/" --solver "$root/submission" \
  --isolation "${GRADER_ISOLATION:-auto}" --format gradescope --output "$results"
status=$?
if [ ! -s "$results" ]; then
  rm -f "$results"
  echo "run_autograder: this submission was not graded (exit status $status): no score is recorded; rerun the autograder" >&2
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
