"""Comparing outputs with reference outputs within a tolerance that suits each dtype."""

from __future__ import annotations

import numpy as np

# Relative tolerance by element size: partitioned reductions add in another order.
_RELATIVE_TOLERANCE = {2: 2e-2, 4: 1e-4, 8: 1e-9}


def tolerance(dtype: np.dtype) -> float:
    """0 for integers and booleans (exact); for floats and complex a relative bound by precision."""
    dtype = np.dtype(dtype)
    if dtype.kind in "biu":
        return 0.0
    component_size = dtype.itemsize // 2 if dtype.kind == "c" else dtype.itemsize
    return _RELATIVE_TOLERANCE.get(component_size, 2e-2)


def mismatch(actual: np.ndarray, expected: np.ndarray) -> str | None:
    """None if `actual` equals `expected` within tolerance (NaN matching NaN, an infinity only itself), else what
    differs.

    Floats compare as |a - e| <= rtol * (|e| + max|e|): each element relative to
    itself and, for elements near zero, to the array's scale.
    """
    if actual.shape != expected.shape or actual.dtype != expected.dtype:
        return f"{actual.dtype}{list(actual.shape)} where {expected.dtype}{list(expected.shape)} was expected"
    rtol = tolerance(expected.dtype)
    if rtol == 0.0:
        wrong = int(np.count_nonzero(actual != expected))
        return f"{wrong} of {expected.size} elements differ" if wrong else None
    a = np.asarray(actual, dtype=np.complex128 if expected.dtype.kind == "c" else np.float64)
    e = np.asarray(expected, dtype=a.dtype)
    both_nan = np.isnan(a) & np.isnan(e)
    finite = np.isfinite(e)
    scale = float(np.max(np.abs(e[finite]))) if finite.any() else 0.0
    difference = np.abs(a - e)
    close = finite & (difference <= rtol * (np.abs(e) + scale))  # (an infinity only equals itself)
    bad = ~both_nan & ~close & ~(a == e)
    if not bad.any():
        return None
    worst = float(np.max(np.where(bad, np.nan_to_num(difference, nan=np.inf), 0.0)))
    return f"{int(np.count_nonzero(bad))} of {expected.size} elements differ (largest difference {worst:.3g}, rtol {rtol:g})"
