# Everything a fresh clone needs: `make demo`, `make test`, `make bench`, `make neo4j`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SOURCES := $(shell find core langchain_bitemporal llamaindex_bitemporal -name '*.py' -o -name '*.gz' -o -name '*.html' 2>/dev/null)
STAMP := $(VENV)/.installed
NEO4J := tools/neo4j/neo4j.sh

.PHONY: install demo test lint typecheck unit docs neo4j neo4j-stop bench clean

$(PY):
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip setuptools wheel

# Strict editable mode lets pytest and mypy both resolve `bitemporal_core` (docs/design.md, "Naming");
# it links files one by one, so any new source file re-runs the install.
$(STAMP): $(PY) pyproject.toml $(SOURCES)
	$(PY) -m pip install -q -e '.[dev]' --config-settings editable_mode=strict
	@touch $(STAMP)

install: $(STAMP)

demo: install
	$(VENV)/bin/bitemporal-memory demo

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(VENV)/bin/lint-imports

typecheck: install
	$(PY) -m mypy -p bitemporal_core -p langchain_bitemporal -p llamaindex_bitemporal

unit: install
	$(PY) -m pytest tests/unit -q

# The API reference, from the docstrings (pdoc; any warning is an error). `make test` builds it
# too, into a temporary folder (tests/integration/test_packaging.py).
API_DIR ?= docs/api
docs: install
	$(PY) -W error -m pdoc -d google -o $(API_DIR) bitemporal_core langchain_bitemporal llamaindex_bitemporal
	@echo "API reference: $(API_DIR)/index.html"

# The whole suite: lint, types, then every test on every engine. A real Neo4j is started when
# Java and Maven are present (under CI=true its tests never skip).
test: lint typecheck
	@if command -v java >/dev/null 2>&1 && command -v mvn >/dev/null 2>&1; then \
		$(NEO4J) start; \
	elif [ "$$CI" = "true" ]; then echo "CI needs Java and Maven for Neo4j" >&2; exit 1; fi
	$(PY) -m pytest

neo4j:
	@$(NEO4J) start

neo4j-stop:
	@$(NEO4J) stop

bench: install
	$(PY) benchmarks/bench_core.py
	$(PY) benchmarks/bench_scale.py $(BENCH_SCALE_ARGS)
	$(PY) benchmarks/bench_baselines.py $(BENCH_BASELINES_ARGS)

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache tools/neo4j/target
