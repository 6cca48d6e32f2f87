"""Rules of stablehlo.cholesky and triangular_solve: batch dims pass through, matrix dims need replication."""

from jaxlib.mlir.dialects import stablehlo

from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for

_REPLICATED = FactorKind.NEED_REPLICATION


@rule_for("stablehlo.cholesky")
def cholesky(op, conservative):
    shape = shape_of(op.a)
    num_batch_dims = len(shape) - 2
    return (
        RuleBuilder.for_op(op)
        .add_pointwise(shape, lambda dim: _REPLICATED if dim >= num_batch_dims else FactorKind.PASS_THROUGH)
        .build()
    )


@rule_for("stablehlo.triangular_solve")
def triangular_solve(op, conservative):
    a_shape = shape_of(op.a)
    b_shape = shape_of(op.b)
    row, col = len(a_shape) - 2, len(a_shape) - 1
    transpose_a = stablehlo.TransposeAttr(op.attributes["transpose_a"]).value
    a_transposed = transpose_a in ("TRANSPOSE", "ADJOINT")
    builder = RuleBuilder.for_op(op).add_pointwise(a_shape[:-2])
    if op.attributes["left_side"].value:
        # op(a) @ result = b
        a_free, a_contracted = (col, row) if a_transposed else (row, col)
        builder.add_factor([a_free, row], [NO_DIM], a_shape[a_free], _REPLICATED)
        builder.add_factor([NO_DIM, col], [col], b_shape[col], _REPLICATED)
        builder.add_factor([a_contracted, NO_DIM], [row], a_shape[a_contracted], _REPLICATED)
    else:
        # result @ op(a) = b
        a_free, a_contracted = (row, col) if a_transposed else (col, row)
        builder.add_factor([NO_DIM, row], [row], b_shape[row], _REPLICATED)
        builder.add_factor([a_free, col], [NO_DIM], a_shape[a_free], _REPLICATED)
        builder.add_factor([a_contracted, NO_DIM], [col], a_shape[a_contracted], _REPLICATED)
    return builder.build()
