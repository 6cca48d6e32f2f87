"""Training steps written the way users of Flax (NNX and linen), Equinox, optax and JAX's own sharding APIs
(explicit sharding mode, shard_map) write them, on 8 CPU devices.

Each program is a function building everything afresh (model, optimizer, data, the jitted step: a new function, so
JAX's caches never hand one run's executable to the next) and returning a callable that runs one step and returns
every result: the loss, the optimizer state and the updated parameters.
"""

from __future__ import annotations

import functools
from typing import Callable

import jax
import jax.numpy as jnp
import numpy as np
from jax.sharding import AxisType, NamedSharding
from jax.sharding import PartitionSpec as P

Step = Callable[[], object]
PROGRAMS: dict[str, Callable[[], Step]] = {}
# The framework each program needs, by program.
FRAMEWORKS: dict[str, str] = {}


def program(framework: str):
    def register(build: Callable[[], Step]) -> Callable[[], Step]:
        PROGRAMS[build.__name__] = build
        FRAMEWORKS[build.__name__] = framework
        return build

    return register


def _mesh(axis_type=AxisType.Auto):
    return jax.make_mesh((4, 2), ("data", "model"), axis_types=(axis_type,) * 2)


def _tokens(mesh, batch: int, length: int, vocab: int):
    values = np.random.default_rng(0).integers(0, vocab, (batch, length))
    return jax.device_put(values, NamedSharding(mesh, P("data", None)))


def _fsdp_mlp_and_batch(seed: int, scale: float) -> tuple[list[jax.Array], jax.Array]:
    """The two weights of a 32-64-32 MLP (normal, times `scale`), FSDP on "data" and tensor parallel on "model",
    and a batch of 16 split on "data"."""
    mesh = _mesh()
    rng = np.random.default_rng(seed)

    def put(shape, spec, factor=1.0):
        return jax.device_put(rng.standard_normal(shape).astype(np.float32) * factor, NamedSharding(mesh, spec))

    params = [put((32, 64), P("data", "model"), scale), put((64, 32), P("model", "data"), scale)]
    return params, put((16, 32), P("data", None))


def _nnx_train_step(tx, losses):
    """An `nnx.jit` step of `model` on a batch: the mean of `losses(model, *batch)`, its gradient and one update by
    the optax transformation `tx`; returns the loss and the new optimizer state, the model updated in place."""
    import optax
    from flax import nnx

    @nnx.jit
    def step(model, opt_state, *batch):
        loss, grads = nnx.value_and_grad(lambda model: losses(model, *batch).mean())(model)
        params = nnx.state(model, nnx.Param)
        updates, opt_state = tx.update(grads, opt_state, params)
        nnx.update(model, optax.apply_updates(params, updates))
        return loss, opt_state

    return step


def _nnx_language_model_step(model_class, rules, tokens) -> Step:
    """One AdamW step of an NNX language model (next-token cross entropy on `tokens`) under `nnx.jit`, its
    parameters placed by their logical axes under `rules`."""
    import optax
    from flax import nnx

    mesh = tokens.sharding.mesh
    with jax.set_mesh(mesh), nnx.logical_axis_rules(rules):
        model = model_class(nnx.Rngs(0))
        state = nnx.state(model)
        specs = nnx.get_partition_spec(state)
        nnx.update(model, jax.tree.map(lambda a, s: jax.device_put(a, NamedSharding(mesh, s)), state, specs))
    # Adam's first step moves each parameter by lr * g / (|g| + eps): with the default eps of 1e-8, a gradient near
    # 1e-8 turns the rounding of a reduction in another order into a parameter difference of 4e-5 (seen on 0.10).
    tx = optax.adamw(1e-3, eps=1e-5)
    opt_state = tx.init(nnx.state(model, nnx.Param))

    cross_entropy = optax.softmax_cross_entropy_with_integer_labels
    step = _nnx_train_step(tx, lambda model, tokens: cross_entropy(model(tokens), tokens))

    def run():
        with jax.set_mesh(mesh), nnx.logical_axis_rules(rules):
            loss, new_state = step(model, opt_state, tokens)
        return loss, new_state, nnx.state(model, nnx.Param)

    return run


