# uuidx: `make help` lists the targets. Everything installs into .venv/ by itself.
SHELL := /bin/bash
# Every interpreter a recipe starts writes its bytecode caches, as on a user's machine, even
# where the image sets PYTHONDONTWRITEBYTECODE: otherwise each one compiles every module it
# imports from source (the facade, the test modules, a venv's packages), and the suite starts
# hundreds (tests/cli). ci/steps.sh does the same for the platform scripts run by hand.
unexport PYTHONDONTWRITEBYTECODE
PYTHON ?= python3
# The interpreter itself (a pyenv shim resolved; a python3.X that pyenv has but does not select
# found under $(pyenv root)/versions), and one virtualenv per interpreter, .venv/<impl><X.Y>[t]
# (.venv/cpython3.12, ...): `make test` and `make test PYTHON=python3.12` never share one.
PYTHON_EXE := $(shell ci/find-python $(PYTHON))
VENV_TAG := $(if $(PYTHON_EXE),$(shell $(PYTHON_EXE) ci/venv_tag.py))
VENV ?= .venv/$(or $(VENV_TAG),no-python)
BIN := $(VENV)/bin
# Cargo profile of the test builds (maturin develop): release without fat LTO, see Cargo.toml.
# Wheels (make build, make wheels) and benchmarks keep [profile.release] (fat LTO).
DEV_PROFILE ?= fast
DEPS := $(VENV)/.deps-installed
CARGO ?= cargo

.DEFAULT_GOAL := help
.PHONY: help dev build test test-rust test-loom test-python test-spark postgres postgres18 java faketime lint lint-free-threaded lint-targets publish-check-core demo \
	docs docs-serve test-docs docs-check chromium \
	bench bench-env bench-all bench-measure bench-report bench-rust bench-contention bench-rust-instructions bench-encodings bench-instructions bench-columns fuzz test-matrix wheels test-wheels clean \
	test-asan test-miri coverage \
	wheel-windows test-windows wheel-musl test-musl wheel-aarch64 test-aarch64 \
	wheel-armv7l wheel-i686 wheel-ppc64le wheel-s390x wheel-musl-aarch64 test-musl-aarch64 wheel-windows-arm64 \
	test-s390x test-ppc64le test-armv7l test-i686 \
	wheel-pypy test-pypy platforms-report release-rehearsal

help: ## List the targets
	@grep -E '^[a-z0-9-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'

$(DEPS): requirements-dev.txt
	@test -n "$(VENV_TAG)" || { echo "no interpreter for PYTHON=$(PYTHON) (make ... PYTHON=/path/to/python3.X)"; exit 1; }
	test -x $(BIN)/python || $(PYTHON_EXE) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements-dev.txt
	touch $@

# maturin develop into this interpreter's virtualenv (named explicitly: maturin would otherwise
# look for ./.venv itself).
DEVELOP = VIRTUAL_ENV=$(CURDIR)/$(VENV) $(BIN)/maturin develop -q

dev: $(DEPS) ## Create .venv/<python> and build uuidx into it (cargo profile fast)
	$(DEVELOP) --profile $(DEV_PROFILE)

build: $(DEPS) ## Build a release wheel for PYTHON into dist/
	$(BIN)/maturin build --release -o dist

wheels: ## manylinux2014 x86_64 wheels for CPython 3.9-3.15 (release, stripped) + sdist into dist/, checked
	ci/build-wheels $(PYTHON)

# The musllinux_1_2 x86_64 wheel (ci/platform-musl), tested on a musl CPython 3.11 built once
# from Debian's source package and cached under ${UUIDX_PLATFORM_CACHE:-${TMPDIR:-/tmp}/uuidx-platforms}/musl.
# PLATFORM_TESTS: what pytest runs (default: all of tests/).
wheel-musl: ## The musllinux_1_2 x86_64 wheel (maturin --zig, release) into target/platforms/musl/dist/
	ci/platform-musl wheel

test-musl: ## The musllinux wheel on a musl CPython 3.11 (built from Debian's source, cached): the suite
	$(if $(PLATFORM_TESTS),PLATFORM_TESTS="$(PLATFORM_TESTS)") ci/platform-musl test

# The manylinux2014 aarch64 wheel (ci/platform-aarch64), tested under qemu-user on Debian's arm64
# CPython 3.11, unpacked once under ${UUIDX_PLATFORM_CACHE:-${TMPDIR:-/tmp}/uuidx-platforms}/aarch64.
# PLATFORM_TESTS: what pytest runs (default: the subset the script names; tests for all of it).
wheel-aarch64: ## The manylinux2014 aarch64 wheel (maturin --zig, release) into target/platforms/aarch64/dist/, auditwheel-checked
	ci/platform-aarch64 wheel

