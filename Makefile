# pysdy: `make demo` and `make test` do all set-up on a fresh machine.
#
# .venv is built with the newest Python found (3.13, then 3.12, then python3; pyenv's installed but inactive
# ones count), so pip installs the newest JAX that Python takes; `make PYTHON=/path/to/python ...` chooses
# another. `make test` also runs the suites on a second venv, .venv-jax010, with jax/jaxlib 0.10.2 on
# Python 3.11 when this machine has one: pysdy follows the installed jaxlib, and the tests prove it on two lines.
PYTHON      ?= $(shell tools/find-python 3.13 3.12 3)
VENV        := .venv
STAMP       := $(VENV)/.pysdy-installed
TSTAMP      := $(VENV)/.pysdy-test-installed
OLD_PYTHON  := $(shell tools/find-python 3.11 2>/dev/null)
OLD_VENV    := .venv-jax010
OLD_JAX     := jax==0.10.2 jaxlib==0.10.2
OLD_TSTAMP  := $(OLD_VENV)/.pysdy-test-installed
PIP_QUIET   := --quiet --disable-pip-version-check
# The bench plot's test renders the SVG in a headless browser: Debian's chromium, installed when missing.
CHROMIUM    := /usr/bin/chromium
# setuptools warns on every editable install whose package maps to the project root (pysdy = ".") that a folder
# named like the package in the working directory could shadow it; pysdy has no such folder.
export PYTHONWARNINGS := ignore:Editable installation

.PHONY: demo test test-lit test-py test-jax010 test-slow bench clean

# A venv made by another Python than the one chosen now is made again.
$(VENV)/.pysdy-python: FORCE
	@if [ -z "$(PYTHON)" ]; then echo "no Python 3 found; run make PYTHON=/path/to/python3" >&2; exit 1; fi
	@if [ "$$(cat $@ 2>/dev/null)" != "$(PYTHON)" ]; then \
	  rm -rf $(VENV) && "$(PYTHON)" -m venv $(VENV) && echo "$(PYTHON)" > $@; fi

$(STAMP): pyproject.toml $(VENV)/.pysdy-python
	$(VENV)/bin/python -m pip install $(PIP_QUIET) --upgrade pip
	$(VENV)/bin/python -m pip install $(PIP_QUIET) -e .
	touch $@

$(TSTAMP): $(STAMP)
	$(VENV)/bin/python -m pip install $(PIP_QUIET) -e '.[test]'
	touch $@

$(OLD_TSTAMP): pyproject.toml
	test -x $(OLD_VENV)/bin/python || "$(OLD_PYTHON)" -m venv $(OLD_VENV)
	$(OLD_VENV)/bin/python -m pip install $(PIP_QUIET) --upgrade pip
	$(OLD_VENV)/bin/python -m pip install $(PIP_QUIET) $(OLD_JAX) -e '.[test]'
	touch $@

# Installs chromium with apt-get when it is missing and apt-get exists (as root); otherwise the plot's test
# skips, saying why.
$(CHROMIUM):
	@if command -v apt-get >/dev/null && [ "$$(id -u)" = 0 ]; then \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium || \
	  echo "could not install chromium: the bench plot's browser test will skip" >&2; \
	else echo "no apt-get as root to install chromium: the bench plot's browser test will skip" >&2; fi

# The whole pipeline on a bundled transformer block: pysdy's propagation and GSPMD export, XLA's compile
# for 8 devices, a run on random inputs checked against one device, and the report.
demo: $(STAMP)
	$(VENV)/bin/pysdy-run examples/transformer_block.mlir --devices 8 --check --report

# The two lines' suites run side by side (one per core), each one's output printed whole when it ends.
test: test-lit
	$(MAKE) --no-print-directory -j2 --output-sync=target test-py test-jax010

test-lit: $(TSTAMP)
	$(VENV)/bin/pysdy-opt --version
	$(VENV)/bin/lit -sv test/lit

test-py: $(TSTAMP) $(CHROMIUM)
	$(VENV)/bin/pytest -q test/py

# The same suites against jax/jaxlib 0.10.2's C++ Shardy and XLA, where Python 3.11 exists.
ifneq ($(OLD_PYTHON),)
test-jax010: $(OLD_TSTAMP) $(CHROMIUM)
	$(OLD_VENV)/bin/pysdy-opt --version
	$(OLD_VENV)/bin/lit -sv test/lit
	$(OLD_VENV)/bin/pytest -q test/py
else
test-jax010:
	@echo "test-jax010: skipped, no Python 3.11 on this machine for jax 0.10.2"
endif

test-slow: $(TSTAMP)
	$(VENV)/bin/pytest -q -m slow test/py

# Every pipeline at 8, 32 and 128 layers (a few minutes); the plot goes to build/bench/. The issue's sizes:
# $(VENV)/bin/python bench/pipelines.py --pipelines all --layers 8,128,512,1024
bench: $(STAMP)
	mkdir -p build/bench
	$(VENV)/bin/python bench/pipelines.py --pipelines all --plot build/bench/scaling.svg

clean:
	rm -rf $(VENV) $(OLD_VENV) build *.egg-info

FORCE:
