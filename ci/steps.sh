# shellcheck shell=bash
# ci/steps.sh: the steps of the platform scripts (ci/platform-*), sourced by them.
#
#   timed NAME COMMAND...       run COMMAND as a step: errexit in force inside it (its first
#                               failing command ends it), its wall time printed; returns its
#                               exit status, so that under the script's own `set -e` a failed
#                               step stops the script before anything after it (a cache stamp)
#   timed_keep NAME COMMAND...  the same, but a failure sets status=1 and the script goes on
#                               (test runs whose results are reported either way)
#   binfmt QEMU                 binfmt_misc mounted and qemu-user-static's QEMU entry
#                               (qemu-aarch64) registered and enabled (root, where they are not)
#   cargo_summary LABEL LOG SECONDS RC COMMAND HOW
#                               the contract's summary line of a cargo test run, from the
#                               "test result:" lines of its LOG (ignored tests count as skipped)
#
# Both must be called as plain commands, never as the condition of `if`/`while` or beside `&&`,
# `||` or `!`: bash ignores errexit in everything a command in such a place runs, subshells
# included, so a failed command inside the step would not stop it (make lint's
# ci/tests/test_scripts.py checks every call). A step runs in a subshell: what it must hand to
# later steps it writes to a file, never to a variable. STEP_PREFIX names the script in the
# output.
#
# Sourcing it also unsets PYTHONDONTWRITEBYTECODE, which some images set: the interpreters these
# scripts test (a Debian root unpacked by dpkg -x, a cross-built musl CPython, venvs that uv
# fills) hold no .pyc, and with it set every Python process, each test's subprocess included,
# compiled every module it imports from source. Under qemu-aarch64 that made `python -m uuidx
# gen` take 6.4 s instead of 1.0 s.
unset PYTHONDONTWRITEBYTECODE
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

binfmt() {
  # qemu-user-static's registration has the F flag: the kernel holds the emulator open, so
  # a child of an emulated process (sys.executable, a cargo test binary) runs emulated too.
  mountpoint -q /proc/sys/fs/binfmt_misc || mount binfmt_misc -t binfmt_misc /proc/sys/fs/binfmt_misc || return 1
  [ -e "/proc/sys/fs/binfmt_misc/$1" ] || update-binfmts --enable "$1" || return 1
  grep -q '^enabled' "/proc/sys/fs/binfmt_misc/$1"
}

cargo_summary() {
  awk -v label="$1" -v s="$3" -v rc="$4" -v command="$5" -v how="$6" '
    /^test result:/ { p += $4; f += $6; i += $8; n++ }
    END { printf "%s cargo test: %d passed, %d failed, %d skipped, %d errors in %d s (%s: %d test runs, doctests included, %s)\n", label, p, f, i, (rc != 0 && f == 0), s, command, n, how }
  ' "$2"
}
