# sisepai: the two commands in the README are `make run` and `make test`.
# Each creates .venv/ on first use, from this project's own files only.
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-dev

.PHONY: run test test-slow bench bench-quick clean setup bytecode

$(STAMP): pyproject.toml
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet -e '.[dev,service]'
	touch $(STAMP)

setup: $(STAMP)

# the project's modules compiled ahead (seconds): each process sisepai starts (a command, a generator
# or enrolment worker, a test's subprocess) then loads them instead of compiling them again, even
# where PYTHONDONTWRITEBYTECODE keeps Python from writing its own cache
SOURCES := engine workers faces datasets vision models ledger service
bytecode: $(STAMP)
	$(PY) -m compileall -q $(SOURCES) > /dev/null

run: $(STAMP) bytecode
	$(VENV)/bin/sisepai serve

# two test processes, a file each at a time (its fixtures made once): most tests wait on a
# subprocess, a browser or a socket as much as they compute
test: $(STAMP) bytecode
	bash scripts/system-deps.sh
	$(VENV)/bin/ruff check .
	$(PY) -m pytest -n 2 --dist loadfile

# the slowest end-to-end tests (enrolments with the default workers, a killed enrolment, the
# detector's adaptation, the GPU script on a CPU), which `make test` leaves out
test-slow: $(STAMP) bytecode
	bash scripts/system-deps.sh
	$(PY) -m pytest -m "slow and not gpu"

# every benchmark behind the performance tables (about an hour here); each writes benchmarks/results/NAME.json
bench: $(STAMP) bytecode
	$(PY) benchmarks/run.py

# the quick ones (engine, game, Gang of Four: a few minutes)
bench-quick: $(STAMP) bytecode
	$(PY) benchmarks/run.py --quick

clean:
	rm -rf $(VENV) build *.egg-info