@program("flax")
def nnx_scan_remat_decoder_adamw() -> Step:
    """Flax NNX: layers stacked with nnx.vmap, run with nnx.scan over nnx.remat, FSDP on "data" and tensor
    parallelism on "model" through logical axis rules; AdamW through optax."""
    from flax import nnx

    width, hidden, vocab, batch, length, layers = 64, 256, 128, 16, 32, 4
    rules = (("embed", "data"), ("mlp", "model"), ("vocab", "model"))

    class Block(nnx.Module):
        def __init__(self, rngs):
            def part(*names):
                return nnx.with_partitioning(nnx.initializers.lecun_normal(), names)

            self.up = nnx.Linear(width, hidden, kernel_init=part("embed", "mlp"), use_bias=False, rngs=rngs)
            self.down = nnx.Linear(hidden, width, kernel_init=part("mlp", "embed"), use_bias=False, rngs=rngs)
            self.norm = nnx.RMSNorm(width, rngs=rngs)

        def __call__(self, x):
            return x + self.down(jax.nn.gelu(self.up(self.norm(x))))

    class Decoder(nnx.Module):
        def __init__(self, rngs):
            init = nnx.with_partitioning(nnx.initializers.normal(0.02), ("vocab", "embed"))
            self.embed = nnx.Embed(vocab, width, embedding_init=init, rngs=rngs)

            @nnx.split_rngs(splits=layers)
            @nnx.vmap(in_axes=(0,), out_axes=0, transform_metadata={nnx.PARTITION_NAME: None})
            def make(rngs):
                return Block(rngs)

            self.blocks = make(rngs)
            head_init = nnx.with_partitioning(nnx.initializers.lecun_normal(), ("embed", "vocab"))
            self.head = nnx.Linear(width, vocab, kernel_init=head_init, use_bias=False, rngs=rngs)

        def __call__(self, tokens):
            x = jax.nn.one_hot(tokens, vocab, dtype=jnp.float32) @ self.embed.embedding[...]

            @nnx.scan(in_axes=(nnx.Carry, 0), out_axes=nnx.Carry, transform_metadata={nnx.PARTITION_NAME: None})
            @nnx.remat
            def body(x, block):
                return block(x)

            return self.head(body(x, self.blocks))

    return _nnx_language_model_step(Decoder, rules, _tokens(_mesh(), batch, length, vocab))


@program("flax")
def nnx_attention_block_adamw() -> Step:
    """Flax NNX: a pre-norm transformer layer (nnx.MultiHeadAttention with a causal mask, then an MLP), heads and
    MLP on "model", batch on "data", through logical axis rules; AdamW through optax."""
    from flax import nnx

    width, heads, hidden, vocab, batch, length = 64, 4, 128, 64, 8, 16
    rules = (("batch", "data"), ("embed", None), ("heads", "model"), ("mlp", "model"), ("vocab", "model"))

    def part(*names):
        return nnx.with_partitioning(nnx.initializers.lecun_normal(), names)

    class Layer(nnx.Module):
        def __init__(self, rngs):
            init = nnx.with_partitioning(nnx.initializers.normal(0.02), ("vocab", "embed"))
            self.embed = nnx.Embed(vocab, width, embedding_init=init, rngs=rngs)
            self.norm1 = nnx.LayerNorm(width, rngs=rngs)
            self.attention = nnx.MultiHeadAttention(
                num_heads=heads, in_features=width, qkv_features=width, decode=False,
                kernel_init=part("embed", "heads", None), out_kernel_init=part("heads", None, "embed"), rngs=rngs,
            )
            self.norm2 = nnx.LayerNorm(width, rngs=rngs)
            self.up = nnx.Linear(width, hidden, kernel_init=part("embed", "mlp"), rngs=rngs)
            self.down = nnx.Linear(hidden, width, kernel_init=part("mlp", "embed"), rngs=rngs)

        def __call__(self, tokens):
            x = self.embed(tokens)
            mask = nnx.make_causal_mask(tokens)
            x = x + self.attention(self.norm1(x), mask=mask)
            x = x + self.down(jax.nn.relu(self.up(self.norm2(x))))
            return x @ self.embed.embedding[...].T

    return _nnx_language_model_step(Layer, rules, _tokens(_mesh(), batch, length, vocab))


