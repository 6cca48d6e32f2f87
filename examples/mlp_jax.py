"""Lowers the two-layer MLP in examples/mlp.mlir with JAX: `python examples/mlp_jax.py > examples/mlp.mlir`."""

import jax
import jax.numpy as jnp
from jax.sharding import NamedSharding
from jax.sharding import PartitionSpec as P

jax.config.update("jax_num_cpu_devices", 8)


def mlp(x, w1, b1, w2):
    hidden = jax.nn.relu(x @ w1 + b1)
    return jnp.sum((hidden @ w2) ** 2, axis=-1)


def lowered_text() -> str:
    mesh = jax.make_mesh((4, 2), ("data", "model"))
    shardings = (P("data", None), P(None, "model"), P("model"), P("model", None))
    shapes = ((32, 64), (64, 128), (128,), (128, 16))
    args = [jax.ShapeDtypeStruct(s, jnp.float32) for s in shapes]
    jitted = jax.jit(mlp, in_shardings=tuple(NamedSharding(mesh, p) for p in shardings))
    return jitted.lower(*args).as_text()


if __name__ == "__main__":
    print("// A two-layer MLP as jax.jit(...).lower(...).as_text() prints it (jax 0.10.2, 4x2 mesh of")
    print("// 8 CPU devices); regenerate with examples/mlp_jax.py.")
    print(lowered_text(), end="")
