# Everything a fresh clone needs: `make demo`, `make test`, `make bench`, `make neo4j`.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
SOURCES := $(shell find core langchain_bitemporal llamaindex_bitemporal -name '*.py' -o -name '*.gz' -o -name '*.html' 2>/dev/null)
STAMP := $(VENV)/.installed
NEO4J := tools/neo4j/neo4j.sh

.PHONY: install demo test lint typecheck unit docs neo4j neo4j-stop bench bench-scale clean

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

# The scale rows of issue 17 on kept stores (hours at 1M facts; re-runs skip what a store holds):
# recall and first recall of one 100k namespace, the multi-tenant store's single remember,
# recall, first recall, bulk rate, RSS and disk, a new session's remember on it, and Neo4j's
# keyword search, multi-tenant store and one-statement writes (needs NEO4J_URI).
SCALE_DIR ?= /tmp/bitemporal-scale
SCALE_MSGS ?= 108000
SCALE_FACTS ?= 1000000
bench-scale: install
	mkdir -p $(SCALE_DIR)
	$(PY) benchmarks/bench_vector_recall.py --store $(SCALE_DIR)/one.lbdb --msgs $(SCALE_MSGS) --embedder minilm
	$(PY) benchmarks/bench_store.py first-recall --store $(SCALE_DIR)/one.lbdb --namespace big --query "what did you think of the movie last night?"
	$(PY) benchmarks/bench_store.py first-recall --store $(SCALE_DIR)/one.lbdb --namespace big --query "what did you think of the movie last night?" --embedder minilm
	$(PY) benchmarks/bench_store.py build --facts $(SCALE_FACTS) --store $(SCALE_DIR)/tenants.lbdb
	$(PY) benchmarks/bench_store.py measure --store $(SCALE_DIR)/tenants.lbdb --out $(SCALE_DIR)/measurements.jsonl
	$(PY) benchmarks/bench_sessions.py --store $(SCALE_DIR)/tenants.lbdb
	rm -rf $(SCALE_DIR)/grow.lbdb $(SCALE_DIR)/grow.lbdb.* $(SCALE_DIR)/bulk.lbdb $(SCALE_DIR)/bulk.lbdb.*
	$(PY) benchmarks/bench_store.py grow --store $(SCALE_DIR)/grow.lbdb --msgs 10000 --out $(SCALE_DIR)/measurements.jsonl
	$(PY) benchmarks/bench_store.py bulk --store $(SCALE_DIR)/bulk.lbdb --msgs 12000 --out $(SCALE_DIR)/measurements.jsonl
	$(PY) benchmarks/bench_neo4j_keyword.py --uri $${NEO4J_URI:-bolt://127.0.0.1:7687} --msgs $(SCALE_MSGS)
	$(PY) benchmarks/bench_store.py build --engine neo4j --neo4j-uri $${NEO4J_URI:-bolt://127.0.0.1:7687} --facts $(SCALE_FACTS) --store neo4j
	$(PY) benchmarks/bench_store.py measure --engine neo4j --neo4j-uri $${NEO4J_URI:-bolt://127.0.0.1:7687} --store neo4j --out $(SCALE_DIR)/measurements.jsonl
	$(PY) benchmarks/bench_neo4j_writes.py --uri $${NEO4J_URI:-bolt://127.0.0.1:7687} --bulk

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache tools/neo4j/target