test-aarch64: ## The aarch64 wheel under qemu-user (arm64 CPython 3.11): a pytest subset on both 128-bit CAS paths, cargo test of the core
	$(if $(PLATFORM_TESTS),PLATFORM_TESTS="$(PLATFORM_TESTS)") ci/platform-aarch64 test

# The release's wheels of other CPUs, for CPython 3.11, built here as release.yml builds them
# (ci/platform-wheel: ci/release-build, maturin --zig, release profile) into
# target/platforms/<arch>/dist/ and checked by ci/release-check (auditwheel's manylinux2014
# policy; for musl, NEEDED and symbol versions). make test-<arch> tests the Linux ones.
# RELEASE_PROFILE=fast: a trial build (release without fat LTO).
wheel-armv7l: ## The manylinux2014 armv7l wheel (cp311, zig) into target/platforms/armv7l/dist/, policy-checked
	ci/platform-wheel manylinux-armv7l armv7l

wheel-i686: ## The manylinux2014 i686 wheel (cp311, zig) into target/platforms/i686/dist/, policy-checked
	ci/platform-wheel manylinux-i686 i686

wheel-ppc64le: ## The manylinux_2_24 ppc64le wheel (cp311, zig) into target/platforms/ppc64le/dist/, policy-checked
	ci/platform-wheel manylinux-ppc64le ppc64le

wheel-s390x: ## The manylinux2014 s390x wheel (cp311, zig) into target/platforms/s390x/dist/, policy-checked
	ci/platform-wheel manylinux-s390x s390x

wheel-musl-aarch64: ## The musllinux_1_2 aarch64 wheel (cp311, zig) into target/platforms/musl-aarch64/dist/, policy-checked
	ci/platform-wheel musllinux-aarch64 musl-aarch64

# The musllinux_1_2 aarch64 wheel (ci/platform-musl test aarch64), under qemu-user on a musl
# CPython 3.11 cross-built once by zig from Debian's source package and cached under
# ${UUIDX_PLATFORM_CACHE:-${TMPDIR:-/tmp}/uuidx-platforms}/musl-aarch64. PLATFORM_TESTS: what
# pytest runs (default: ci/platform-linux's named subset; tests for all of it);
# PLATFORM_CARGO_TEST=0 leaves out cargo test of the core.
test-musl-aarch64: ## The musllinux aarch64 wheel under qemu-user (musl CPython 3.11, cross-built by zig, cached): a pytest subset, cargo test of the core
	$(if $(PLATFORM_TESTS),PLATFORM_TESTS="$(PLATFORM_TESTS)") ci/platform-musl test aarch64

# Windows arm64: the release links it with MSVC on the windows-11-arm runner; here the same code
# is linked for aarch64-pc-windows-gnullvm by zig (llvm-mingw's ABI), a check that it links,
# never published nor run.
wheel-windows-arm64: ## Windows arm64 wheel (cp311, zig for aarch64-pc-windows-gnullvm) into target/platforms/windows-arm64/dist/, imports checked
	ci/platform-wheel windows-arm64 windows-arm64

# The manylinux2014 wheels of the CPUs no runner has (ci/platform-linux ARCH), each tested on
# Debian bookworm's CPython 3.11 of that CPU, unpacked once under
# ${UUIDX_PLATFORM_CACHE:-${TMPDIR:-/tmp}/uuidx-platforms}/ARCH: under qemu-user, i686 natively.
# PLATFORM_TESTS: what pytest runs (default: the whole suite on s390x, the big-endian one; a
# named subset on the others; tests for all of it). PLATFORM_WHEEL=path tests a wheel built
# before; RELEASE_PROFILE=fast builds a trial wheel.
test-s390x: ## The s390x wheel under qemu-user (big-endian, s390x CPython 3.11): the whole suite, cargo test of the core
	$(if $(PLATFORM_TESTS),PLATFORM_TESTS="$(PLATFORM_TESTS)") ci/platform-linux s390x test

test-ppc64le: ## The ppc64le wheel under qemu-user (ppc64el CPython 3.11): a pytest subset, cargo test of the core
	$(if $(PLATFORM_TESTS),PLATFORM_TESTS="$(PLATFORM_TESTS)") ci/platform-linux ppc64le test

test-armv7l: ## The armv7l wheel under qemu-user (armhf CPython 3.11): a pytest subset, cargo test of the core
	$(if $(PLATFORM_TESTS),PLATFORM_TESTS="$(PLATFORM_TESTS)") ci/platform-linux armv7l test

test-i686: ## The i686 wheel, natively (i386 CPython 3.11, a 32-bit process): a pytest subset, cargo test of the core
	$(if $(PLATFORM_TESTS),PLATFORM_TESTS="$(PLATFORM_TESTS)") ci/platform-linux i686 test

