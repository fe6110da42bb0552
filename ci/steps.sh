# shellcheck shell=bash
# ci/steps.sh: the steps of the platform scripts (ci/platform-*), sourced by them.
#
#   timed NAME COMMAND...       run COMMAND as a step: errexit in force inside it (its first
#                               failing command ends it), its wall time printed; returns its
#                               exit status, so that under the script's own `set -e` a failed
#                               step stops the script before anything after it (a cache stamp)
#   timed_keep NAME COMMAND...  the same, but a failure sets status=1 and the script goes on
#                               (test runs whose results are reported either way)
#
# Both must be called as plain commands, never as the condition of `if`/`while` or beside `&&`,
# `||` or `!`: bash ignores errexit in everything a command in such a place runs, subshells
# included, so a failed command inside the step would not stop it (make lint's
# ci/tests/test_scripts.py checks every call). A step runs in a subshell: what it must hand to
# later steps it writes to a file, never to a variable. STEP_PREFIX names the script in the
# output.
status=${status:-0}

_run_step() { # sets step_rc; always returns 0
  local name=$1 start
  shift
  start=$(date +%s)
  set +e
  (
    set -e
    "$@"
  )
  step_rc=$?
  set -e
  echo "${STEP_PREFIX:-ci}: $name: $(($(date +%s) - start)) s$([ "$step_rc" = 0 ] || echo " (failed, exit $step_rc)")"
}

timed() {
  _run_step "$@"
  return "$step_rc"
}

timed_keep() {
  _run_step "$@"
  [ "$step_rc" = 0 ] || status=1
}