@program("flax")
def linen_scan_remat_logical_adafactor() -> Step:
    """Flax linen: nn.scan over nn.remat blocks, activations constrained with nn.with_logical_constraint under
    logical axis rules; Adafactor (factored second moments) through optax."""
    import optax
    from flax import linen as nn

    width, hidden, batch, length, layers = 64, 128, 16, 8, 3
    rules = (("batch", "data"), ("embed", None), ("mlp", "model"))

    class Block(nn.Module):
        @nn.compact
        def __call__(self, x, _):
            kernel = nn.with_logical_partitioning(nn.initializers.lecun_normal(), ("embed", "mlp"))
            back = nn.with_logical_partitioning(nn.initializers.lecun_normal(), ("mlp", "embed"))
            h = nn.Dense(hidden, use_bias=False, kernel_init=kernel)(nn.LayerNorm()(x))
            h = nn.with_logical_constraint(jax.nn.relu(h), ("batch", None, "mlp"))
            x = x + nn.Dense(width, use_bias=False, kernel_init=back)(h)
            return nn.with_logical_constraint(x, ("batch", None, "embed")), None

    class Model(nn.Module):
        @nn.compact
        def __call__(self, x):
            stack = nn.scan(
                nn.remat(Block),
                variable_axes={"params": 0},
                split_rngs={"params": True},
                length=layers,
                metadata_params={nn.PARTITION_NAME: None},
            )
            x, _ = stack()(x, None)
            return jnp.mean(x**2)

    mesh = _mesh()
    inputs = jax.device_put(
        np.random.default_rng(1).standard_normal((batch, length, width)).astype(np.float32),
        NamedSharding(mesh, P("data", None, None)),
    )
    model = Model()
    with jax.set_mesh(mesh), nn.logical_axis_rules(rules):
        abstract = jax.eval_shape(model.init, jax.random.key(0), inputs)
        shardings = nn.logical_to_mesh_sharding(nn.get_partition_spec(abstract), mesh, rules)
        params = jax.jit(model.init, out_shardings=shardings)(jax.random.key(0), inputs)
    tx = optax.adafactor(1e-2)
    opt_state = tx.init(params)

    @jax.jit
    def step(params, opt_state, inputs):
        with nn.logical_axis_rules(rules):
            loss, grads = jax.value_and_grad(model.apply)(params, inputs)
        updates, opt_state = tx.update(grads, opt_state, params)
        return loss, optax.apply_updates(params, updates), opt_state

    def run():
        with jax.set_mesh(mesh):
            return step(params, opt_state, inputs)

    return run


@program("equinox")
def equinox_mlp_filter_shard_adamw() -> Step:
    """Equinox: an eqx.nn.MLP trained under eqx.filter_jit, data and parameters placed with eqx.filter_shard;
    AdamW through optax."""
    import equinox as eqx
    import optax

    mesh = _mesh()
    data_sharding = NamedSharding(mesh, P("data"))
    replicated = NamedSharding(mesh, P())
    model = eqx.nn.MLP(32, 8, width_size=64, depth=2, key=jax.random.key(0))
    model = eqx.filter_shard(model, replicated)
    rng = np.random.default_rng(2)
    x = jax.device_put(rng.standard_normal((64, 32)).astype(np.float32), data_sharding)
    y = jax.device_put(rng.standard_normal((64, 8)).astype(np.float32), data_sharding)
    tx = optax.adamw(1e-3)
    opt_state = tx.init(eqx.filter(model, eqx.is_array))

    @eqx.filter_jit
    def step(model, opt_state, x, y):
        x, y = eqx.filter_shard((x, y), data_sharding)
        model = eqx.filter_shard(model, replicated)

        @eqx.filter_value_and_grad
        def loss_fn(model):
            return jnp.mean((jax.vmap(model)(x) - y) ** 2)

        loss, grads = loss_fn(model)
        updates, opt_state = tx.update(grads, opt_state, eqx.filter(model, eqx.is_array))
        model = eqx.apply_updates(model, updates)
        return loss, eqx.filter_shard(model, replicated), opt_state

    def run():
        loss, new_model, new_state = step(model, opt_state, x, y)
        return loss, eqx.filter(new_model, eqx.is_array), new_state

    return run