# MATRIX_VERSIONS: the X.Y versions of `make test-wheels` and `make test-matrix` (default: all,
# 3.9 to 3.15).
MATRIX_VERSIONS ?=
# WHEELS_WHOLE_SUITE: the X.Y versions whose wheels run the whole suite (default: all); the
# others run a subset (ci/matrix.py's TURN_SUBSET). .ci/run names one of them a run, in turn.
WHEELS_WHOLE_SUITE ?=
test-wheels: ## release.yml's test jobs, from the workflow file, for the wheels and sdist in dist/ (make wheels): each on its interpreter
	PYTHON=$(PYTHON) $(PYTHON_EXE) ci/matrix.py test-wheels $(MATRIX_VERSIONS) \
		$(if $(WHEELS_WHOLE_SUITE),--whole-suite "$(WHEELS_WHOLE_SUITE)")

# The whole release, made and tested as release.yml makes it (ci/rehearsal.py): every file built
# by the workflow's own jobs (or, for the arm64 runner's, its command), checked as a set, each
# tested on an interpreter of its own ABI, and ci.yml's Linux jobs run. By hand (an hour or
# more): CI runs its parts on what it builds (make wheels, test-wheels, test-pypy, test-musl,
# test-aarch64). REHEARSAL_CI=0 leaves ci.yml's jobs out; REHEARSAL_DIRTY=1 rehearses an
# uncommitted tree. The report: target/release-rehearsal/report.md.
release-rehearsal: ## The release built, checked and tested here as release.yml would (by hand; report in target/release-rehearsal/)
	$$(ci/tools $(PYTHON))/python ci/rehearsal.py

# PLATFORM_TESTS: the pytest arguments of make test-<platform> (default: each script's own, the
# whole suite or a named subset; `make test-windows PLATFORM_TESTS=tests/ffi`).
PLATFORM_TESTS ?=
wheel-windows: ## Windows x64 wheel (mingw-w64, cp313) into target/platforms/windows/dist/, linked for each release CPython
	ci/platform-windows build

test-windows: ## wheel-windows, then the suite on it under Wine (embeddable CPython 3.13, memory-capped)
	PLATFORM_TESTS="$(PLATFORM_TESTS)" ci/platform-windows test

# The PyPy 3.11 wheels, one per PyPy release line, each in ci/chroot-python's Debian root of the
# suite that packages that PyPy (ci/release.py's PYPY), with Debian's pypy3 added to it.
wheel-pypy: ## The release's PyPy 3.11 wheels (pp73, pp80), each built in a Debian root with its PyPy, into target/platforms/pypy-*/dist/
	ci/platform-pypy --build-only

# PYPY_ABIS: the wheels make test-pypy tests (default: both; .ci/run names one a run).
PYPY_ABIS ?=
test-pypy: ## Each PyPy wheel on its own PyPy (7.3.19, trixie; 8.0.1, sid): the suite (target/platforms/pypy-*/summary.txt)
	PLATFORM_TESTS="$(PLATFORM_TESTS)" ci/platform-pypy $(PYPY_ABIS)

platforms-report: ## Rewrite docs/platforms.md's results table from the last make test-<platform> runs (a committed tree)
	$(PYTHON_EXE) ci/platforms_report.py

# CI runs make test-wheels, which checks the same on each interpreter from its release wheel.
test-matrix: ## Build (fast profile), mypy, stubtest and pytest on every CPython 3.9-3.15 provisionable here
	PYTHON=$(PYTHON) $(PYTHON_EXE) ci/matrix.py test-matrix $(MATRIX_VERSIONS)

# The core crate's tests run once, in make lint's publish-check-core: from the unpacked .crate,
# with the Cargo.lock it ships (make test-rust runs the same tests in the workspace).
test: dev lint test-python test-spark test-docs ## Run every test: cargo test, clippy, fmt, mypy, stubtest, pytest, Spark, the docs

test-rust: ## Core crate tests (unit, integration, proptest, doctests)
	$(CARGO) test -p uuidx-core

FORKS ?= 10000
stress-fork: dev ## FORKS children forked while 8 threads make UUIDs (4 in GIL-released bulk calls): how every failing child ended
	$(BIN)/python tests/generation/fork_stress.py --forks $(FORKS)

test-nomemory: dev ## Every catalogued call with each of its first 41 allocations failing (first and warm); every error path at an RLIMIT_AS cap, 7 headrooms
	UUIDX_NOMEMORY_FULL=1 $(BIN)/python -m pytest -q -p no:cacheprovider tests/ffi/test_nomemory_sweep.py tests/ffi/test_nomemory_rlimit.py

