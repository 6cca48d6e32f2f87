"""Which ops without a rule Shardy warns about ("unknown to SDY sharding rule registry"), against the C++.

Shardy warns once per process, so each C++ run is in a fresh child process.
"""

import pytest
from jaxlib.mlir import ir, passmanager

from child_process import in_child_process
from pysdy.dialects.context import make_context
from pysdy.passes.diagnostics import warnings_to
from pysdy.passes.propagation.rules import registry
from pysdy.passes.propagation.rules.registry import get_or_create_rule

T = "tensor<8x4xf32>"

OPS = {
    "constant": f"%0 = stablehlo.constant dense<1.0> : {T}",
    "iota": f"%0 = stablehlo.iota dim = 0 : {T}",
    "partition_id": "%0 = stablehlo.partition_id : tensor<ui32>",
    "replica_id": "%0 = stablehlo.replica_id : tensor<ui32>",
    "after_all": "%0 = stablehlo.after_all : !stablehlo.token",
    "create_token": "%0 = stablehlo.create_token : !stablehlo.token",
    "tuple": f"%0 = stablehlo.tuple %a : tuple<{T}>",
    "optimization_barrier": f"%0 = stablehlo.optimization_barrier %a : {T}",
    "while": f"""%0 = stablehlo.while(%i = %a) : {T} cond {{
        %c = stablehlo.constant dense<true> : tensor<i1>
        stablehlo.return %c : tensor<i1> }} do {{ stablehlo.return %i : {T} }}""",
    "if": f"""%p = stablehlo.constant dense<true> : tensor<i1>
        %0 = "stablehlo.if"(%p) ({{ stablehlo.return %a : {T} }}, {{ stablehlo.return %a : {T} }}) : (tensor<i1>) -> {T}""",
    "case": f"""%i = stablehlo.constant dense<0> : tensor<i32>
        %0 = "stablehlo.case"(%i) ({{ stablehlo.return %a : {T} }}) : (tensor<i32>) -> {T}""",
    "get_dimension_size": f"%0 = stablehlo.get_dimension_size %a, dim = 0 : ({T}) -> tensor<i32>",
    "batch_norm_grad": f"""%s = stablehlo.constant dense<1.0> : tensor<4xf32>
        %0:3 = "stablehlo.batch_norm_grad"(%a, %s, %s, %s, %a) {{epsilon = 1.0e-3 : f32, feature_index = 1 : i64}}
          : ({T}, tensor<4xf32>, tensor<4xf32>, tensor<4xf32>, {T}) -> ({T}, tensor<4xf32>, tensor<4xf32>)""",
    "func_call": f"%0 = func.call @g(%a) : ({T}) -> {T}",
    "named_computation": f'%0 = sdy.named_computation<"foo">(%a) (%x: {T}) {{ sdy.return %x : {T} }} : ({T}) -> {T}',
    "sdy_all_reduce": f'%0 = sdy.all_reduce {{"x"}} %a out_sharding=<@m, [{{}}, {{}}]> : {T}',
    "sdy_reshard": f"%0 = sdy.reshard %a <@m, [{{}}, {{}}]> : {T}",
    "sdy_sharding_group": f"sdy.sharding_group %a group_id=0 : {T}",
    "propagation_barrier": f"%0 = sdy.propagation_barrier %a allowed_direction=NONE : {T}",
    "mhlo_abs": f"%0 = mhlo.abs %a : {T}",
    "chlo_erf": f"%0 = chlo.erf %a : {T} -> {T}",
    "elementwise_has_a_rule": f"%0 = stablehlo.abs %a : {T}",
}


def module_text(op_text: str) -> str:
    return f"""sdy.mesh @m = <["x"=2]>
func.func private @g(%a: {T}) -> {T} {{ return %a : {T} }}
func.func @f(%a: {T}) {{
  {op_text}
  return
}}"""


@in_child_process(fresh=True)
def cpp_warnings(text: str) -> list[str]:
    messages = []
    with make_context() as context:
        context.attach_diagnostic_handler(lambda d: (messages.append(d.message), True)[1])
        module = ir.Module.parse(text)
        passmanager.PassManager.parse("builtin.module(func.func(sdy-populate-op-sharding-rules))").run(module.operation)
    return messages


def pysdy_warnings(text: str, monkeypatch) -> list[str]:
    monkeypatch.setattr(registry, "_warned_about_unknown_op", False)
    messages = []
    with make_context(), warnings_to(lambda location, message: messages.append(message)):
        module = ir.Module.parse(text)

        def visit(op):
            get_or_create_rule(op)
            return ir.WalkResult.ADVANCE

        module.operation.walk(visit)
    return messages


@pytest.mark.parametrize("name", sorted(OPS))
def test_unknown_op_warning_matches_cpp(name, monkeypatch):
    text = module_text(OPS[name])
    assert pysdy_warnings(text, monkeypatch) == cpp_warnings(text)
