"""How the explanations print shardings and axis lists."""

from __future__ import annotations

from pysdy.dialects.sdy import TensorSharding


def axes_text(axes) -> str:
    return "{" + ", ".join(str(axis) for axis in axes) + "}" if axes else "nothing"


def sharding_text(sharding: TensorSharding | None) -> str:
    return "(no sharding)" if sharding is None else str(sharding.to_attr())