# loom explores every interleaving of the generators' engines and of the fork gate with up to LOOM_MAX_PREEMPTIONS
# preemptions (each step up multiplies the run time several times). A target directory of its
# own: --cfg loom would otherwise invalidate the ordinary build. Cargo profile loom: optimised,
# debug assertions and overflow checks on (Cargo.toml).
LOOM_MAX_PREEMPTIONS ?= 3
test-loom: ## Model check with loom of the generators' engines (generator/engine/model.rs, generator/word/model.rs) and the fork gate (fork/gate.rs)
	RUSTFLAGS="--cfg loom" LOOM_MAX_PREEMPTIONS=$(LOOM_MAX_PREEMPTIONS) CARGO_TARGET_DIR=target/loom \
		ci/cargo-ran $(CARGO) test -p uuidx-core --lib --profile loom -- \
		generator::engine::model generator::word::model fork::gate::model

PYTEST = UUIDX_REQUIRE_POSTGRES=$$(cat $(VENV)/.postgres) UUIDX_REQUIRE_POSTGRES18=$$(cat $(VENV)/.postgres18) \
	UUIDX_REQUIRE_FAKETIME=$$(cat $(VENV)/.faketime) \
	UUIDX_REQUIRE="$$($(BIN)/python ci/requirements.py required) $(PYTEST_REQUIRE)" \
	UUIDX_REQUIRE_JAVA=$$(cat $(VENV)/.java) $(BIN)/python -m pytest -q -p no:cacheprovider

# Passes 2 and 3 change how the extension builds objects and how it was compiled: they run the
# tests that call it directly (PATH_TESTS), not those of the command line (which calls the same
# functions from another process), of the libraries that take its objects, or of the packaging.
PATH_TESTS = tests/ffi tests/generation tests/encodings tests/columns tests/conformance \
	$(wildcard tests/test_*.py)

# PYTEST_PASSES: which passes run (.ci/run: the first, and the second or the third, in turn).
PYTEST_PASSES ?= 1 2 3
pass_on = $(if $(filter $(1),$(PYTEST_PASSES)),$(2),@echo "== pytest $(1)/3: not in PYTEST_PASSES")

test-python: dev postgres postgres18 java faketime ## pytest over tests/: the whole suite, then the extension's tests two more ways (forced fallback, debug build; PYTEST_PASSES)
	@echo "== pytest 1/3: optimised build (profile $(DEV_PROFILE)), fast path (exact uuid.UUID by slot stores): the whole suite"
	$(call pass_on,1,UUIDX_EXPECT_DEBUG_BUILD=0 $(PYTEST) $(NOT_SPARK))
	@echo "== pytest 2/3: the fallback path forced (UUIDX_FORCE_FALLBACK=1: uuid.UUID(int=...), .int): PATH_TESTS"
	$(call pass_on,2,UUIDX_EXPECT_DEBUG_BUILD=0 UUIDX_FORCE_FALLBACK=1 $(PYTEST) $(NOT_SPARK) $(PATH_TESTS))
	@echo "== pytest 3/3: a debug build (Rust debug assertions: alignment, overflow): PATH_TESTS, memory caps left to 1/3 and 2/3"
	$(call pass_on,3,$(DEVELOP) && UUIDX_EXPECT_DEBUG_BUILD=1 $(PYTEST) $(NOT_SPARK) -m "not memory_cap" $(PATH_TESTS) \
		&& $(DEVELOP) --profile $(DEV_PROFILE))

# The memory-cap tests (pytest -m memory_cap: ~20 s on an optimised build, 2-3 min on the debug
# build) run on the two code paths that build UUID objects, 1/3 and 2/3, and not again on the
# debug build, whose failure paths under the cap are those of 1/3 (its assertions are exercised
# by every other test of 3/3).
# The Spark test starts a JVM (~40 s, up to ~100 s on a busy 2-core machine): run once, not
# in each of the passes above. PySpark (~300 MB) goes into the main virtualenv only.
NOT_SPARK = --ignore=tests/columns/test_spark.py

$(VENV)/.spark-deps: $(DEPS) ci/requirements-spark.txt
	$(BIN)/python -m pip install -q -r ci/requirements-spark.txt
	touch $@

# UUIDX_REQUIRE (tests/optional.py): the test dependencies of this interpreter must be there; for
# test-spark, PySpark too.
PYTEST_REQUIRE =
test-spark: PYTEST_REQUIRE = $$($(BIN)/python ci/requirements.py required ci/requirements-spark.txt)
test-spark: dev java $(VENV)/.spark-deps ## The README's Spark recipe with real PySpark in local mode (tests/columns/test_spark.py, once)
	UUIDX_EXPECT_DEBUG_BUILD=0 $(PYTEST) tests/columns/test_spark.py

postgres: $(DEPS) ## Make sure PostgreSQL server binaries exist (apt-get as root), for tests/integration/test_postgres.py; without it make test fails (UUIDX_ALLOW_SKIP=1: its tests skip)
	ci/require-system postgres > $(VENV)/.postgres

