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

# The whole pipeline on a bundled transformer block: pysdy's propagation and GSPMD export, XLA's compile
# for 8 devices, a run on random inputs checked against one device, and the report.
demo: $(STAMP)
	$(VENV)/bin/pysdy-run examples/transformer_block.mlir --devices 8 --check --report

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