@program("optax")
def optax_adamw_gradient_accumulation_fori() -> Step:
    """Plain JAX with optax: gradients of an FSDP-sharded MLP accumulated over microbatches in a lax.fori_loop,
    then one AdamW update."""
    import optax

    mesh = _mesh()
    rng = np.random.default_rng(3)
    def weight(shape, spec):
        return jax.device_put(rng.standard_normal(shape).astype(np.float32) * 0.1, NamedSharding(mesh, spec))

    params = {"w1": weight((32, 128), P("data", "model")), "w2": weight((128, 32), P("model", "data"))}
    batches = jax.device_put(rng.standard_normal((4, 16, 32)).astype(np.float32), NamedSharding(mesh, P(None, "data")))
    tx = optax.adamw(1e-3)
    opt_state = tx.init(params)

    def loss_fn(params, x):
        return jnp.mean((jnp.tanh(x @ params["w1"]) @ params["w2"] - x) ** 2)

    @functools.partial(jax.jit, donate_argnums=())
    def step(params, opt_state, batches):
        def accumulate(i, carry):
            loss, grads = carry
            value, grad = jax.value_and_grad(loss_fn)(params, batches[i])
            return loss + value, jax.tree.map(jnp.add, grads, grad)

        zeros = jax.tree.map(jnp.zeros_like, params)
        loss, grads = jax.lax.fori_loop(0, batches.shape[0], accumulate, (0.0, zeros))
        grads = jax.tree.map(lambda g: g / batches.shape[0], grads)
        updates, opt_state = tx.update(grads, opt_state, params)
        return loss, optax.apply_updates(params, updates), opt_state

    return lambda: step(params, opt_state, batches)


@program("jax")
def explicit_sharding_mlp_sgd() -> Step:
    """JAX's explicit sharding mode: typed shardings on an Explicit mesh, out_sharding on a matmul, and
    jax.sharding.reshard between layers; a plain SGD step."""
    mesh = _mesh(AxisType.Explicit)
    rng = np.random.default_rng(4)
    with jax.set_mesh(mesh):
        w1 = jax.device_put(rng.standard_normal((32, 64)).astype(np.float32) * 0.1, P(None, "model"))
        w2 = jax.device_put(rng.standard_normal((64, 32)).astype(np.float32) * 0.1, P("model", None))
        x = jax.device_put(rng.standard_normal((16, 32)).astype(np.float32), P("data", None))

    def loss_fn(params, x):
        w1, w2 = params
        h = jnp.tanh(jnp.matmul(x, w1, out_sharding=P("data", "model")))
        h = jax.sharding.reshard(h, P("data", None))
        y = jnp.matmul(h, w2, out_sharding=P("data", None))
        return jnp.mean((y - x) ** 2)

    @jax.jit
    def step(params, x):
        loss, grads = jax.value_and_grad(loss_fn)(params, x)
        return loss, jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)

    def run():
        with jax.set_mesh(mesh):
            return step((w1, w2), x)

    return run


@program("jax")
def shard_map_moe_all_to_all() -> Step:
    """A mixture-of-experts layer in shard_map: tokens dispatched to the experts' devices with all_to_all, each
    expert's MLP, and the results combined back with another all_to_all; its gradient."""
    from jax import shard_map

    mesh = jax.make_mesh((8,), ("expert",), axis_types=(AxisType.Explicit,))
    experts, tokens_per_device, width = 8, 16, 32
    rng = np.random.default_rng(5)
    with jax.set_mesh(mesh):
        w = jax.device_put(rng.standard_normal((experts, width, width)).astype(np.float32) * 0.1, P("expert"))
        x = jax.device_put(rng.standard_normal((8 * tokens_per_device, width)).astype(np.float32), P("expert"))

    def moe(w, x):
        # x: [tokens_per_device, width] on each device, split into one chunk per expert.
        chunks = x.reshape(experts, tokens_per_device // experts, width)
        dispatched = jax.lax.all_to_all(chunks, "expert", 0, 0, tiled=True)
        hidden = jnp.tanh(jnp.einsum("etd,df->etf", dispatched, w[0]))
        combined = jax.lax.all_to_all(hidden, "expert", 0, 0, tiled=True)
        return combined.reshape(tokens_per_device, width)

    layer = shard_map(moe, mesh=mesh, in_specs=(P("expert"), P("expert")), out_specs=P("expert"))

    @jax.jit
    def step(w, x):
        return jax.value_and_grad(lambda w: jnp.mean(layer(w, x) ** 2))(w)

    def run():
        with jax.set_mesh(mesh):
            return step(w, x)

    return run


@program("jax")
def shard_map_pipeline_ppermute() -> Step:
    """Pipeline parallelism in shard_map: four stages on "stage", microbatches passed stage to stage with
    ppermute in a fori_loop, data parallel on "data"; its gradient."""
    from jax import shard_map

    mesh = jax.make_mesh((4, 2), ("stage", "data"), axis_types=(AxisType.Explicit,) * 2)
    stages, microbatches, batch, width = 4, 4, 8, 16
    rng = np.random.default_rng(6)
    with jax.set_mesh(mesh):
        w = jax.device_put(rng.standard_normal((stages, width, width)).astype(np.float32) * 0.3, P("stage"))
        x = jax.device_put(rng.standard_normal((microbatches, batch, width)).astype(np.float32), P(None, "data"))

    def pipeline(w, x):
        stage = jax.lax.axis_index("stage")
        w = w[0]
        steps = microbatches + stages - 1

        def tick(t, carry):
            state, outputs = carry
            inject = jnp.where(stage == 0, x[jnp.minimum(t, microbatches - 1)], state)
            out = jnp.tanh(inject @ w)
            done = t - (stages - 1)
            keep = (stage == stages - 1) & (done >= 0)
            outputs = jnp.where(keep, outputs.at[jnp.maximum(done, 0)].set(out), outputs)
            state = jax.lax.ppermute(out, "stage", [(i, (i + 1) % stages) for i in range(stages)])
            return state, outputs

        # Zeros that vary along both axes, as the loop's state does (a stage's weight times 0).
        varying_zero = 0.0 * w[0]
        _, outputs = jax.lax.fori_loop(0, steps, tick, (x[0] * 0.0 + varying_zero, x * 0.0 + varying_zero))
        return jax.lax.psum(outputs, "stage")

    run_pipeline = shard_map(pipeline, mesh=mesh, in_specs=(P("stage"), P(None, "data")), out_specs=P(None, "data"))

    @jax.jit
    def step(w, x):
        return jax.value_and_grad(lambda w: jnp.mean(run_pipeline(w, x) ** 2))(w)

    def run():
        with jax.set_mesh(mesh):
            return step(w, x)

    return run


@program("optax")
def custom_vjp_checkpoint_policy_donated_adamw() -> Step:
    """A custom_vjp activation, layers under jax.checkpoint with the dots_saveable policy, parameters donated to
    the step; AdamW through optax, FSDP on "data" and tensor parallelism on "model"."""
    import optax

    @jax.custom_vjp
    def gelu(x):
        return jax.nn.gelu(x)

    def gelu_forward(x):
        return gelu(x), x

    def gelu_backward(x, g):
        return (g * jax.grad(lambda v: jnp.sum(jax.nn.gelu(v)))(x),)

    gelu.defvjp(gelu_forward, gelu_backward)

    params, x = _fsdp_mlp_and_batch(seed=7, scale=0.1)
    tx = optax.adamw(1e-3, eps=1e-5)
    opt_state = tx.init(params)

    @functools.partial(jax.checkpoint, policy=jax.checkpoint_policies.dots_saveable)
    def block(params, x):
        return gelu(x @ params[0]) @ params[1] + x

    def loss_fn(params, x):
        return jnp.mean(block(params, block(params, x)) ** 2)

    @functools.partial(jax.jit, donate_argnums=(0, 1))
    def step(params, opt_state, x):
        loss, grads = jax.value_and_grad(loss_fn)(params, x)
        updates, opt_state = tx.update(grads, opt_state, params)
        return loss, optax.apply_updates(params, updates), opt_state

    def run():
        # Donation consumes the buffers: each run steps on copies of its own.
        return step(jax.tree.map(jnp.copy, params), jax.tree.map(jnp.copy, opt_state), x)

    return run


@program("jax")
def shard_map_sequence_parallel_vocab_cross_entropy() -> Step:
    """Tensor and sequence parallelism in shard_map: the sequence gathered with all_gather before an MLP split on
    "model" and scattered back with psum_scatter, then a cross entropy over a vocabulary split on "model" (pmax of
    the logits, psum of their exponentials); the batch on "data"; its gradient."""
    from jax import shard_map

    mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Explicit,) * 2)
    batch, length, width, hidden, vocab = 8, 16, 32, 64, 64
    rng = np.random.default_rng(8)
    with jax.set_mesh(mesh):
        w_up = jax.device_put(rng.standard_normal((width, hidden)).astype(np.float32) * 0.2, P(None, "model"))
        w_down = jax.device_put(rng.standard_normal((hidden, width)).astype(np.float32) * 0.2, P("model", None))
        w_vocab = jax.device_put(rng.standard_normal((width, vocab)).astype(np.float32) * 0.2, P(None, "model"))
        x = jax.device_put(rng.standard_normal((batch, length, width)).astype(np.float32), P("data", "model"))
        labels = jax.device_put(rng.integers(0, vocab, (batch, length)).astype(np.int32), P("data", None))

    def loss_on_shards(w_up, w_down, w_vocab, x, labels):
        full = jax.lax.all_gather(x, "model", axis=1, tiled=True)
        partial = jnp.tanh(full @ w_up) @ w_down
        x = x + jax.lax.psum_scatter(partial, "model", scatter_dimension=1, tiled=True)
        full = jax.lax.all_gather(x, "model", axis=1, tiled=True)
        logits = full @ w_vocab  # this device's slice of the vocabulary
        top = jax.lax.pmax(jax.lax.stop_gradient(jnp.max(logits, axis=-1)), "model")
        log_total = jnp.log(jax.lax.psum(jnp.sum(jnp.exp(logits - top[..., None]), axis=-1), "model")) + top
        first = jax.lax.axis_index("model") * logits.shape[-1]
        local = labels - first
        in_slice = (local >= 0) & (local < logits.shape[-1])
        picked = jnp.take_along_axis(logits, jnp.clip(local, 0, logits.shape[-1] - 1)[..., None], axis=-1)[..., 0]
        label_logit = jax.lax.psum(jnp.where(in_slice, picked, 0.0), "model")
        return jax.lax.pmean(jnp.mean(log_total - label_logit), "data")

    loss_fn = shard_map(
        loss_on_shards, mesh=mesh,
        in_specs=(P(None, "model"), P("model", None), P(None, "model"), P("data", "model"), P("data", None)),
        out_specs=P(),
    )

    @jax.jit
    def step(params, x, labels):
        loss, grads = jax.value_and_grad(lambda p: loss_fn(*p, x, labels))(params)
        return loss, jax.tree.map(lambda p, g: p - 0.1 * g, params, grads)

    def run():
        with jax.set_mesh(mesh):
            return step((w_up, w_down, w_vocab), x, labels)

    return run