postgres18: $(DEPS) ## Make sure the Debian sid root of ci/chroot-python has PostgreSQL 18 (provisioned as root), for tests/integration/test_postgres18.py and docs/postgresql.md; without it make test fails (UUIDX_ALLOW_SKIP=1: its tests skip)
	ci/require-system postgres18 > $(VENV)/.postgres18

faketime: $(DEPS) ## Make sure libfaketime exists (apt-get as root), for the clock-error leak test in tests/test_leaks.py; without it make test fails (UUIDX_ALLOW_SKIP=1: its tests skip)
	ci/require-system faketime > $(VENV)/.faketime

java: $(DEPS) ## Make sure a Java runtime exists (apt-get as root), for tests/columns/test_spark.py; without it make test fails (UUIDX_ALLOW_SKIP=1: its tests skip)
	ci/require-system java > $(VENV)/.java

$(VENV)/.lint-deps: $(DEPS) ci/requirements-lint.txt
	$(BIN)/python -m pip install -q -r ci/requirements-lint.txt
	touch $@

# The Python code ruff checks and formats (rules in pyproject.toml).
RUFF_PATHS := python tests benches ci examples docs
lint: dev $(VENV)/.lint-deps lint-free-threaded lint-targets publish-check-core ## uuidx built, then clippy (every target, both profiles), fmt, doc, MSRV, ruff, mypy, stubtest, workflows, shell, test dependencies, platform tables, ci/tests
	for profile in $(CLIPPY_PROFILES); do \
		PYO3_PYTHON=$(CURDIR)/$(BIN)/python $(CARGO) clippy --workspace --all-targets --profile $$profile -- -D warnings || exit 1; \
	done
	$(CARGO) fmt --all -- --check
	PYO3_PYTHON=$(CURDIR)/$(BIN)/python ci/msrv
	$(BIN)/ruff check $(RUFF_PATHS)
	$(BIN)/ruff format --check $(RUFF_PATHS)
	PYO3_PYTHON=$(CURDIR)/$(BIN)/python RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps -q
	$(BIN)/python -m mypy
	ci/stubtest $(BIN)/python
	ci/lint-workflows $(BIN)
	ci/lint-shell $(BIN)
	$(BIN)/python ci/platform_status.py --check
	$(BIN)/python ci/requirements.py check-wheels
	$(BIN)/python -m pytest -q -p no:cacheprovider ci/tests
	ci/check-spec-data
	ci/check-license-copies

# CLIPPY_PROFILES: the cargo profiles make lint and lint-targets lint (.ci/run: one a run, in
# turn). CLIPPY_PART=K/N: lint-targets lints the K-th of N parts of its targets (.ci/run: a
# third a run, in turn).
CLIPPY_PROFILES ?= dev release
CLIPPY_PART ?=
lint-targets: ## clippy -D warnings, debug and release (CLIPPY_PROFILES), for Linux aarch64 (glibc, musl), armv7, i686, ppc64le, s390x, Windows x64 and arm64 (MSVC), macOS x86_64 and arm64
	CLIPPY_PROFILES="$(CLIPPY_PROFILES)" CLIPPY_PART="$(CLIPPY_PART)" CARGO=$(CARGO) ci/clippy-targets

# About 35 s once the core's dependencies are built (cargo test -p uuidx-core): cheap enough
# for make lint. Needs crates.io's index.
publish-check-core: ## uuidx-core ready for crates.io: package listing, cargo publish --dry-run, the unpacked .crate's tests
	CARGO=$(CARGO) ci/publish-check-core

lint-free-threaded: ## clippy -D warnings on the bindings for free-threaded 3.14t (compile check only)
	CARGO=$(CARGO) ci/check-free-threaded

# make demo: uuidx built into a virtualenv of its own with maturin alone (no test or dataframe
# libraries), cargo's progress shown while the extension compiles (cargo profile fast, without
# the incremental cache, which a one-off build never reads: less disk).
DEMO_VENV := .venv/demo
demo: ## Build uuidx into .venv/demo (maturin only), then generate, parse and inspect UUIDs
	@test -n "$(VENV_TAG)" || { echo "no interpreter for PYTHON=$(PYTHON) (make ... PYTHON=/path/to/python3.X)"; exit 1; }
	test -x $(DEMO_VENV)/bin/python || $(PYTHON_EXE) -m venv $(DEMO_VENV)
	$(DEMO_VENV)/bin/python -m pip install -q --disable-pip-version-check "$$(grep '^maturin' requirements-dev.txt)"
	@echo "== compiling the extension (cargo profile $(DEV_PROFILE); a few minutes the first time)"
	VIRTUAL_ENV=$(CURDIR)/$(DEMO_VENV) CARGO_PROFILE_FAST_INCREMENTAL=false \
		$(DEMO_VENV)/bin/maturin develop --profile $(DEV_PROFILE)
	$(DEMO_VENV)/bin/python examples/demo.py

