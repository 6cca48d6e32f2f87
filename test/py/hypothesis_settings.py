"""Hypothesis settings for the differential tests on generated modules: reproducible (derandomized, no example
database), no deadline (a C++ oracle in a child process takes its time), and no health check against large or slow
examples, which generated modules are."""

from __future__ import annotations

from hypothesis import HealthCheck, Phase, settings


def module_settings(max_examples: int, phases: tuple[Phase, ...]) -> settings:
    return settings(
        max_examples=max_examples,
        phases=phases,
        deadline=None,
        derandomize=True,
        database=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
    )
