"""Shardy's import passes: the clean-up and set-up steps that run before sharding propagation."""
