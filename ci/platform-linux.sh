# shellcheck shell=bash
# ci/platform-linux.sh: what ci/platform-aarch64 and ci/platform-linux share, sourced by them
# after ci/steps.sh. A manylinux2014 wheel of another architecture, built here and tested on
# Debian bookworm's CPython 3.11 of that architecture, unpacked from its .debs into a sysroot
# (no chroot: nothing is emulated but the tests), under qemu-user or natively (i686).
#
# The sourcing script sets, before sourcing:
#   repo              the checkout (the current directory)
#   PLATFORM          the wheel's architecture as its tag and platform.machine() name it
#                     (aarch64, s390x, ppc64le, armv7l, i686): target/platforms/$PLATFORM/, the
#                     cache's $PLATFORM/ folder, the summary lines' label
#   DEB_ARCH          Debian's name of the architecture (arm64, s390x, ppc64el, armhf, i386)
#   TARGET            Rust's target triple
#   CROSS             the prefix of Debian's cross binutils and gcc (s390x-linux-gnu)
#   MULTIARCH         Debian's multiarch folder of its libraries (default $CROSS; i386-linux-gnu)
#   QEMU              the qemu-user binfmt entry that runs its binaries (qemu-s390x), or empty
#                     where the kernel runs them itself (i386 on x86_64)
#   QEMU_SUITE        (optional) a Debian suite (trixie) whose qemu-user runs the guest instead
#                     of the host's qemu-user-static: its static $QEMU is downloaded once into
#                     $CACHE/qemu/ (an APT configuration of its own, as the sysroot's) and
#                     registered with binfmt_misc for the run only, under an entry of its own
#                     (uuidx-$QEMU-PID, removed when the script exits); cargo runs the core's
#                     tests through it as its runner
#   SYSROOT_PACKAGES  (array) the Debian packages whose dependency closure is unpacked
#   COMPATIBILITY     maturin's --compatibility where the wheel is built by hand (default
#                     manylinux2014), and AUDITWHEEL_TAG the tag auditwheel must find
#                     (default manylinux_2_17_$PLATFORM)
# and may set STEP_PREFIX. It defines CACHE, OUT, SYSROOT, VENV, MIRROR, SUITE, QEMU_DIR,
# BINFMT_ENTRY, and exports QEMU_LD_PREFIX and UV_CACHE_DIR.
#
# Variables (the user's):
#   UUIDX_PLATFORM_CACHE  root of the platform caches (default ${TMPDIR:-/tmp}/uuidx-platforms);
#                         $PLATFORM/ under it ($CACHE): the sysroot, the apt archives, uv's wheel
#                         cache, QEMU_SUITE's qemu. Delete it for a cold run.
#   PLATFORM_WHEEL        a wheel built before: tested instead of one built here.
#   RELEASE_PROFILE       the Cargo profile of the wheel built here (default release; `fast`
#                         for a trial: no fat LTO, a third of the build's time).
#   DEBIAN_MIRROR         default http://deb.debian.org/debian (and -security beside it).

: "${repo:?}" "${PLATFORM:?}" "${DEB_ARCH:?}" "${TARGET:?}" "${CROSS:?}" "${QEMU?}" "${SYSROOT_PACKAGES[0]:?}"
CACHE=${UUIDX_PLATFORM_CACHE:-${TMPDIR:-/tmp}/uuidx-platforms}/$PLATFORM
OUT=$repo/target/platforms/$PLATFORM
MIRROR=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
SUITE=bookworm
SYSROOT=$CACHE/sysroot
VENV=$CACHE/venv
QEMU_DIR=$CACHE/qemu
# The binfmt_misc entry that runs the guest: the host's, or (QEMU_SUITE) this run's own. The
# kernel tries the entry registered last first, so this run's wins over the host's for the same
# ELF header, which stays registered and enabled for everyone else.
BINFMT_ENTRY=$QEMU
[ -z "${QEMU_SUITE:-}" ] || BINFMT_ENTRY=uuidx-$QEMU-$$
WHEEL_GLOB="uuidx-*-cp311-cp311-*_$PLATFORM.whl"
mkdir -p "$OUT" "$CACHE"

