"""A corpus of real JAX programs lowered to StableHLO text on 8-CPU-device meshes, for differential tests."""

from __future__ import annotations

import functools
from typing import Callable

import jax

# Must happen before JAX creates its CPU backend, hence at import of this module.
jax.config.update("jax_num_cpu_devices", 8)

import jax.numpy as jnp  # noqa: E402
import numpy as np  # noqa: E402
from jax import lax  # noqa: E402
from jax.experimental import io_callback  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

try:  # JAX 0.11 removed shard_alike, and with it the only way JAX lowers sharding groups
    from jax.experimental.shard_alike import shard_alike  # noqa: E402
except ImportError:
    shard_alike = None

F32 = jnp.float32
_PROGRAMS: dict[str, Callable[[], str]] = {}


def _program(fn: Callable[[], str]) -> Callable[[], str]:
    _PROGRAMS[fn.__name__] = fn
    return fn


_MESH_AXES = {1: ((8,), ("d",)), 2: ((2, 4), ("x", "y")), 3: ((2, 2, 2), ("a", "b", "c"))}


@functools.cache
def _mesh(rank: int):
    """The 8-device mesh of that many axes, with Auto axes (classic jit sharding annotations)."""
    shape, names = _MESH_AXES[rank]
    return jax.make_mesh(shape, names, axis_types=(AxisType.Auto,) * rank)


def _array(*shape, dtype=F32) -> jax.ShapeDtypeStruct:
    return jax.ShapeDtypeStruct(shape, dtype)


def _shardings(mesh, specs):
    """The pytree of specs with every PartitionSpec made a NamedSharding on `mesh`."""
    return jax.tree.map(lambda spec: NamedSharding(mesh, spec), specs, is_leaf=lambda x: isinstance(x, P))


# `as_text`'s arguments while a corpus is being built: `debug_info=True` for the corpus with source locations.
_AS_TEXT_OPTIONS: dict[str, bool] = {}


def _lower(fn, mesh, in_specs, args, out_specs=None) -> str:
    """Lowers `fn(*args)` under jit with arguments (and optionally results) sharded by the given specs."""
    kwargs = {"in_shardings": _shardings(mesh, tuple(in_specs))}
    if out_specs is not None:
        kwargs["out_shardings"] = _shardings(mesh, out_specs)
    return jax.jit(fn, **kwargs).lower(*args).as_text(**_AS_TEXT_OPTIONS)


# ----- model pieces -----


def _mlp(params, x):
    w1, b1, w2, b2 = params
    hidden = jax.nn.gelu(x @ w1 + b1)
    return hidden @ w2 + b2


def _mlp_loss(params, x, y):
    return jnp.mean((_mlp(params, x) - y) ** 2)


def _layer_norm(x, scale, eps=1e-5):
    mean = jnp.mean(x, axis=-1, keepdims=True)
    var = jnp.mean((x - mean) ** 2, axis=-1, keepdims=True)
    return (x - mean) * lax.rsqrt(var + eps) * scale


def _attention(params, x, heads=4, causal=True):
    wq, wk, wv, wo = params
    batch, seq, _ = x.shape
    head_dim = wq.shape[1] // heads

    def split_heads(t):
        return t.reshape(batch, seq, heads, head_dim)

    q, k, v = split_heads(x @ wq), split_heads(x @ wk), split_heads(x @ wv)
    logits = jnp.einsum("bqhd,bkhd->bhqk", q, k) / jnp.sqrt(head_dim).astype(x.dtype)
    if causal:
        mask = jnp.tril(jnp.ones((seq, seq), dtype=bool))
        logits = jnp.where(mask, logits, -1e9)
    weights = jax.nn.softmax(logits, axis=-1)
    out = jnp.einsum("bhqk,bkhd->bqhd", weights, v).reshape(batch, seq, heads * head_dim)
    return out @ wo


def _transformer_block(params, x):
    attn_params, mlp_params, ln1, ln2 = params
    x = x + _attention(attn_params, _layer_norm(x, ln1))
    return x + _mlp(mlp_params, _layer_norm(x, ln2))


def _mlp_args(batch=16, model=32, hidden=64):
    params = (_array(model, hidden), _array(hidden), _array(hidden, model), _array(model))
    return params, _array(batch, model), _array(batch, model)


_MLP_PARAM_SPECS = (P(None, "y"), P("y"), P("y", None), P())


def _attention_args(batch=4, seq=8, model=32):
    return tuple(_array(model, model) for _ in range(4)), _array(batch, seq, model)


_ATTENTION_PARAM_SPECS = (P(None, "y"), P(None, "y"), P(None, "y"), P("y", None))


def _block_args(batch=4, seq=8, model=32, hidden=64):
    attn, x = _attention_args(batch, seq, model)
    mlp, _, _ = _mlp_args(batch, model, hidden)
    return (attn, mlp, _array(model), _array(model)), x


_BLOCK_PARAM_SPECS = (_ATTENTION_PARAM_SPECS, _MLP_PARAM_SPECS, P(), P())


# ----- dense models -----


@_program
def mlp_forward():
    params, x, _ = _mlp_args()
    return _lower(_mlp, _mesh(2), (_MLP_PARAM_SPECS, P("x", None)), (params, x))


@_program
def mlp_grad():
    params, x, y = _mlp_args()
    return _lower(
        jax.grad(_mlp_loss), _mesh(2), (_MLP_PARAM_SPECS, P("x", None), P("x", None)), (params, x, y)
    )


@_program
def mlp_grad_with_remat():
    params, x, y = _mlp_args()
    loss = jax.checkpoint(_mlp_loss, policy=jax.checkpoint_policies.nothing_saveable)
    return _lower(jax.grad(loss), _mesh(2), (_MLP_PARAM_SPECS, P("x", None), P("x", None)), (params, x, y))


@_program
def attention_forward():
    params, x = _attention_args()
    return _lower(_attention, _mesh(2), (_ATTENTION_PARAM_SPECS, P("x", None, None)), (params, x))


@_program
def attention_grad():
    params, x = _attention_args()

    def loss(params, x):
        return jnp.sum(_attention(params, x) ** 2)

    return _lower(
        jax.grad(loss, argnums=(0, 1)), _mesh(2), (_ATTENTION_PARAM_SPECS, P("x", None, None)), (params, x)
    )


@_program
def transformer_block_forward():
    params, x = _block_args()
    return _lower(_transformer_block, _mesh(2), (_BLOCK_PARAM_SPECS, P("x", None, None)), (params, x))


@_program
def transformer_block_grad():
    params, x = _block_args()

    def loss(params, x):
        return jnp.mean(_transformer_block(params, x) ** 2)

    return _lower(jax.grad(loss), _mesh(2), (_BLOCK_PARAM_SPECS, P("x", None, None)), (params, x))


@_program
def transformer_block_3d_mesh_grad():
    params, x = _block_args(batch=4, seq=8, model=32, hidden=64)
    attn = (P("b", "c"), P("b", "c"), P("b", "c"), P("c", "b"))
    mlp = (P("b", "c"), P("c"), P("c", "b"), P())
    specs = ((attn, mlp, P(), P()), P("a", None, None))

    def loss(params, x):
        return jnp.mean(_transformer_block(params, x) ** 2)

    return _lower(jax.value_and_grad(loss), _mesh(3), specs, (params, x))


@_program
def einsum_batched_contractions():
    def fn(a, b, c):
        ab = jnp.einsum("bij,bjk->bik", a, b)
        return jnp.einsum("bik,kl,bil->b", ab, c, ab @ c)

    args = (_array(4, 8, 16), _array(4, 16, 12), _array(12, 12))
    return _lower(fn, _mesh(2), (P("x", None, "y"), P("x", "y", None), P()), args)


# ----- control flow -----


@_program
def scan_over_layers():
    layers = 3
    params = (_array(layers, 32, 32), _array(layers, 32))

    def fn(params, x):
        def layer(carry, layer_params):
            w, b = layer_params
            out = jnp.tanh(carry @ w + b)
            return out, jnp.sum(out)

        return lax.scan(layer, x, params)

    return _lower(fn, _mesh(2), ((P(None, None, "y"), P(None, "y")), P("x", None)), (params, _array(16, 32)))


