# pysdy: `make demo` and `make test` do all set-up on a fresh machine.
VENV    := .venv
PYTHON  := $(VENV)/bin/python
STAMP   := $(VENV)/.pysdy-installed
TSTAMP  := $(VENV)/.pysdy-test-installed

.PHONY: demo test test-lit test-py test-slow bench clean

$(STAMP): pyproject.toml
	test -x $(PYTHON) || python3 -m venv $(VENV)
	$(PYTHON) -m pip install --quiet --upgrade pip
	$(PYTHON) -m pip install --quiet -e .
	touch $@

$(TSTAMP): $(STAMP)
	$(PYTHON) -m pip install --quiet -e '.[test]'
	touch $@

demo: $(STAMP)
	$(VENV)/bin/pysdy-opt examples/mlp.mlir -sdy-propagation-pipeline

test: test-lit test-py

test-lit: $(TSTAMP)
	$(VENV)/bin/lit -sv test/lit

test-py: $(TSTAMP)
	$(VENV)/bin/pytest -q test/py

test-slow: $(TSTAMP)
	$(VENV)/bin/pytest -q -m slow test/py

bench: $(STAMP)
	$(PYTHON) bench/propagation.py

clean:
	rm -rf $(VENV) build *.egg-info