# Every qemu process (the interpreter, sys.executable in a test, a cargo test binary) finds its
# loader and libraries under the sysroot, and any other path on the host.
export QEMU_LD_PREFIX=$SYSROOT
export UV_CACHE_DIR=$CACHE/uv

the_wheel() { echo "$OUT"/dist/$WHEEL_GLOB; }

build_wheel() { # the release's build of this platform (ci/release-build), CPython 3.11 only
  rm -rf "$OUT/dist"
  local tools wheel
  tools=$(ci/tools python3.11)
  if [ -n "${PLATFORM_WHEEL:-}" ]; then # a wheel built before (make release-rehearsal)
    mkdir -p "$OUT/dist"
    cp "$PLATFORM_WHEEL" "$OUT/dist/"
  elif "$tools/python" ci/release.py target "manylinux-$PLATFORM" >/dev/null 2>&1; then
    nice -n 5 ci/release-build "manylinux-$PLATFORM" "$OUT/dist" 3.11
  else # a platform ci/release.py does not name: its build, by hand
    rustup target list --installed | grep -qx "$TARGET" || rustup target add "$TARGET"
    PATH=$tools:$PATH nice -n 5 maturin build --profile "${RELEASE_PROFILE:-release}" --strip --zig \
      --target "$TARGET" --compatibility "${COMPATIBILITY:-manylinux2014}" -i python3.11 --out "$OUT/dist"
  fi
  wheel=$(the_wheel)
  local tag=${AUDITWHEEL_TAG:-manylinux_2_17_$PLATFORM}
  "$tools/auditwheel" show "$wheel" | tee "$OUT/auditwheel.txt"
  grep -q "\"$tag\"" "$OUT/auditwheel.txt" || {
    echo "$STEP_PREFIX: $wheel is not $tag (auditwheel above)" >&2
    return 1
  }
}

host_packages() { "$repo/ci/system-packages" "$PLATFORM"; }

guest_binfmt() { # the host's $QEMU entry (ci/steps.sh's binfmt), or QEMU_SUITE's of this run
  local dir=/proc/sys/fs/binfmt_misc entry
  if [ -z "${QEMU_SUITE:-}" ]; then
    binfmt "$QEMU"
    return
  fi
  mountpoint -q "$dir" || mount binfmt_misc -t binfmt_misc "$dir" || return 1
  # QEMU_SUITE's qemu, registered as that suite registers it (its binfmt.d line: flags F, and P,
  # argv[0] kept; the interpreter named *-binfmt-P, a link to the emulator). An entry left by a
  # run that was killed is removed first.
  for entry in "$dir/uuidx-$QEMU-"*; do
    if [ -e "$entry" ] && ! kill -0 "${entry##*-}" 2>/dev/null; then echo -1 >"$entry"; fi
  done
  local bin
  bin=$(realpath "$QEMU_DIR/bin")
  sed "s|^:$QEMU:|:$BINFMT_ENTRY:|; s|:[^:]*:\([A-Z]*\)\$|:$bin/${QEMU#qemu-}-binfmt-P:\1|" \
    "$bin/$QEMU.conf" >"$dir/register"
  grep -q '^enabled' "$dir/$BINFMT_ENTRY"
}

binfmt_remove() { # the EXIT trap, with QEMU_SUITE
  local entry=/proc/sys/fs/binfmt_misc/$BINFMT_ENTRY
  if [ -e "$entry" ]; then echo -1 >"$entry"; fi
}

# own_apt DIR ARCH SUITE: an apt of its own under DIR, its lists updated: ARCH only, SUITE (and
# its -updates and -security, but for sid), an empty dpkg status (so that the whole dependency
# closure of what it installs is downloaded), the host's keyring. Used as APT_CONFIG=DIR/apt.conf.
own_apt() {
  local apt=$1 arch=$2 suite=$3
  mkdir -p "$apt"/etc/apt/{apt.conf.d,preferences.d,sources.list.d} "$apt"/var/lib/apt/lists/partial \
    "$apt"/var/cache/apt/archives/partial "$apt"/var/lib/dpkg
  : >"$apt/var/lib/dpkg/status"
  cat >"$apt/apt.conf" <<EOF
Dir "$apt/";
Dir::State::status "$apt/var/lib/dpkg/status";
APT::Architecture "$arch";
APT::Architectures { "$arch"; };
APT::Install-Recommends "false";
EOF
  local keyring="signed-by=/usr/share/keyrings/debian-archive-keyring.gpg"
  echo "deb [arch=$arch $keyring] $MIRROR $suite main" >"$apt/etc/apt/sources.list"
  case $suite in
    sid | unstable) ;;
    *)
      cat >>"$apt/etc/apt/sources.list" <<EOF