@_program
def scan_over_layers_grad():
    layers = 3
    params = (_array(layers, 32, 32), _array(layers, 32))

    def loss(params, x):
        def layer(carry, layer_params):
            w, b = layer_params
            return jax.nn.relu(carry @ w + b), None

        out, _ = lax.scan(layer, x, params)
        return jnp.sum(out**2)

    return _lower(
        jax.grad(loss), _mesh(2), ((P(None, None, "y"), P(None, "y")), P("x", None)), (params, _array(16, 32))
    )


@_program
def while_loop_power_iteration():
    def fn(matrix, vector):
        def cond(state):
            step, _ = state
            return step < 10

        def body(state):
            step, v = state
            v = matrix @ v
            return step + 1, v / jnp.linalg.norm(v)

        return lax.while_loop(cond, body, (0, vector))[1]

    return _lower(fn, _mesh(1), (P("d", None), P("d")), (_array(16, 16), _array(16)))


@_program
def cond_branches():
    def fn(pred, x, w):
        return lax.cond(pred, lambda x: jnp.sin(x @ w), lambda x: jnp.cos(x).T @ w.T, x)

    args = (_array(dtype=jnp.bool_), _array(8, 8), _array(8, 8))
    return _lower(fn, _mesh(2), (P(), P("x", "y"), P("y", None)), args)


@_program
def switch_branches():
    def fn(index, x):
        branches = [lambda x: x * 2, lambda x: jnp.flip(x, axis=0), lambda x: jnp.cumsum(x, axis=1)]
        return lax.switch(index, branches, x)

    return _lower(fn, _mesh(2), (P(), P("x", "y")), (_array(dtype=jnp.int32), _array(8, 16)))


# ----- shard_map collectives -----


def _shard_map_program(body, in_specs, out_specs, args, mesh_rank=2):
    mesh = _mesh(mesh_rank)
    mapped = jax.shard_map(body, mesh=mesh, in_specs=in_specs, out_specs=out_specs)
    return _lower(mapped, mesh, in_specs, args)


@_program
def shard_map_psum():
    def body(a, b):
        return lax.psum(a @ b, "y")

    return _shard_map_program(body, (P("x", "y"), P("y", None)), P("x", None), (_array(8, 16), _array(16, 8)))


@_program
def shard_map_all_gather():
    def body(x):
        return jnp.tanh(lax.all_gather(x, "x", axis=0, tiled=True))

    return _shard_map_program(body, (P("x", "y"),), P("x", "y"), (_array(8, 16),))


@_program
def shard_map_ppermute():
    def body(x):
        shift = [(i, (i + 1) % 4) for i in range(4)]
        return lax.ppermute(x, "y", perm=shift) + x

    return _shard_map_program(body, (P("x", "y"),), P("x", "y"), (_array(8, 16),))


@_program
def shard_map_all_to_all():
    def body(x):
        return lax.all_to_all(x, "d", split_axis=1, concat_axis=0, tiled=True)

    return _shard_map_program(body, (P("d", None),), P(None, "d"), (_array(16, 16),), mesh_rank=1)


@_program
def shard_map_psum_scatter_and_axis_index():
    def body(x):
        scattered = lax.psum_scatter(x, "x", scatter_dimension=1, tiled=True)
        return scattered + lax.axis_index("x").astype(F32)

    return _shard_map_program(body, (P(None, "y"),), P(None, ("y", "x")), (_array(8, 16),))


@_program
def shard_map_inside_jit_mixed():
    mesh = _mesh(2)

    def local(x):
        return lax.pmean(jnp.sum(x, axis=1, keepdims=True), ("x", "y"))

    mapped = jax.shard_map(local, mesh=mesh, in_specs=P("x", "y"), out_specs=P())

    def fn(x, w):
        h = jnp.exp(x @ w)
        return mapped(h) * 2.0

    return _lower(fn, mesh, (P("x", None), P(None, "y")), (_array(8, 16), _array(16, 16)))