@program("optax")
def embedding_cumsum_sort_top_k_adamw() -> Step:
    """A bag-of-prefixes language model: embedding rows gathered from a table split on "model" (their gradient a
    scatter-add), running means along the sequence with cumsum, a loss trimmed of each batch's worst examples
    with sort, and a top-k margin term with lax.top_k; AdamW through optax, the batch on "data"."""
    import optax

    mesh = _mesh()
    vocab, width, batch, length, k = 64, 32, 16, 12, 4
    rng = np.random.default_rng(9)
    params = {
        "table": jax.device_put(
            rng.standard_normal((vocab, width)).astype(np.float32) * 0.1, NamedSharding(mesh, P("model", None))
        ),
        "mix": jax.device_put(
            rng.standard_normal((width, width)).astype(np.float32) * 0.1, NamedSharding(mesh, P(None, "model"))
        ),
    }
    tokens = _tokens(mesh, batch, length, vocab)
    tx = optax.adamw(1e-2, eps=1e-5)
    opt_state = tx.init(params)

    def loss_fn(params, tokens):
        embedded = params["table"][tokens[:, :-1]]  # a gather; its gradient scatter-adds into the table
        prefix_means = jnp.cumsum(embedded, axis=1) / jnp.arange(1, length, dtype=jnp.float32)[None, :, None]
        logits = jnp.tanh(prefix_means @ params["mix"]) @ params["table"].T
        per_example = jnp.mean(optax.softmax_cross_entropy_with_integer_labels(logits, tokens[:, 1:]), axis=1)
        trimmed = jnp.mean(jnp.sort(per_example)[: batch - 2])
        top_values, top_indices = jax.lax.top_k(logits, k)
        margin = jnp.mean(jax.nn.relu(1.0 + top_values[..., -1] - top_values[..., 0]))
        hits = jnp.mean(jnp.any(top_indices == tokens[:, 1:, None], axis=-1).astype(jnp.float32))
        return trimmed + 0.1 * margin, hits

    @jax.jit
    def step(params, opt_state, tokens):
        (loss, hits), grads = jax.value_and_grad(loss_fn, has_aux=True)(params, tokens)
        updates, opt_state = tx.update(grads, opt_state, params)
        return loss, hits, optax.apply_updates(params, updates), opt_state

    return lambda: step(params, opt_state, tokens)


