#!/usr/bin/env bash
# PrairieLearn runs this for every submission, as root in the grader image (the question's
# externalGradingOptions.entrypoint). Only the grader writes results.json. When it cannot
# grade a submission (its own failure, or the machine's), it writes none and this script
# fails: PrairieLearn then records a failed grading job (no score, no attempt charged).
set -uo pipefail
grade="${GRADE_ROOT:-/grade}"
python="${GRADER_PYTHON:-@{python}}"
kit="$grade/serverFilesCourse/@{files}/kit"
results="$grade/results/results.json"
mkdir -p "$grade/results"
chmod 755 "$grade/results"
rm -f "$results"
# Student code runs as an unprivileged user: it must read and write none of the course's files.
for private in "$grade/serverFilesCourse" "$grade/tests" "$grade/data"; do
  [ ! -e "$private" ] || chmod -R go-rwx "$private"
done
cd "$grade/results" || exit 1
# The grader's import path: the image's Python and the course's kit, nothing else (-P: not
# the working folder; -s: no user site folder; no PYTHON* variable of the image's but ours).
while IFS= read -r name; do unset "$name"; done < <(compgen -e | grep '^PYTHON')
PYTHONPATH="$kit" "$python" -P -s -m grader "$kit/problems/" --solver "$grade/student" --jobs 2 \
  --isolation "${GRADER_ISOLATION:-auto}" --format prairielearn --output "$results"
status=$?
if [ ! -s "$results" ]; then
  rm -f "$results"
  echo "grade.sh: this submission was not graded (exit status $status): no score is recorded; grade it again" >&2
  [ "$status" -ne 0 ] || status=1
fi
exit "$status"