@_program
def jitted_calls_inside_and_outside_shard_map():
    mesh = _mesh(2)
    inner = jax.jit(lambda x: jnp.tanh(x) * 2)
    over_x = jax.shard_map(lambda x: inner(inner(x)), mesh=mesh, in_specs=P(), out_specs=P(), axis_names={"x"})
    over_y = jax.shard_map(inner, mesh=mesh, in_specs=P(), out_specs=P(), axis_names={"y"})

    def fn(x):
        return inner(over_y(over_x(inner(x))))

    return _lower(fn, mesh, (P("x", "y"),), (_array(8, 16),))


# ----- gather and scatter -----


@_program
def embedding_lookup():
    def fn(table, ids):
        return jnp.take(table, ids, axis=0)

    return _lower(fn, _mesh(2), (P(None, "y"), P("x", None)), (_array(64, 16), _array(4, 8, dtype=jnp.int32)))


@_program
def reshape_splitting_a_sharded_dim_unevenly():
    """A dim sharded 4 ways split into 3x4: the axis does not divide the major factor (an overflow axis)."""

    def fn(x, w):
        y = jnp.reshape(jnp.tanh(x), (8, 3, 4))
        return jnp.einsum("bhd,de->bhe", y, w)

    return _lower(fn, _mesh(2), (P(None, "y"), P()), (_array(8, 12), _array(4, 16)))


@_program
def embedding_grad():
    def loss(table, ids):
        return jnp.sum(jnp.tanh(table[ids]))

    return _lower(
        jax.grad(loss),
        _mesh(2),
        (P("y", None), P("x", None)),
        (_array(64, 16), _array(4, 8, dtype=jnp.int32)),
    )


@_program
def scatter_set_and_add():
    def fn(x, rows, updates):
        x = x.at[rows].set(updates)
        x = x.at[rows, 3].add(1.0)
        return x.at[2:6, ::2].multiply(0.5)

    args = (_array(16, 8), _array(4, dtype=jnp.int32), _array(4, 8))
    return _lower(fn, _mesh(2), (P("x", "y"), P(), P(None, "y")), args)


@_program
def gather_along_batch_dims():
    def fn(x, idx):
        return jnp.take_along_axis(x, idx, axis=2)

    args = (_array(4, 8, 16), _array(4, 8, 3, dtype=jnp.int32))
    return _lower(fn, _mesh(2), (P("x", "y", None), P("x", "y", None)), args)


@_program
def row_wise_gather_with_arange():
    """`x[arange(n), cols]`: the batch dim is indexed by an iota, not by gather batching dims."""

    def fn(x, cols, cols_2d):
        rows = jnp.arange(x.shape[0])
        return x[rows, cols], x[rows, :, cols], x[rows[:, None], cols_2d]

    args = (_array(8, 6, 4), _array(8, dtype=jnp.int32), _array(8, 3, dtype=jnp.int32))
    return _lower(fn, _mesh(2), (P("x", None, "y"), P("x"), P("x", None)), args)


@_program
def row_wise_scatter_with_arange():
    """`x.at[arange(n), cols].add(v)` and `.set(v)`: scatters whose batch dim is indexed by an iota."""

    def fn(x, cols, updates):
        rows = jnp.arange(x.shape[0])
        x = x.at[rows, cols].add(updates)
        return x.at[rows, cols].set(2.0 * updates)

    args = (_array(8, 16), _array(8, dtype=jnp.int32), _array(8))
    return _lower(fn, _mesh(2), (P("x", "y"), P("x"), P()), args)


@_program
def segment_sum_and_advanced_indexing():
    def fn(x, segments, rows, cols):
        sums = jax.ops.segment_sum(x, segments, num_segments=4)
        picked = x[rows, :, cols]
        clipped = jnp.take(x, cols, axis=1, mode="clip")
        return sums, picked, clipped

    args = (
        _array(8, 6, 4),
        _array(8, dtype=jnp.int32),
        _array(5, dtype=jnp.int32),
        _array(5, dtype=jnp.int32),
    )
    return _lower(fn, _mesh(2), (P("x", None, "y"), P("x"), P(), P()), args)


# ----- convolutions and pooling -----


