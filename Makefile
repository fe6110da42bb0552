# uuidx: `make help` lists the targets. Everything installs into .venv by itself.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
DEPS := $(VENV)/.deps-installed
BENCH_VENV := benches/.venv
CARGO ?= cargo

.DEFAULT_GOAL := help
.PHONY: help dev build test test-rust test-python test-spark postgres java lint demo bench bench-rust bench-columns fuzz clean

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F ':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

$(DEPS): requirements-dev.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install -q --upgrade pip
	$(BIN)/python -m pip install -q -r requirements-dev.txt
	touch $@

dev: $(DEPS) ## Create .venv and build uuidx into it (release mode)
	$(BIN)/maturin develop --release -q

build: $(DEPS) ## Build a release wheel into dist/
	$(BIN)/maturin build --release -o dist

test: dev test-rust lint test-python test-spark ## Run every test: cargo test, clippy, fmt, mypy, stubtest, pytest

test-rust: ## Core crate tests (unit, integration, proptest, doctests)
	$(CARGO) test -p uuidx-core --release

PYTEST = UUIDX_REQUIRE_POSTGRES=$$(cat $(VENV)/.postgres) UUIDX_REQUIRE_ARROW=1 \
	UUIDX_REQUIRE_JAVA=$$(cat $(VENV)/.java) $(BIN)/python -m pytest -q -p no:cacheprovider

test-python: dev postgres java ## pytest over tests/, three ways: fast path, forced fallback, debug build
	@echo "== pytest 1/3: release build, fast path (exact uuid.UUID by slot stores)"
	UUIDX_EXPECT_DEBUG_BUILD=0 $(PYTEST) $(NOT_SPARK)
	@echo "== pytest 2/3: the fallback path forced (UUIDX_FORCE_FALLBACK=1: uuid.UUID(int=...), .int)"
	UUIDX_EXPECT_DEBUG_BUILD=0 UUIDX_FORCE_FALLBACK=1 $(PYTEST) $(NOT_SPARK)
	@echo "== pytest 3/3: a debug build (Rust debug assertions: alignment, overflow)"
	$(BIN)/maturin develop -q
	UUIDX_EXPECT_DEBUG_BUILD=1 $(PYTEST) $(NOT_SPARK)
	$(BIN)/maturin develop --release -q

# The Spark test starts a JVM (~40 s, up to ~100 s on a busy 2-core machine): run once, not
# in each of the three passes above.
NOT_SPARK = --ignore=tests/test_spark.py

test-spark: dev java ## The README's Spark recipe with real PySpark in local mode (tests/test_spark.py, once)
	UUIDX_EXPECT_DEBUG_BUILD=0 $(PYTEST) tests/test_spark.py

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

lint: $(DEPS) ## clippy -D warnings, cargo fmt --check, cargo doc -D warnings, mypy --strict, stubtest
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) fmt --all -- --check
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps -q
	$(BIN)/python -m mypy
	$(BIN)/python -m mypy.stubtest uuidx._core

demo: dev ## Build, then generate, parse and inspect UUIDs
	$(BIN)/python examples/demo.py

bench: dev ## Side-by-side benchmarks against the stdlib and peers (benches/.venv)
	test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install -q -r benches/requirements.txt
	VIRTUAL_ENV=$(CURDIR)/$(BENCH_VENV) $(BIN)/maturin develop --release -q
	$(BENCH_VENV)/bin/python benches/bench.py

bench-columns: dev ## Column benchmarks (uuidx.arrow vs per-row UDFs in DuckDB and Polars); rewrites the README's figures
	test -x $(BENCH_VENV)/bin/python || $(PYTHON) -m venv $(BENCH_VENV)
	$(BENCH_VENV)/bin/python -m pip install -q -r benches/requirements.txt
	VIRTUAL_ENV=$(CURDIR)/$(BENCH_VENV) $(BIN)/maturin develop --release -q
	$(BENCH_VENV)/bin/python benches/columns.py

bench-rust: ## Rust core benchmarks (criterion); rewrites the README's Rust table
	$(PYTHON) benches/rust_bench.py

FUZZ_SECONDS ?= 60
fuzz: ## Fuzz the core parser for FUZZ_SECONDS (cargo-fuzz + libFuzzer; installs cargo-fuzz)
	command -v cargo-fuzz >/dev/null 2>&1 || $(CARGO) install cargo-fuzz --locked
	# RUSTC_BOOTSTRAP: cargo-fuzz passes -Z flags; --sanitizer none keeps to a stable toolchain.
	cd fuzz && RUSTC_BOOTSTRAP=1 $(CARGO) fuzz run parse --sanitizer none -- -max_total_time=$(FUZZ_SECONDS)

clean: ## Remove build products and virtualenvs
	rm -rf target dist $(VENV) $(BENCH_VENV) .pytest_cache .mypy_cache .hypothesis
