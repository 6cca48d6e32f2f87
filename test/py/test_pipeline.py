"""Pipeline text parses into steps, sdy names resolve only to Python passes, options are typed."""

import pytest

from pysdy.dialects.context import make_context
from pysdy.passes.pipeline import (
    NestedPipeline,
    PassStep,
    PipelineError,
    build_pass_manager,
    instantiate,
    parse_options,
    parse_pipeline,
)
from pysdy.passes.propagation.populate_op_sharding_rules import PopulateOpShardingRulesPass
from pysdy.passes.registry import all_passes


def test_nested_pipeline_with_options_parses_into_steps():
    steps = parse_pipeline(
        "builtin.module(func.func(sdy-populate-op-sharding-rules{conservative-propagation=true}), canonicalize,cse)"
    )
    assert steps == (
        NestedPipeline("func.func", (PassStep("sdy-populate-op-sharding-rules", (("conservative-propagation", "true"),)),)),
        PassStep("canonicalize"),
        PassStep("cse"),
    )


def test_option_values_may_be_quoted_or_braced_and_bare_names_mean_true():
    assert parse_options('a=1 b="x y" c={p q} d') == (("a", "1"), ("b", "x y"), ("c", "p q"), ("d", "true"))


@pytest.mark.parametrize("text", ["builtin.module(cse", "a{b=1", "builtin.module(,)", "x) y"])
def test_malformed_pipelines_are_rejected(text):
    with pytest.raises(PipelineError):
        parse_pipeline(text)


def test_sdy_names_resolve_to_the_python_pass_with_typed_options():
    pass_ = instantiate(PassStep("sdy-populate-op-sharding-rules", (("conservative-propagation", "true"),)))
    assert pass_ == PopulateOpShardingRulesPass(conservative_propagation=True)
    assert instantiate(PassStep("canonicalize")) is None


def test_an_sdy_name_pysdy_lacks_is_an_error_never_the_cpp_pass():
    # jaxlib registers sdy-basic-propagate in C++; pysdy must not fall back to it.
    with pytest.raises(PipelineError, match="unknown pass 'sdy-no-such-pass'"):
        instantiate(PassStep("sdy-no-such-pass"))


def test_bad_option_value_names_the_pass_and_option():
    with pytest.raises(PipelineError, match="conservative-propagation.*'maybe' is not a boolean"):
        instantiate(PassStep("sdy-populate-op-sharding-rules", (("conservative-propagation", "maybe"),)))


def test_function_pass_at_module_level_is_nested_on_every_function():
    from jaxlib.mlir import ir

    from pysdy.passes.pipeline import run_pipeline

    text = """
    func.func @f(%a: tensor<4xf32>) -> tensor<4xf32> {
      %0 = stablehlo.abs %a : tensor<4xf32>
      return %0 : tensor<4xf32>
    }
    func.func @g(%a: tensor<2xf32>) -> tensor<2xf32> {
      %0 = stablehlo.negate %a : tensor<2xf32>
      return %0 : tensor<2xf32>
    }"""
    outputs = []
    for pipeline in ("sdy-populate-op-sharding-rules", "builtin.module(func.func(sdy-populate-op-sharding-rules))"):
        with make_context():
            module = ir.Module.parse(text)
            run_pipeline(module, parse_pipeline(pipeline))
            outputs.append(str(module))
    assert outputs[0] == outputs[1]
    assert outputs[0].count("sdy.sharding_rule") == 2


def test_every_registered_pass_has_a_name_summary_and_documented_options():
    for name, cls in all_passes().items():
        assert cls.argument == name and cls.summary
        for spec in cls.option_specs():
            assert spec.help, f"{name} option {spec.name} has no help"