deb [arch=$arch $keyring] $MIRROR $suite-updates main
deb [arch=$arch $keyring] ${MIRROR%/debian}/debian-security $suite-security main
EOF
      ;;
  esac
  # A mirror caught mid-sync (an index whose size is not its Release file's) fails the update
  # of that suite only: the others' lists are kept, and install fails if they lack one.
  if ! APT_CONFIG=$apt/apt.conf apt-get update -qq; then
    echo "$STEP_PREFIX: apt-get update failed for an index above: going on with the lists fetched" >&2
  fi
}

# QEMU_SUITE's qemu-user (static: it runs on this host as it is), once: its $QEMU and that
# suite's binfmt_misc line for it, into $QEMU_DIR/bin/; the apt it is downloaded by (the .deb,
# 70 MB with every architecture's emulator, and the lists) is then deleted.
qemu_user() {
  local stamp=$QEMU_DIR/bin/.uuidx-qemu
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$QEMU_SUITE" ] && return 0
  local apt=$QEMU_DIR/apt deb
  own_apt "$apt" "$(dpkg --print-architecture)" "$QEMU_SUITE"
  APT_CONFIG=$apt/apt.conf apt-get clean
  APT_CONFIG=$apt/apt.conf apt-get install -qq -y --download-only qemu-user >/dev/null || return 1
  deb=$(echo "$apt"/var/cache/apt/archives/qemu-user_*.deb)
  rm -rf "${QEMU_DIR:?}/bin" "$QEMU_DIR/unpacked"
  mkdir -p "$QEMU_DIR/bin" "$QEMU_DIR/unpacked"
  dpkg-deb --fsys-tarfile "$deb" |
    tar -x -C "$QEMU_DIR/unpacked" "./usr/bin/$QEMU" "./usr/share/qemu/binfmt.d/$QEMU.conf"
  mv "$QEMU_DIR/unpacked/usr/bin/$QEMU" "$QEMU_DIR/unpacked/usr/share/qemu/binfmt.d/$QEMU.conf" "$QEMU_DIR/bin/"
  ln -s "$QEMU" "$QEMU_DIR/bin/${QEMU#qemu-}-binfmt-P"
  rm -rf "$QEMU_DIR/unpacked" "$apt" # and the lists (90 MB), of no use once it is downloaded
  "$QEMU_DIR/bin/$QEMU" --version | head -n 1
  echo "$QEMU_SUITE" >"$stamp"
}