# The documentation site (mkdocs-material; its API reference by mkdocstrings from the stub and
# the docstrings). Its tools live in a virtualenv of their own, pinned in docs/requirements.txt,
# on DOCS_PYTHON (they need 3.11+), which also runs the examples of the pages: their outputs are
# those of one interpreter, whatever PYTHON the rest of `make test` uses.
DOCS_PYTHON ?= python3
DOCS_PYTHON_EXE := $(shell ci/find-python $(DOCS_PYTHON))
DOCS_VENV := .venv/docs
MKDOCS = NO_MKDOCS_2_WARNING=1 $(DOCS_VENV)/bin/mkdocs

$(DOCS_VENV)/.installed: docs/requirements.txt
	@test -n "$(DOCS_PYTHON_EXE)" || { echo "no interpreter for DOCS_PYTHON=$(DOCS_PYTHON) (3.11 or newer)"; exit 1; }
	test -x $(DOCS_VENV)/bin/python || $(DOCS_PYTHON_EXE) -m venv $(DOCS_VENV)
	$(DOCS_VENV)/bin/python -m pip install -q --disable-pip-version-check -r docs/requirements.txt
	touch $@

docs: $(DOCS_VENV)/.installed ## Build the documentation site into site/, strictly (a warning is an error)
	$(MKDOCS) build --strict --site-dir site

docs-serve: $(DOCS_VENV)/.installed ## Serve the documentation site at http://127.0.0.1:8000, rebuilt as you edit
	$(MKDOCS) serve --strict --dev-addr 127.0.0.1:8000

chromium: $(DOCS_VENV)/.installed ## Make sure Debian's chromium exists (apt-get as root), for docs/tests/test_site.py; without it make test fails (UUIDX_ALLOW_SKIP=1: it skips)
	ci/require-system chromium > $(DOCS_VENV)/.chromium

$(VENV)/.docs-deps: $(DEPS) docs/requirements-examples.txt
	$(BIN)/python -m pip install -q -r docs/requirements-examples.txt
	touch $@

# UPDATE_EXAMPLES=1 rewrites the outputs the pages show from what the code prints (review the diff).
test-docs: ## The docs: every code block run (outputs checked), the site opened in headless Chromium
	$(MAKE) --no-print-directory docs-check PYTHON=$(DOCS_PYTHON)

docs-check: dev postgres postgres18 docs chromium $(VENV)/.docs-deps $(VENV)/.spark-deps
	UUIDX_REQUIRE_POSTGRES=$$(cat $(VENV)/.postgres) UUIDX_REQUIRE_POSTGRES18=$$(cat $(VENV)/.postgres18) \
		$(BIN)/python -m pytest -q -p no:cacheprovider \
		docs/tests/test_examples.py docs/tests/test_reference.py docs/tests/test_stdlib_claims.py \
		$(if $(UPDATE_EXAMPLES),--update-examples)
	UUIDX_REQUIRE_CHROMIUM=$$(cat $(DOCS_VENV)/.chromium) $(DOCS_VENV)/bin/python -m pytest -q -p no:cacheprovider \
		docs/tests/test_site.py

# The benchmark environment, one per interpreter (.venv/bench-<tag>): the peers
# (benches/requirements.txt) and a release build of uuidx. Peers are installed here only, never
# into the test virtualenvs, each from a wheel (no source builds: a peer is measured as its users
# install it); one that publishes no wheel for this interpreter is left out, and named.
BENCH_VENV := .venv/bench-$(or $(VENV_TAG),no-python)
BENCH_PY := $(BENCH_VENV)/bin/python
# Where `make bench` keeps each interpreter's measurement (<tag>.json) for the combined tables.
BENCH_RESULTS ?= target/bench
# BENCH_ARGS: more options of benches/bench.py (--only uuid4, --rounds 20, --quick: a partial
# run is printed, not saved). The goals printed after the tables, met or MISSED, with the figure
# (CONTRIBUTING.md, "Performance goals"): ROWS:PEER=BOUND, call:A/B=BOUND, call:A-B=Nns (--help).
BENCH_GOALS ?= single:uuid_utils=0.9 single:fastuuid=1.0 list:uuid_utils=0.5 import:uuid=1.3 \
	call:uuidx.uuid7/uuid_utils.uuid7=0.6 call:uuidx.uuid7-uuidx.uuid4=20ns \
	call:uuidx.uuid7_str/fastuuidv7.uuid7_str=1.5 call:uuidx.uuid7_str/c_uuid_v7.uuid7=1.5 \
	call:uuidx.uuid7/uuidx.uuid4=1.3 call:uuidx.uuid7_str/uuidx.uuid4_str=1.65
# BENCH_REPORT_ARGS=--allow-dirty: let bench-report write runs of uncommitted trees to the page.
BENCH_REPORT_ARGS ?=
# The interpreters of `make bench-all`; python3.14 and python3.15 run in the Debian chroot
# (ci/chroot-python) when the host has no such interpreter, as does `make bench PYTHON=...`.
BENCH_PYTHONS ?= python3.11 python3.13 python3.14 python3.15
CHROOT_BENCH := $(if $(PYTHON_EXE),,$(filter python3.14 python3.15,$(PYTHON)))
# `make TARGET` inside the chroot for this PYTHON, with BENCH_RESULTS bound to the host's.
IN_CHROOT = mkdir -p $(BENCH_RESULTS) && CHROOT_BIND_RW="$(abspath $(BENCH_RESULTS)):/out" \
	ci/chroot-python -- make --no-print-directory PYTHON=$(PYTHON) BENCH_RESULTS=/out \
	BENCH_COMMIT=$(BENCH_COMMIT)
# The commit measured, named in the tables (the chroot's copy of the checkout has no .git).
BENCH_COMMIT ?= $(shell git describe --always --dirty 2>/dev/null || echo unknown)
# The tables are written on the host, by its default interpreter (no dependencies needed).
REPORT_PYTHON := $(shell ci/find-python python3)

$(BENCH_VENV)/.deps: benches/requirements.txt
	@test -n "$(VENV_TAG)" || { echo "no interpreter for PYTHON=$(PYTHON) (make ... PYTHON=/path/to/python3.X)"; exit 1; }
	test -x $(BENCH_PY) || $(PYTHON_EXE) -m venv $(BENCH_VENV)
	$(BENCH_PY) -m pip install -q --upgrade pip
	@$(BENCH_PY) -m pip install -q --only-binary :all: -r benches/requirements.txt 2>/dev/null || \
	sed -e 's/#.*//' -e '/^ *$$/d' benches/requirements.txt | while read -r req; do \
		$(BENCH_PY) -m pip install -q --only-binary :all: "$$req" >/dev/null 2>&1 || \
		echo "note: $$req has no wheel for $$($(BENCH_PY) -V): left out of the benchmarks"; \
	done
	touch $@

bench-env: $(BENCH_VENV)/.deps
	VIRTUAL_ENV=$(CURDIR)/$(BENCH_VENV) $(BENCH_VENV)/bin/maturin develop --release -q

ifeq ($(CHROOT_BENCH),)
bench-measure: bench-env
	$(BENCH_PY) benches/bench.py $(BENCH_ARGS) --commit $(BENCH_COMMIT) \
		--save $(BENCH_RESULTS)/$(VENV_TAG).json $(BENCH_GOALS:%=--goal %)

bench-instructions: bench-env ## Instructions per call (valgrind callgrind) of uuidx and the peers: stable under noise
	@command -v valgrind >/dev/null || ci/system-packages valgrind
	@# --profile names the interpreter's static functions: Debian ships their symbols in pythonX.Y-dbg.
	@[ -z "$(findstring --profile,$(INSTRUCTIONS_ARGS))" ] || [ "$$(id -u)" != 0 ] || \
		! dpkg -S $(PYTHON_EXE) >/dev/null 2>&1 || { dbg=python$$($(PYTHON_EXE) -c \
		'import sys; print("%d.%d" % sys.version_info[:2])')-dbg; dpkg -s $$dbg >/dev/null 2>&1 || \
		DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$dbg >/dev/null 2>&1 || \
		echo "note: no $$dbg: the interpreter's static functions go unnamed"; }
	$(BENCH_PY) benches/instructions.py $(INSTRUCTIONS_ARGS)
else
bench-measure:
	$(IN_CHROOT) bench-measure BENCH_ARGS="$(BENCH_ARGS)"

bench-instructions:
	$(IN_CHROOT) bench-instructions INSTRUCTIONS_ARGS="$(INSTRUCTIONS_ARGS)"
endif

bench: bench-measure ## Side-by-side benchmarks against the stdlib and peers (PYTHON=python3.14, 3.15: in the chroot)
	$(MAKE) --no-print-directory bench-report

