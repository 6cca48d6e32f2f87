"""The tolerance `--check` compares with: exact for integers, relative by precision for floats, NaN equals NaN."""

import numpy as np

from pysdy.runtime.comparison import mismatch, tolerance


def test_tolerance_by_dtype():
    assert tolerance(np.int32) == 0.0 and tolerance(np.bool_) == 0.0
    assert tolerance(np.float32) == 1e-4 and tolerance(np.complex64) == 1e-4
    assert tolerance(np.float64) == 1e-9 and tolerance(np.float16) == 2e-2


def test_reordered_float_sums_are_equal_and_a_wrong_element_is_not():
    expected = np.linspace(-1000, 1000, 64, dtype=np.float32)
    assert mismatch(expected * np.float32(1 + 1e-6), expected) is None
    wrong = expected.copy()
    wrong[3] += 1.0
    assert mismatch(wrong, expected) == "1 of 64 elements differ (largest difference 1, rtol 0.0001)"


def test_nan_matches_only_nan_and_integers_are_exact():
    expected = np.array([np.nan, 1.0], dtype=np.float32)
    assert mismatch(expected.copy(), expected) is None
    assert mismatch(np.array([0.0, 1.0], dtype=np.float32), expected) is not None
    assert mismatch(np.array([1, 2]), np.array([1, 3])) == "1 of 2 elements differ"


def test_an_infinity_matches_only_itself():
    """(A finite value near an infinity is no rounding of it: the largest finite float where -inf was expected is a
    wrong value, as a partitioned max that masks with it gives.)"""
    expected = np.array([-np.inf, np.inf, 2.0], dtype=np.float32)
    assert mismatch(expected.copy(), expected) is None
    lowest = np.finfo(np.float32).min
    assert mismatch(np.array([lowest, np.inf, 2.0], dtype=np.float32), expected) is not None
    assert mismatch(np.array([-np.inf, -lowest, 2.0], dtype=np.float32), expected) is not None
    assert mismatch(np.array([-np.inf, np.inf, np.inf], dtype=np.float32), expected) is not None


def test_shape_or_dtype_differences_are_reported():
    assert mismatch(np.zeros(3, np.float32), np.zeros(4, np.float32)) == "float32[3] where float32[4] was expected"
