#!/usr/bin/env bash
# Gradescope runs this once, as root, while it builds the autograder image.
set -euo pipefail
root="${AUTOGRADER_ROOT:-/autograder}"
find_python() {
  for name in python3.13 python3.12 python3.11 python3; do
    if command -v "$name" >/dev/null 2>&1 && "$name" -c 'import sys, venv; sys.exit(sys.version_info < (3, 11))' 2>/dev/null; then
      command -v "$name"
      return 0
    fi
  done
  return 1
}
python="$(find_python || true)"
if { [ -z "$python" ] || ! command -v bwrap >/dev/null 2>&1; } && command -v apt-get >/dev/null 2>&1; then
  apt-get update -qq || true
  [ -n "$python" ] || apt-get install -y -qq python3.11 python3.11-venv >/dev/null || true
  apt-get install -y -qq bubblewrap >/dev/null || true
  python="$(find_python || true)"
fi
if [ -z "$python" ]; then
  echo "setup.sh: this autograder needs Python 3.11 or later with venv; choose the Ubuntu 24.04 base image" >&2
  exit 1
fi
"$python" -m venv "$root/venv"
# The exact versions the kit was tested with (constraints.txt): a release of a dependency
# during the term changes no grade.
"$root/venv/bin/python" -m pip install --quiet --disable-pip-version-check -c "$root/source/kit/constraints.txt" "$root/source/kit"
# Student code runs as an unprivileged user: it must read and write none of this.
chmod -R go-rwx "$root/source" "$root/venv"
mkdir -p "$root/results"
chmod 755 "$root/results"
version="$("$root/venv/bin/python" -c 'from importlib.metadata import version; print(version("minesweeper-csp-kit"))')"
echo "setup.sh: installed the kit with $("$python" --version) in $root/venv (kit $version, dependencies pinned by"   "constraints.txt); bubblewrap: $(command -v bwrap || echo absent)"
