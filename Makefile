# One-command loops. Every target sets up .venv first, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
ACCEPTANCE := ../shared/acceptance

.PHONY: setup test check lint typecheck imports unit acceptance dist-check bench demo interop clean redis-server

setup: $(STAMP) redis-server

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	@touch $(STAMP)

# The shared-state tests and benchmarks start a real redis-server of their own: installed here where
# it is missing and the machine allows it (root with apt-get); elsewhere those tests are skipped.
redis-server:
	@command -v redis-server >/dev/null 2>&1 || { \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "installing redis-server (for the shared-state tests)"; \
			{ DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null 2>&1 || \
			  { apt-get update -qq >/dev/null 2>&1 && \
			    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq redis-server >/dev/null 2>&1; }; } || \
			echo "redis-server could not be installed: the shared-state tests will be skipped"; \
		else \
			echo "redis-server is not installed (installing it needs root and apt-get): the shared-state tests will be skipped"; \
		fi; }

lint: setup
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .

typecheck: setup
	$(VENV)/bin/mypy -p openproject_mcp
	$(VENV)/bin/mypy tests benchmarks

imports: setup
	$(VENV)/bin/lint-imports

unit: setup
	$(PY) -m pytest -q

# The shared acceptance suite lives beside the checkout; it runs whenever it is there.
acceptance: setup
	@if [ -d $(ACCEPTANCE) ]; then \
		$(PY) -m pytest $(ACCEPTANCE) -q -p no:cacheprovider; \
	else \
		echo "acceptance suite not found at $(ACCEPTANCE); skipped"; \
	fi

check: lint typecheck imports

# Builds the wheel and sdist, installs the wheel into a fresh venv and answers a demo call there.
dist-check: setup
	$(PY) scripts/check_dist.py

test: check unit acceptance dist-check

bench: setup
	$(PY) -m benchmarks

demo: setup
	$(PY) -m openproject_mcp.demo

# An independent client (the MCP Inspector CLI, from the npm registry) against the demo server.
interop: setup
	npx --yes @modelcontextprotocol/inspector --cli $(VENV)/bin/openproject-mcp serve --demo --method tools/list
	npx --yes @modelcontextprotocol/inspector --cli $(VENV)/bin/openproject-mcp serve --demo \
		--method tools/call --tool-name openproject_search_meetings --tool-arg 'query=budget aproval'

clean:
	rm -rf $(VENV) .mypy_cache .ruff_cache build dist *.egg-info
