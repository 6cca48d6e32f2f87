"""Shared pytest set-up: make test/py importable so tests can use the oracle helpers."""

import os
import sys

sys.path.insert(0, os.path.dirname(__file__))
