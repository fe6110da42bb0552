# uuidx: `make help` lists the targets. Everything installs into .venv/ by itself.
SHELL := /bin/bash
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
BENCH_VENV := benches/.venv
CARGO ?= cargo

.DEFAULT_GOAL := help
.PHONY: help dev build test test-rust test-python test-spark postgres java lint lint-free-threaded demo \
	bench bench-env bench-rust bench-encodings bench-instructions bench-columns fuzz test-matrix wheels test-wheels clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{printf "  make %-18s %s\n", $$1, $$2}'

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

test-wheels: ## Install each wheel in dist/ (and the sdist) into a clean venv of its interpreter; run the suite
	PYTHON=$(PYTHON) $(PYTHON_EXE) ci/matrix.py test-wheels

test-matrix: ## Build (fast profile), mypy, stubtest and pytest on every CPython 3.9-3.15 provisionable here
	PYTHON=$(PYTHON) $(PYTHON_EXE) ci/matrix.py test-matrix

test: dev test-rust lint test-python test-spark ## Run every test: cargo test, clippy, fmt, mypy, stubtest, pytest, Spark

test-rust: ## Core crate tests (unit, integration, proptest, doctests)
	$(CARGO) test -p uuidx-core

PYTEST = UUIDX_REQUIRE_POSTGRES=$$(cat $(VENV)/.postgres) \
	UUIDX_REQUIRE_ARROW=$$($(BIN)/python ci/listed.py requirements-dev.txt pyarrow) \
	UUIDX_REQUIRE_JAVA=$$(cat $(VENV)/.java) $(BIN)/python -m pytest -q -p no:cacheprovider

test-python: dev postgres java ## pytest over tests/, three ways: fast path, forced fallback, debug build
	@echo "== pytest 1/3: optimised build (profile $(DEV_PROFILE)), fast path (exact uuid.UUID by slot stores)"
	UUIDX_EXPECT_DEBUG_BUILD=0 $(PYTEST) $(NOT_SPARK)
	@echo "== pytest 2/3: the fallback path forced (UUIDX_FORCE_FALLBACK=1: uuid.UUID(int=...), .int)"
	UUIDX_EXPECT_DEBUG_BUILD=0 UUIDX_FORCE_FALLBACK=1 $(PYTEST) $(NOT_SPARK)
	@echo "== pytest 3/3: a debug build (Rust debug assertions: alignment, overflow)"
	$(DEVELOP)
	UUIDX_EXPECT_DEBUG_BUILD=1 $(PYTEST) $(NOT_SPARK)
	$(DEVELOP) --profile $(DEV_PROFILE)

# The Spark test starts a JVM (~40 s, up to ~100 s on a busy 2-core machine): run once, not
# in each of the three passes above. PySpark (~300 MB) goes into the main virtualenv only.
NOT_SPARK = --ignore=tests/test_spark.py

$(VENV)/.spark-deps: $(DEPS) ci/requirements-spark.txt
	$(BIN)/python -m pip install -q -r ci/requirements-spark.txt
	touch $@

test-spark: dev java $(VENV)/.spark-deps ## The README's Spark recipe with real PySpark in local mode (tests/test_spark.py, once)
	UUIDX_EXPECT_DEBUG_BUILD=0 UUIDX_REQUIRE_SPARK=1 $(PYTEST) tests/test_spark.py

postgres: $(DEPS) ## Make sure PostgreSQL server binaries exist (apt-get as root), for tests/test_postgres.py
	@if command -v initdb >/dev/null 2>&1 || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then \
		echo 1 > $(VENV)/.postgres; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq postgresql >/dev/null && echo 1 > $(VENV)/.postgres; \
	else \
		echo "note: no PostgreSQL server binaries and no root to install them: tests/test_postgres.py will skip"; \
		echo 0 > $(VENV)/.postgres; \
	fi

java: $(DEPS) ## Make sure a Java runtime exists (apt-get as root), for tests/test_spark.py
	@if command -v java >/dev/null 2>&1; then \
		echo 1 > $(VENV)/.java; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq default-jre-headless >/dev/null && echo 1 > $(VENV)/.java; \
	else \
		echo "note: no Java runtime and no root to install one: tests/test_spark.py will skip"; \
		echo 0 > $(VENV)/.java; \
	fi

$(VENV)/.lint-deps: $(DEPS) ci/requirements-lint.txt
	$(BIN)/python -m pip install -q -r ci/requirements-lint.txt
	touch $@

lint: $(DEPS) $(VENV)/.lint-deps lint-free-threaded ## clippy, fmt, doc, mypy --strict, stubtest, workflow schema, tests/data
	PYO3_PYTHON=$(CURDIR)/$(BIN)/python $(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) fmt --all -- --check
	PYO3_PYTHON=$(CURDIR)/$(BIN)/python RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps -q
	$(BIN)/python -m mypy
	$(BIN)/python -m mypy.stubtest uuidx._core
	$(BIN)/check-jsonschema --builtin-schema vendor.github-workflows .github/workflows/*.yml
	ci/check-spec-data

lint-free-threaded: ## clippy -D warnings on the bindings for free-threaded 3.14t (compile check only)
	CARGO=$(CARGO) ci/check-free-threaded

demo: dev ## Build, then generate, parse and inspect UUIDs
	$(BIN)/python examples/demo.py

# The benchmark environment: the peers (benches/requirements.txt) and a release build of uuidx.
# Peers are installed here only, never into the test virtualenvs.
bench-env: dev
	test -x $(BENCH_VENV)/bin/python || $(PYTHON_EXE) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install -q -r benches/requirements.txt
	VIRTUAL_ENV=$(CURDIR)/$(BENCH_VENV) $(BIN)/maturin develop --release -q

bench: bench-env ## Side-by-side benchmarks against the stdlib and peers (benches/.venv)
	$(BENCH_VENV)/bin/python benches/bench.py

bench-instructions: bench-env ## Instructions per call (valgrind callgrind) of uuidx and the peers: stable under noise
	$(BENCH_VENV)/bin/python benches/instructions.py

bench-encodings: bench-env ## Encodings and TypeID against python-ulid, base58, typeid-python; rewrites the README table
	$(BENCH_VENV)/bin/python benches/encodings.py

bench-columns: bench-env ## Column benchmarks (uuidx.arrow vs per-row UDFs in DuckDB and Polars); rewrites the README's figures
	$(BENCH_VENV)/bin/python benches/columns.py

bench-rust: ## Rust core benchmarks (criterion); rewrites the README's Rust table
	$(PYTHON_EXE) benches/rust_bench.py

FUZZ_SECONDS ?= 60
fuzz: ## Fuzz the core parser for FUZZ_SECONDS (cargo-fuzz + libFuzzer; installs cargo-fuzz)
	command -v cargo-fuzz >/dev/null 2>&1 || $(CARGO) install cargo-fuzz --locked
	# RUSTC_BOOTSTRAP: cargo-fuzz passes -Z flags; --sanitizer none keeps to a stable toolchain.
	cd fuzz && RUSTC_BOOTSTRAP=1 $(CARGO) fuzz run parse --sanitizer none -- -max_total_time=$(FUZZ_SECONDS)

clean: ## Remove build products and virtualenvs
	rm -rf target dist .venv $(BENCH_VENV) .pytest_cache .mypy_cache .hypothesis