@program("jax")
def cond_switch_host_callbacks_sgd() -> Step:
    """Control flow and host callbacks in a training step: lax.switch picks a layer's activation by an index,
    lax.cond clips the sharded gradients only when their norm is large, pure_callback computes the learning rate
    on the host from the step number and io_callback logs the loss there; FSDP on "data", tensor parallelism on
    "model"."""
    from jax.experimental import io_callback

    params, x = _fsdp_mlp_and_batch(seed=10, scale=0.3)
    activations = (jnp.tanh, jax.nn.relu, jax.nn.gelu)
    logged: list[np.ndarray] = []

    def loss_fn(params, x, kind):
        h = jax.lax.switch(kind, activations, x @ params[0])
        return jnp.mean((h @ params[1] - x) ** 2)

    def clip(grads, norm):
        return [g * (1.0 / norm) for g in grads]

    def learning_rate(step_number):
        return np.float32(0.5 / (1.0 + np.asarray(step_number)))

    @jax.jit
    def step(params, x, kind, step_number):
        loss, grads = jax.value_and_grad(loss_fn)(params, x, kind)
        norm = jnp.sqrt(sum(jnp.sum(g**2) for g in grads))
        grads = jax.lax.cond(norm > 1.0, clip, lambda grads, norm: grads, grads, norm)
        rate = jax.pure_callback(learning_rate, jax.ShapeDtypeStruct((), jnp.float32), step_number)
        io_callback(lambda value: logged.append(np.asarray(value)), None, loss)
        return loss, norm, [p - rate * g for p, g in zip(params, grads)]

    def run():
        logged.clear()
        outputs = [step(params, x, kind, np.int32(3)) for kind in range(len(activations))]
        jax.effects_barrier()
        return outputs, list(logged)

    return run


@program("flax")
def nnx_cnn_batch_spatial_sharding_momentum() -> Step:
    """Flax NNX: a CNN (convolutions, batch norm, pooling) on images split by batch on "data" and by height on
    "model", its activations kept that way with sharding constraints; SGD with momentum through optax."""
    import optax
    from flax import nnx

    images_spec = P("data", "model", None, None)

    class Net(nnx.Module):
        def __init__(self, rngs):
            # No bias before a batch norm, as in ResNets: its gradient would be 0 but for rounding.
            self.conv1 = nnx.Conv(3, 16, (3, 3), padding="SAME", use_bias=False, rngs=rngs)
            self.norm1 = nnx.BatchNorm(16, rngs=rngs)
            self.conv2 = nnx.Conv(16, 32, (3, 3), padding="SAME", use_bias=False, rngs=rngs)
            self.norm2 = nnx.BatchNorm(32, rngs=rngs)
            self.head = nnx.Linear(32, 10, rngs=rngs)

        def __call__(self, x):
            x = jax.lax.with_sharding_constraint(jax.nn.relu(self.norm1(self.conv1(x))), images_spec)
            x = nnx.avg_pool(x, (2, 2), strides=(2, 2))
            x = jax.lax.with_sharding_constraint(jax.nn.relu(self.norm2(self.conv2(x))), images_spec)
            return self.head(jnp.mean(x, axis=(1, 2)))

    mesh = _mesh()
    rng = np.random.default_rng(11)
    images = jax.device_put(rng.standard_normal((16, 32, 32, 3)).astype(np.float32), NamedSharding(mesh, images_spec))
    labels = jax.device_put(rng.integers(0, 10, (16,)), NamedSharding(mesh, P("data")))
    with jax.set_mesh(mesh):
        model = Net(nnx.Rngs(0))
    tx = optax.sgd(0.05, momentum=0.9)
    opt_state = tx.init(nnx.state(model, nnx.Param))

    cross_entropy = optax.softmax_cross_entropy_with_integer_labels
    step = _nnx_train_step(tx, lambda model, images, labels: cross_entropy(model(images), labels))

    def run():
        with jax.set_mesh(mesh):
            loss, new_state = step(model, opt_state, images, labels)
        return loss, new_state, nnx.state(model)

    return run