def _conv(x, w, layout, groups):
    return lax.conv_general_dilated(
        x, w, (1, 2), "SAME", dimension_numbers=layout, feature_group_count=groups
    )


_NHWC = ("NHWC", "HWIO", "NHWC")
_NCHW = ("NCHW", "OIHW", "NCHW")


@_program
def conv2d_nhwc():
    args = (_array(8, 16, 16, 4), _array(3, 3, 4, 8))
    specs = (P("x", None, None, "y"), P(None, None, "y", None))
    return _lower(lambda x, w: _conv(x, w, _NHWC, 1), _mesh(2), specs, args)


@_program
def conv2d_nchw_grouped():
    args = (_array(8, 8, 16, 16), _array(16, 4, 3, 3))
    return _lower(lambda x, w: _conv(x, w, _NCHW, 2), _mesh(2), (P("x", "y"), P("y")), args)


@_program
def conv2d_nhwc_grad():
    def loss(x, w):
        return jnp.sum(jax.nn.relu(_conv(x, w, _NHWC, 1)))

    args = (_array(8, 16, 16, 4), _array(3, 3, 4, 8))
    specs = (P("x", None, "y"), P(None, None, None, "y"))
    return _lower(jax.grad(loss, argnums=(0, 1)), _mesh(2), specs, args)


@_program
def conv2d_nchw_grouped_grad():
    def loss(x, w):
        return jnp.sum(_conv(x, w, _NCHW, 4) ** 2)

    args = (_array(8, 8, 16, 16), _array(16, 2, 3, 3))
    return _lower(jax.grad(loss, argnums=(0, 1)), _mesh(2), (P("x", "y"), P("y")), args)


@_program
def max_pool_grad():
    def loss(x):
        pooled = lax.reduce_window(x, -jnp.inf, lax.max, (1, 2, 2, 1), (1, 2, 2, 1), "VALID")
        return jnp.sum(pooled)

    return _lower(jax.grad(loss), _mesh(2), (P("x", None, None, "y"),), (_array(8, 16, 16, 4),))


@_program
def avg_pool_same_padding_grad():
    def loss(x):
        pooled = lax.reduce_window(x, 0.0, lax.add, (1, 3, 3, 1), (1, 2, 2, 1), "SAME") / 9.0
        return jnp.sum(pooled**2)

    return _lower(jax.value_and_grad(loss), _mesh(2), (P("x", "y"),), (_array(8, 16, 16, 4),))


# ----- sorting, scans and reductions -----


@_program
def sort_and_argsort():
    def fn(x):
        return jnp.sort(x, axis=0), jnp.argsort(x, axis=1)

    return _lower(fn, _mesh(2), (P("x", "y"),), (_array(8, 16),))


@_program
def sort_keys_with_values():
    def fn(keys, values, labels):
        return lax.sort((keys, values, labels), dimension=1, num_keys=2), jax.nn.one_hot(labels[:, 0], 10)

    args = (_array(8, 16), _array(8, 16), _array(8, 16, dtype=jnp.int32))
    return _lower(fn, _mesh(2), (P("x", "y"), P("x", None), P(None, "y")), args)


@_program
def top_k_last_axis():
    return _lower(lambda x: lax.top_k(x, 3), _mesh(2), (P("x", "y"),), (_array(8, 16),))


@_program
def cumsum_and_cumprod():
    def fn(x):
        return jnp.cumsum(x, axis=1), jnp.cumprod(x, axis=0)

    return _lower(fn, _mesh(2), (P("x", "y"),), (_array(8, 16),))


@_program
def argmax_and_argmin():
    def fn(x):
        return jnp.argmax(x, axis=-1), jnp.argmin(x, axis=0)

    return _lower(fn, _mesh(3), (P("a", "b", "c"),), (_array(4, 8, 16),))


@_program
def softmax_cross_entropy_grad():
    def loss(logits, labels):
        log_probs = jax.nn.log_softmax(logits)
        return -jnp.mean(jnp.take_along_axis(log_probs, labels[:, None], axis=1))

    args = (_array(16, 32), _array(16, dtype=jnp.int32))
    return _lower(jax.value_and_grad(loss), _mesh(2), (P("x", "y"), P("x")), args)


# ----- shape manipulation -----


@_program
def reshape_split_and_merge_sharded_dims():
    def fn(x):
        split = x.reshape(4, 2, 4, 8)
        merged = jnp.transpose(split, (1, 0, 3, 2)).reshape(8, 32)
        return merged, x.reshape(256)

    return _lower(fn, _mesh(2), (P("x", "y"),), (_array(8, 32),))


@_program
def transpose_and_swap_axes():
    def fn(x):
        return jnp.swapaxes(x, 0, 2), jnp.transpose(x, (1, 2, 0)) * 2

    return _lower(fn, _mesh(3), (P("a", "b", "c"),), (_array(4, 8, 2),))


@_program
def slicing_padding_concat():
    def fn(x, y, start):
        parts = jnp.concatenate([x[:, :4], y, jnp.pad(x[:, 4:6], ((0, 0), (1, 1)))], axis=1)
        window = lax.dynamic_slice(parts, (start, 0), (4, 8))
        updated = lax.dynamic_update_slice(parts, window * 2, (start, 1))
        return jnp.flip(updated, 1), jnp.clip(window, -1.0, 1.0), jnp.arange(8) + start

    args = (_array(8, 16), _array(8, 4), _array(dtype=jnp.int32))
    return _lower(fn, _mesh(2), (P("x", "y"), P("x", None), P()), args)


@_program
def dynamic_update_slice_static_and_traced_position():
    def fn(cache, new, position):
        fixed = lax.dynamic_update_slice(cache, new, (0, 3, 0))
        moving = lax.dynamic_update_slice(cache, new * 2, (0, position, 0))
        return fixed, moving

    args = (_array(4, 16, 32), _array(4, 2, 32), _array(dtype=jnp.int32))
    return _lower(fn, _mesh(2), (P("x", "y", None), P(None, "x", "y"), P()), args)


@_program
def broadcast_and_reduce_mixed_precision():
    def fn(x, bias):
        total = jnp.sum(x.astype(jnp.bfloat16), axis=(0, 2)).astype(F32)
        return total[None, :, None] + bias[:, None, None], lax.bitcast_convert_type(x, jnp.int32)

    return _lower(fn, _mesh(3), (P("a", "b", "c"), P("a")), (_array(4, 8, 4), _array(4)))


# ----- linear algebra, fft, random -----


@_program
def cholesky_batched():
    return _lower(jnp.linalg.cholesky, _mesh(1), (P("d", None, None),), (_array(8, 8, 8),))


@_program
def triangular_solve_left_lower():
    def fn(a, b):
        return lax.linalg.triangular_solve(a, b, left_side=True, lower=True)

    return _lower(fn, _mesh(2), (P("x", None, None), P("x", None, "y")), (_array(4, 8, 8), _array(4, 8, 4)))


@_program
def qr_and_eigh():
    def fn(x):
        q, r = jnp.linalg.qr(x)
        w, v = jnp.linalg.eigh(x @ jnp.swapaxes(x, -1, -2))
        return q @ r, w, v

    return _lower(fn, _mesh(1), (P("d", None, None),), (_array(8, 6, 6),))


@_program
def linalg_solve_lu():
    args = (_array(8, 4, 4), _array(8, 4, 2))
    return _lower(jnp.linalg.solve, _mesh(1), (P("d", None, None), P("d", None, None)), args)


@_program
def fft_and_inverse():
    def fn(x):
        spectrum = jnp.fft.fft(x, axis=-1)
        return jnp.fft.ifft(spectrum * 2, axis=-1), jnp.fft.rfft(jnp.real(x), axis=-1)

    return _lower(fn, _mesh(2), (P("x", "y", None),), (_array(4, 8, 16, dtype=jnp.complex64),))


@_program
def random_bits_rbg():
    def fn(seed, x):
        key = jax.random.key(seed, impl="rbg")
        noise = jax.random.normal(key, x.shape)
        return x + noise, jax.random.bits(key, (8, 16), dtype=jnp.uint32)

    return _lower(fn, _mesh(2), (P(), P("x", "y")), (_array(dtype=jnp.uint32), _array(8, 16)))


