# One-command loops. Every target sets up .venv first, so a fresh clone needs nothing else.
PYTHON ?= python3
VENV   := .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.installed
ACCEPTANCE := ../shared/acceptance

.PHONY: setup test check lint typecheck imports unit acceptance bench demo interop clean

setup: $(STAMP)

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install -q --upgrade pip
	$(PY) -m pip install -q -e '.[dev]'
	@touch $(STAMP)

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

test: check unit acceptance

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
	rm -rf $(VENV) .mypy_cache .ruff_cache build *.egg-info
