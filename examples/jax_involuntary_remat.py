"""A training step that makes XLA warn "Involuntary full rematerialization", and pysdy's explanation of why.

    python examples/jax_involuntary_remat.py [--html report.html]

The tokens arrive flattened, (batch * seq, width), split over all 8 devices;
the step folds them back into sequences and asks for sequence parallelism with
a sharding constraint. Compiling it with plain JAX, XLA warns that it cannot go
from one sharding of the reshape to the other and replicates the tensor. The
script compiles it (XLA prints its warning on stderr) and prints
`pysdy.jax.explain`'s summary: which two annotations meet at the reshape.
"""

from __future__ import annotations

import argparse

import jax

jax.config.update("jax_num_cpu_devices", 8)

import jax.numpy as jnp  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import pysdy.jax  # noqa: E402

mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
batch, seq, width = 6, 8, 16


def loss(w, tokens):
    h = jnp.tanh(tokens @ w)
    h = h.reshape(batch, seq, width)  # back to sequences
    h = jax.lax.with_sharding_constraint(h, NamedSharding(mesh, P(None, "data", None)))  # sequence parallel
    return jnp.mean(h.sum(axis=1) ** 2)


def step(w, tokens):
    value, grad = jax.value_and_grad(loss)(w, tokens)
    return w - 0.1 * grad, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--html", help="also write the HTML report here")
    arguments = parser.parse_args()
    tokens_sharding = NamedSharding(mesh, P(("data", "model"), None))  # the flattened tokens on all 8 devices
    jitted = jax.jit(step, in_shardings=(NamedSharding(mesh, P()), tokens_sharding))
    w = jnp.full((width, width), 0.01, jnp.float32)
    tokens = jnp.linspace(-1, 1, batch * seq * width, dtype=jnp.float32).reshape(batch * seq, width)
    jitted.lower(w, tokens).compile()  # plain JAX: XLA's partitioner warns here
    explained = pysdy.jax.explain(jitted, w, tokens)
    explained.show()
    if arguments.html:
        explained.save_html(arguments.html)


if __name__ == "__main__":
    main()
