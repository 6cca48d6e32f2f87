"""What the gspmd route cannot carry to XLA's GSPMD partitioner; the hook sends such a module on the sdy route.

Each limit is a process abort or a compile error inside jaxlib's XLA, seen
through JAX's own tests (issue 14): GSPMD fails a `IsTiledLeaf()` check on an
exported `{unreduced}` sharding; custom partitioning callbacks are lowered
for Shardy and abort under GSPMD; XLA rejects the `mhlo.sharding` export of
`approx_top_k`'s custom call.
"""

from __future__ import annotations

import re

_LIMITS = (
    (re.compile(r"\bunreduced=(?:max|min)?\{"), "unreduced axes"),
    (re.compile(r"@CustomSPMDPartitioning\b"), "custom partitioning"),
    (re.compile(r"@ApproxTopK\b"), "approx_top_k"),
)


def gspmd_route_limit(module_text: str) -> str | None:
    """The first feature of `module_text` the gspmd route cannot carry, or None."""
    for pattern, feature in _LIMITS:
        if pattern.search(module_text):
            return feature
    return None