@_program
def random_dropout_threefry():
    def fn(key_data, x):
        key = jax.random.wrap_key_data(key_data, impl="threefry2x32")
        keep = jax.random.bernoulli(key, 0.9, x.shape)
        return jnp.where(keep, x / 0.9, 0.0)

    return _lower(fn, _mesh(2), (P(), P("x", "y")), (_array(2, dtype=jnp.uint32), _array(8, 16)))


# ----- host callbacks (JAX puts them on a maximal mesh, `sdy.mesh @maximal_mesh_0 = <[], device_ids=[0]>`) -----


def _host_double(x):
    return np.asarray(x) * 2


def _host_row_sums(x):
    return np.asarray(x).sum(axis=1, keepdims=True)


@_program
def io_callback_on_sharded_input():
    def fn(x, w):
        y = io_callback(_host_double, jax.ShapeDtypeStruct(x.shape, x.dtype), jnp.sin(x))
        sums = jax.pure_callback(_host_row_sums, jax.ShapeDtypeStruct((x.shape[0], 1), x.dtype), y)
        return (y + x) @ w + sums

    return _lower(fn, _mesh(2), (P("x", "y"), P("y", None)), (_array(8, 16), _array(16, 8)))


@_program
def ordered_io_callback_and_debug_print():
    def fn(x):
        y = jnp.tanh(x)
        jax.debug.print("sum {s}", s=y.sum())
        z = io_callback(_host_double, jax.ShapeDtypeStruct(y.shape, y.dtype), y, ordered=True)
        return z * x

    return _lower(fn, _mesh(2), (P("x", "y"),), (_array(8, 16),))


@_program
def io_callback_in_loop():
    def fn(x, w):
        def body(i, carry):
            return io_callback(_host_double, jax.ShapeDtypeStruct(carry.shape, carry.dtype), jnp.tanh(carry @ w))

        return lax.fori_loop(0, 3, body, x)

    return _lower(fn, _mesh(2), (P("x", None), P(None, "y")), (_array(8, 16), _array(16, 16)))


# ----- sharding annotations -----


@_program
def mesh_1d_data_parallel():
    params, x, y = _mlp_args(batch=16)
    specs = ((P(), P(), P(), P()), P("d", None), P("d", None))
    out_specs = (P(), (P(), P(), P(), P()))
    return _lower(jax.value_and_grad(_mlp_loss), _mesh(1), specs, (params, x, y), out_specs)


@_program
def sharding_constraints_on_intermediates():
    mesh = _mesh(2)

    def fn(x, w):
        h = x @ w
        h = jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P("x", "y")))
        h = jnp.tanh(h).T
        return jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P("y", None)))

    return _lower(fn, mesh, (P(), P()), (_array(8, 16), _array(16, 16)))


@_program
def conflicting_annotations():
    mesh = _mesh(2)

    def fn(a, b):
        c = jax.lax.with_sharding_constraint(a + b, NamedSharding(mesh, P("y", "x")))
        return c @ b.T

    args = (_array(8, 8), _array(8, 8))
    return _lower(fn, mesh, (P("x", "y"), P("y", "x")), args, out_specs=P(None, ("x", "y")))


@_program
def multiple_axes_per_dimension():
    mesh = _mesh(3)

    def fn(x, w):
        h = jax.lax.with_sharding_constraint(x @ w, NamedSharding(mesh, P(("a", "b"), "c")))
        return jnp.sum(h.reshape(2, 4, 16), axis=1)

    args = (_array(8, 16), _array(16, 16))
    in_specs = (P(("a", "b", "c"), None), P(None, ("c", "a")))
    return _lower(fn, mesh, in_specs, args, out_specs=P(None, ("b", "c")))


@_program
def replicated_and_unconstrained():
    mesh = _mesh(2)

    def fn(x, w):
        h = jax.lax.with_sharding_constraint(x @ w, NamedSharding(mesh, P(P.UNCONSTRAINED, None)))
        return jnp.exp(h)

    return _lower(fn, mesh, (P("x", None), P()), (_array(8, 16), _array(16, 8)), out_specs=P())