sysroot() {
  local stamp=$SYSROOT/.uuidx-sysroot want
  want="$SUITE ${SYSROOT_PACKAGES[*]}"
  [ -f "$stamp" ] && [ "$(cat "$stamp")" = "$want" ] && return 0
  local apt=$CACHE/apt
  own_apt "$apt" "$DEB_ARCH" "$SUITE"
  APT_CONFIG=$apt/apt.conf apt-get install -qq -y --download-only "${SYSROOT_PACKAGES[@]}" >/dev/null || return 1
  rm -rf "$SYSROOT"
  mkdir -p "$SYSROOT"
  local deb
  for deb in "$apt"/var/cache/apt/archives/*.deb; do dpkg -x "$deb" "$SYSROOT" || return 1; done
  # An absolute link (ppc64el's /lib64/ld64.so.2 -> /lib/powerpc64le-linux-gnu/ld64.so.2) would
  # be followed on the host, where qemu finds nothing: each is made to point into the sysroot.
  local link
  while IFS= read -r -d '' link; do
    ln -sfn "$SYSROOT$(readlink "$link")" "$link"
  done < <(find "$SYSROOT" -type l -lname '/*' -print0)
  if [ -z "$QEMU" ]; then native_interpreter; fi
  guest "$SYSROOT/usr/bin/python3.11" -c "import platform; m = platform.machine(); assert m == '$PLATFORM', m"
  echo "$want" >"$stamp"
}

# Native (i386 on x86_64): the kernel runs the sysroot's binaries itself, but their loader
# (/lib/ld-linux.so.2) and libraries are not on the host. The interpreter is given the
# sysroot's loader and, as DT_RPATH (searched for every library the process loads, the
# interpreter's extension modules' included), the sysroot's library folders: it then runs as
# itself, and so does sys.executable in a test.
sysroot_libs() {
  local m=${MULTIARCH:-$CROSS}
  echo "$SYSROOT/lib/$m:$SYSROOT/usr/lib/$m:$SYSROOT/lib:$SYSROOT/usr/lib"
}
native_interpreter() {
  patchelf --set-interpreter "$SYSROOT/lib/ld-linux.so.2" --force-rpath --set-rpath "$(sysroot_libs)" \
    "$SYSROOT/usr/bin/python3.11"
}

# A command of the guest's: under `setarch` for a 32-bit architecture the kernel runs natively
# (its uname then says i686, not x86_64, as on a 32-bit kernel), as it is elsewhere (qemu).
guest() {
  if [ -z "$QEMU" ]; then
    setarch "$PLATFORM" "$@"
  else
    "$@"
  fi
}

# The file the kernel runs the guest's interpreter with: /proc/PID/exe of a guest process, whose
# getpid() is, under qemu-user, the host's pid of its qemu.
guest_emulator() {
  local pid exe stdin
  coproc GUEST { guest "$SYSROOT/usr/bin/python3.11" -c 'import os, sys; print(os.getpid(), flush=True); sys.stdin.read()'; }
  read -r pid <&"${GUEST[0]}"
  exe=$(readlink "/proc/$pid/exe")
  stdin=${GUEST[1]}
  exec {stdin}>&- # the guest's stdin closed: it ends
  wait "$GUEST_PID"
  echo "$exe"
}

emulator_check() { # with QEMU_SUITE: the guest runs under that qemu, not the host's
  local exe want
  exe=$(guest_emulator)
  want=$(realpath "$QEMU_DIR/bin/$QEMU")
  echo "$STEP_PREFIX: the guest runs under $exe"
  [ "$exe" = "$want" ] || {
    echo "$STEP_PREFIX: not under $want, which binfmt_misc's entry $BINFMT_ENTRY names" >&2
    return 1
  }
}

provision() {
  timed "host packages" host_packages
  if [ -n "${QEMU_SUITE:-}" ]; then
    timed "qemu-user of Debian $QEMU_SUITE" qemu_user
    trap binfmt_remove EXIT
  fi
  if [ -n "$QEMU" ]; then
    timed "binfmt_misc and $BINFMT_ENTRY" guest_binfmt
  fi
  timed "$DEB_ARCH sysroot ($SUITE: ${SYSROOT_PACKAGES[*]})" sysroot
  if [ -n "${QEMU_SUITE:-}" ]; then
    timed "the guest's emulator" emulator_check
  fi
}

qemu_version() { "$1" --version | sed -n 's/.*version \([^ ]*\).*/\1/p'; }

# The interpreter's description in the summary lines.
interpreter() {
  local how="natively (the x86_64 kernel runs i386 binaries)"
  if [ -n "${QEMU_SUITE:-}" ]; then
    how="under qemu-user $(qemu_version "$(guest_emulator)") (Debian $QEMU_SUITE's)"
  elif [ -n "$QEMU" ]; then
    how="under qemu-user $(qemu_version "$QEMU-static")"
  fi
  echo "CPython $(guest "$VENV/bin/python" -c 'import platform; print(platform.python_version())') $PLATFORM (Debian $SUITE) $how"
}

summary_line() { # summary_line LABEL JUNIT SECONDS WHAT: the contract's line, from a JUnit file
  python3 "$repo/ci/junit_summary.py" "$1" "$2" "$4" "$3"
}

pytest_run() { # pytest_run JUNIT LOG TESTS...: pytest as ci/wheel-suite runs it, on the installed wheel
  local junit=$1 log=$2 tmp bin postgres=0 rc=0
  shift 2
  tmp=$(mktemp -d) bin=$(mktemp -d)
  # The cc of the tests that compile a C library and load it into the interpreter
  # (tests/columns/test_arrow_ffi.py, where pyarrow has a wheel for the CPU): Debian's cross gcc,
  # which builds for the guest's CPU as that machine's own cc would; the host's builds x86_64.
  ln -s "$(command -v "$CROSS-gcc")" "$bin/cc"
  if command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then postgres=1; fi
  local tests=("${@/#/$repo/}") run=() profile=emulated
  # Under qemu-user each property test runs a tenth of its examples (tests/conftest.py's
  # emulated profile): every test runs, each example costing ten to fifty times more there.
  [ -n "$QEMU" ] || run=(setarch "$PLATFORM") profile=uuidx
  (
    cd "$tmp"
    ulimit -v $((16 * 1024 * 1024))
    exec env PATH="$bin:$PATH" PYTHONPATH="$repo/ci" HYPOTHESIS_PROFILE="$profile" \
      UUIDX_EXPECT_DEBUG_BUILD=0 UUIDX_REQUIRE_POSTGRES="$postgres" \
      UUIDX_REQUIRE="$(cat "$CACHE/required.txt")" UUIDX_REQUIRE_FAKETIME=1 \
      ${LIBFAKETIME:+UUIDX_LIBFAKETIME="$LIBFAKETIME"} \
      ${run[@]+"${run[@]}"} "$VENV/bin/python" -m pytest -q -p no:cacheprovider -p pytest_installed \
      --durations=10 -c "$repo/pyproject.toml" --rootdir "$repo" --junitxml="$junit" "${tests[@]}"
  ) >"$log" 2>&1 || rc=$?
  tail -n 15 "$log"
  [ $rc = 0 ] || "$repo/ci/pytest-failures" "$log"
  rm -rf "$tmp" "$bin"
  return "$rc"
}

# The core's tests, linked by Debian's cross gcc (only there: the wheel is linked by zig,
# against glibc 2.17), profile fast (release without fat LTO: the cfgs that ship; the debug
# profile's run takes minutes more emulated), their binaries run under qemu through binfmt_misc
# (with QEMU_SUITE, under that qemu, cargo's runner), or natively through the sysroot's loader.
cross_cargo=(env "CARGO_TARGET_$(echo "$TARGET" | tr 'a-z-' 'A-Z_')_LINKER=$CROSS-gcc")
if [ -z "$QEMU" ]; then
  cross_cargo+=("CARGO_TARGET_$(echo "$TARGET" | tr 'a-z-' 'A-Z_')_RUNNER=setarch $PLATFORM $SYSROOT/lib/ld-linux.so.2 --library-path $(sysroot_libs)")
elif [ -n "${QEMU_SUITE:-}" ]; then
  cross_cargo+=("CARGO_TARGET_$(echo "$TARGET" | tr 'a-z-' 'A-Z_')_RUNNER=$QEMU_DIR/bin/$QEMU")
fi
cross_cargo+=(cargo)
cargo_build() { nice -n 5 "${cross_cargo[@]}" test -p uuidx-core --target "$TARGET" --profile fast --no-run >"$OUT/cargo-build.log" 2>&1; }

cargo_test() {
  local start rc=0 log=$OUT/cargo-test.log how="under qemu-user"
  [ -n "$QEMU" ] || how="natively, through the sysroot's loader"
  [ -z "${QEMU_SUITE:-}" ] || how="under qemu-user $(qemu_version "$QEMU_DIR/bin/$QEMU") (Debian $QEMU_SUITE's)"
  start=$(date +%s)
  "${cross_cargo[@]}" test -p uuidx-core --target "$TARGET" --profile fast >"$log" 2>&1 || rc=$?
  grep -E '^test result:|FAILED|panicked' "$log" | tail -n 20
  cargo_summary "$PLATFORM" "$log" $(($(date +%s) - start)) "$rc" \
    "cargo test -p uuidx-core --target $TARGET --profile fast" "$how" | tee -a "$OUT/summary.txt"
  return "$rc"
}
