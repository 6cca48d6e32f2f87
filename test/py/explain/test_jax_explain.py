"""`pysdy.jax.explain` on a Flax training step: every axis traced to an annotation and down to this file's lines, both
routes compiled for their memory and collectives, and each of pysdy's collectives placed on a line of this file."""

import os

import jax

jax.config.update("jax_num_cpu_devices", 8)

import jax.numpy as jnp  # noqa: E402
import optax  # noqa: E402
import pytest  # noqa: E402
from jax.sharding import AxisType, NamedSharding  # noqa: E402
from jax.sharding import PartitionSpec as P  # noqa: E402

import pysdy.jax  # noqa: E402
from browser import render  # noqa: E402
from pysdy.explanation.html_report import drawn_tensors  # noqa: E402

nn = pytest.importorskip("flax.linen")


class Mlp(nn.Module):
    @nn.compact
    def __call__(self, x):
        x = nn.Dense(64, use_bias=False, name="up")(x)
        x = nn.relu(x)
        return nn.Dense(16, use_bias=False, name="down")(x)


def training_step():
    """A linen MLP trained with AdamW: batch on "data", the hidden layer's weights on "model"."""
    mesh = jax.make_mesh((4, 2), ("data", "model"), axis_types=(AxisType.Auto,) * 2)
    model, optimizer = Mlp(), optax.adamw(1e-3)
    x = jnp.linspace(-1.0, 1.0, 32 * 16, dtype=jnp.float32).reshape(32, 16)
    params = model.init(jax.random.key(0), x)
    opt_state = optimizer.init(params)

    def step(params, opt_state, x):
        def loss(params):
            return jnp.mean(model.apply(params, x) ** 2)

        value, grads = jax.value_and_grad(loss)(params)
        updates, opt_state = optimizer.update(grads, opt_state, params)
        return optax.apply_updates(params, updates), opt_state, value

    def spec(path, _):
        name = jax.tree_util.keystr(path)
        return NamedSharding(mesh, P(None, "model") if "'up'" in name else P("model", None) if "'down'" in name else P())

    param_shardings = jax.tree_util.tree_map_with_path(spec, params)
    opt_shardings = jax.tree_util.tree_map_with_path(spec, opt_state)
    shardings = (param_shardings, opt_shardings, NamedSharding(mesh, P("data", None)))
    jitted = jax.jit(step, in_shardings=shardings, out_shardings=(param_shardings, opt_shardings, NamedSharding(mesh, P())))
    return jitted, (params, opt_state, x)


def test_a_flax_training_step_is_explained_down_to_its_lines_with_both_routes_costs():
    jitted, args = training_step()
    explained = pysdy.jax.explain(jitted, *args)
    data = explained.data
    here = os.path.abspath(__file__)
    chains = [(t.name, c) for t in data.tensors for c in t.chains]
    assert chains and all(c.annotation is not None for _, c in chains)
    steps = [s for _, c in chains for s in c.steps]
    assert steps and all(s.location is not None for s in steps)
    assert any(s.location.startswith(here + ":") for s in steps)
    assert [r.route for r in data.routes] == ["pysdy (gspmd route)", "XLA's own Shardy"]
    assert all(r.memory["peak"] > 0 for r in data.routes)
    assert data.collectives and all(c.location is not None for c in data.collectives)
    assert any(c.explanation for c in data.collectives)
    assert "Reshards and collectives" in str(explained)
    assert explained.value("%arg0").tensor.role == "argument"


def test_the_flax_step_report_renders_every_tensor_and_collective(tmp_path):
    jitted, args = training_step()
    explained = pysdy.jax.explain(jitted, *args)
    page = tmp_path / "flax_step.html"
    explained.save_html(str(page))
    rendered = render(str(page), str(tmp_path / "profile"))
    assert rendered.console_errors == []
    names = [s.attributes["data-name"] for s in rendered.root.iter("section", "tensor")]
    assert names == [t.name for t in drawn_tensors(explained.data)]
    assert len(list(rendered.root.iter("li", "collective"))) == len(explained.data.collectives)
    assert len(list(rendered.root.iter("rect", "bar"))) == 8
