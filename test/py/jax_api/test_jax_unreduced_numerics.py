"""Values made unreduced from replicated ones (JAX's `jnp.array(x, out_sharding=P(unreduced=...))`): through the hook,
every device's partial value equals plain JAX's (one device holds the value, the others zeros), or pysdy refuses the
module; never a full copy on every device, which a later reduction would count once per device."""

from __future__ import annotations

import jax
import jax.numpy as jnp
import jax_corpus  # noqa: F401  (8 CPU devices, before the backend starts)
import numpy as np
import pytest
from child_process import in_child_process
from jax.sharding import AxisType
from jax.sharding import PartitionSpec as P

import pysdy.jax

_VALUE = [[1, 2], [3, 4]]


def _unreduced_copy_shards(dtype: str) -> list[np.ndarray]:
    """Each device's partial value of `_VALUE` made unreduced along a 2-device axis, as JAX's test_cet_unreduced does."""
    mesh = jax.make_mesh((2,), ("x",), axis_types=(AxisType.Explicit,))
    with jax.set_mesh(mesh):
        x = jnp.array(_VALUE, dtype=dtype)
        out = jnp.array(x, out_sharding=P(unreduced={"x"}))
        return [np.asarray(shard.data) for shard in out.addressable_shards]


@in_child_process
def _plain_shards(dtype: str) -> list[np.ndarray]:
    return _unreduced_copy_shards(dtype)


@pytest.mark.parametrize("dtype", ["int32", "float32"])
def test_unreduced_copy_of_replicated_value(dtype):
    plain = _plain_shards(dtype)
    assert np.array_equal(sum(plain), np.array(_VALUE, dtype=dtype)), "plain JAX's partial values must sum to the value"
    try:
        with pysdy.jax.pipeline_hook():
            hooked = _unreduced_copy_shards(dtype)
    except pysdy.jax.PysdyExportError as refusal:
        assert 'result of stablehlo.convert is unreduced along "x", but its operands are replicated' in str(refusal)
        return
    tolerance = 0 if np.issubdtype(np.dtype(dtype), np.integer) else 1e-6
    assert len(hooked) == len(plain)
    for device, (got, expected) in enumerate(zip(hooked, plain)):
        np.testing.assert_allclose(got, expected, rtol=tolerance, err_msg=f"device {device}'s partial value")