@_program
def explicit_mesh_unreduced_matmul():
    mesh = jax.make_mesh((2, 4), ("x", "y"), axis_types=(AxisType.Explicit,) * 2)

    def fn(a, b):
        partial_sums = jnp.einsum("ij,jk->ik", a, b, out_sharding=P("x", None, unreduced={"y"}))
        return jax.sharding.reshard(partial_sums, P("x", None)) * 2

    args = (
        jax.ShapeDtypeStruct((8, 16), F32, sharding=NamedSharding(mesh, P("x", "y"))),
        jax.ShapeDtypeStruct((16, 8), F32, sharding=NamedSharding(mesh, P("y", None))),
    )
    with jax.set_mesh(mesh):
        return jax.jit(fn).lower(*args).as_text(**_AS_TEXT_OPTIONS)


# ----- shard_alike (sharding groups), with the JAX lines that have it -----


def _shard_alike_program(fn: Callable[[], str]) -> Callable[[], str]:
    return _program(fn) if shard_alike is not None else fn


@_shard_alike_program
def shard_alike_output_like_input():
    def fn(x):
        _, z = shard_alike(x, (x * x) * 2)
        return z * 2

    return _lower(fn, _mesh(2), (P("x", "y"),), (_array(8, 16),))


@_shard_alike_program
def shard_alike_chained():
    def fn(x):
        _, y = shard_alike(x, x * 2)
        z = y @ y.T
        return shard_alike(z, jnp.arange(64, dtype=F32).reshape(8, 8))

    return _lower(fn, _mesh(2), (P("x", "y"),), (_array(8, 16),))


@_shard_alike_program
def shard_alike_conflicting_constraints():
    mesh = _mesh(2)

    def fn(x):
        y = jax.lax.with_sharding_constraint(x * 2, NamedSharding(mesh, P("x", None)))
        z = jax.lax.with_sharding_constraint(jnp.tanh(x), NamedSharding(mesh, P(None, "y")))
        a, b = shard_alike(y, z)
        return a + b

    return _lower(fn, mesh, (P(),), (_array(8, 16),))


@_shard_alike_program
def shard_alike_around_shard_map():
    mesh = _mesh(2)
    mapped = jax.shard_map(lambda x: lax.psum(x, "x"), mesh=mesh, in_specs=P("x", "y"), out_specs=P(None, "y"))

    def fn(x):
        y = x @ x.T
        s = mapped(y)
        return shard_alike(y, s.T @ s)

    return _lower(fn, mesh, (P("x", "y"),), (_array(8, 16),))


@_shard_alike_program
def shard_alike_inside_shard_map():
    mesh = _mesh(2)

    def body(a, b):
        a, b = shard_alike(jnp.exp(a), b * 2)
        return a + b

    mapped = jax.shard_map(body, mesh=mesh, in_specs=(P("x"), P("x")), out_specs=P("x"), axis_names={"x"})
    return _lower(mapped, mesh, (P("x", "y"), P("x", None)), (_array(8, 16), _array(8, 16)))


@_shard_alike_program
def shard_alike_in_scan_body():
    def fn(w, x):
        def step(carry, _):
            _, next_carry = shard_alike(carry, jnp.tanh(carry @ w))
            return next_carry, None

        return lax.scan(step, x, None, length=3)[0]

    return _lower(fn, _mesh(2), (P(None, "y"), P("x", None)), (_array(16, 16), _array(8, 16)))


def program_names() -> list[str]:
    """The corpus's program names, without lowering anything."""
    return list(_PROGRAMS)


@functools.cache
def corpus() -> dict[str, str]:
    """Program name -> StableHLO module text, as `jax.jit(...).lower(...).as_text()` prints it."""
    return {name: build() for name, build in _PROGRAMS.items()}


@functools.cache
def corpus_with_locations() -> dict[str, str]:
    """The corpus printed with its source locations (`as_text(debug_info=True)`): each op names the line of this
    file that made it."""
    _AS_TEXT_OPTIONS["debug_info"] = True
    try:
        return {name: build() for name, build in _PROGRAMS.items()}
    finally:
        _AS_TEXT_OPTIONS.clear()