bench-report: ## Rewrite docs/performance.md's benchmark tables from every interpreter measured (target/bench)
	$(REPORT_PYTHON) benches/bench.py $(BENCH_GOALS:%=--goal %) $(BENCH_REPORT_ARGS) \
		--report $(BENCH_RESULTS)/*.json

bench-all: ## make bench on CPython 3.11, 3.13, 3.14 and 3.15 (BENCH_PYTHONS), one table per interpreter
	set -e; for py in $(BENCH_PYTHONS); do $(MAKE) --no-print-directory bench-measure PYTHON=$$py; done
	$(MAKE) --no-print-directory bench-report

bench-encodings: bench-env ## Encodings and TypeID against python-ulid, base58, typeid-python; rewrites docs/performance.md's table
	$(BENCH_VENV)/bin/python benches/encodings.py

bench-columns: bench-env ## Column benchmarks (uuidx.arrow vs per-row UDFs in DuckDB and Polars); rewrites docs/performance.md's table
	$(BENCH_VENV)/bin/python benches/columns.py

bench-rust: ## Rust core benchmarks (criterion, then bench-contention's); rewrites docs/performance.md's Rust tables
	$(PYTHON_EXE) benches/rust_bench.py

bench-contention: ## The v7 engines against a Mutex on 1-16 threads: bursts (all threads running) and loops, p50/p99/p99.9
	$(CARGO) bench -p uuidx-core --bench contention

bench-rust-instructions: ## Instructions per call (callgrind) and paired timings of the core's generators and parser against the uuid crate
	$(PYTHON_EXE) benches/rust_instructions.py

# Sanitizers, Miri and fuzzing: nightly Rust, its toolchain and components installed by
# ci/nightly when missing (NIGHTLY=nightly-YYYY-MM-DD pins one). Each is a stage of .ci/run.
NIGHTLY ?= nightly
export NIGHTLY

test-asan: $(DEPS) ## pytest (ci/asan-tests.txt) against an AddressSanitizer build of the extension
	ci/asan $(CURDIR)/$(BIN)/python

# Miri runs the core's tests in an interpreter that checks every memory access, every unsafe
# pointer and every data race. Isolation is off so that the system clock and the OS random
# source come from the host (Miri has shims for both; isolation only forbids them). What it
# cannot run at all (a real fork()) is #[cfg_attr(miri, ignore = "...")], and long loops are
# shortened under cfg(miri).
MIRI_TESTS ?= clock:: fork:: generator:: mask:: random:: memory::tests::zeroed_
# Skipped until their loops are shortened under cfg(miri): each takes minutes there.
MIRI_SKIP ?= a_frozen_clock_counts_ticks counting_ahead_of_a_frozen_clock_is_not_a_rollback \
	threads_never_collide uuid8_has_122_independent_random_bits bursts_of_2_pow_k_within_one_tick \
	eight_threads_a_million_each_no_duplicates every_method_is_strictly_increasing_on_a_frozen_clock \
	running_ahead_of_the_clock_is_not_a_rollback
# Miri picks one thread schedule per seed: the lock-free stack of deterministic generators
# (installed, uninstalled and read by several threads at once) is run under three more.
MIRI_SEEDS ?= 1..4
MIRI_FLAGS = -Zmiri-disable-isolation $(MIRIFLAGS)
MIRI = $(CARGO) +$(NIGHTLY) miri test -p uuidx-core
# MIRI_PART=K/N: of those library tests, the K-th of N interleaved parts (ci/miri-part; .ci/run
# runs a fifth a run, in turn: the library tests took 1,164 s of the stage's 1,364). Empty: all.
MIRI_PART ?=
MIRI_SELECT = $(MIRI_TESTS) $(addprefix --skip ,$(MIRI_SKIP))
test-miri: ## Miri over the core's generator, random, fork, clock, mask and zeroed-memory tests (MIRI_PART=K/N: a part of the library's)
	ci/nightly miri rust-src
	$(if $(MIRI_PART),names=$$(MIRIFLAGS="$(MIRI_FLAGS)" CARGO=$(CARGO) ci/miri-part $(MIRI_PART) $(MIRI_SELECT)) && \
		MIRIFLAGS="$(MIRI_FLAGS)" ci/cargo-ran $(MIRI) --lib -- --exact $$names,\
		MIRIFLAGS="$(MIRI_FLAGS)" ci/cargo-ran $(MIRI) --lib -- $(MIRI_SELECT))
	MIRIFLAGS="$(MIRI_FLAGS)" ci/cargo-ran $(MIRI) --test fork --test mask
	MIRIFLAGS="$(MIRI_FLAGS) -Zmiri-many-seeds=$(MIRI_SEEDS)" ci/cargo-ran $(MIRI) --lib -- \
		deterministic::tests::threads_install_uninstall_and_read_the_stack_at_once

FUZZ_SECONDS ?= 45
fuzz: ## Every target in fuzz/fuzz_targets/ for FUZZ_SECONDS each (cargo-fuzz, ASan); fails on a finding
	FUZZ_SECONDS=$(FUZZ_SECONDS) ci/fuzz

# Not a stage of .ci/run (CI is near its time budget): run it by hand, read the figure.
coverage: ## Rust (per crate) and Python coverage over cargo test + one pytest pass; HTML in target/coverage/
	@test -n "$(PYTHON_EXE)" || { echo "no interpreter for PYTHON=$(PYTHON) (make ... PYTHON=/path/to/python3.X)"; exit 1; }
	ci/coverage $(PYTHON_EXE)

clean: ## Remove build products and virtualenvs
	rm -rf target dist site .venv benches/.venv .pytest_cache .mypy_cache .hypothesis
