"""Rule of stablehlo.convolution: batch, spatial (windows x window size), feature and group factors."""

from jaxlib.mlir.dialects import stablehlo

from pysdy import versions
from pysdy.dialects.sdy import FactorKind
from pysdy.passes.propagation.rules.builder import NO_DIM, RuleBuilder, shape_of
from pysdy.passes.propagation.rules.registry import rule_for


def _int_attr(op, name: str, default: int) -> int:
    return op.attributes[name].value if name in op.attributes else default


@rule_for("stablehlo.convolution")
def convolution(op, conservative):
    numbers = stablehlo.ConvDimensionNumbers(op.attributes["dimension_numbers"])
    lhs_shape, rhs_shape = shape_of(op.operands[0]), shape_of(op.operands[1])
    out_shape = shape_of(op.results[0])
    batch_groups = _int_attr(op, "batch_group_count", 1)
    feature_groups = _int_attr(op, "feature_group_count", 1)
    lhs_batch, lhs_feature = numbers.input_batch_dimension, numbers.input_feature_dimension
    rhs_in_feature = numbers.kernel_input_feature_dimension
    rhs_out_feature = numbers.kernel_output_feature_dimension
    out_batch, out_feature = numbers.output_batch_dimension, numbers.output_feature_dimension
    builder = RuleBuilder.for_op(op)

    # With groups, the lhs batch (or feature) dim is split into a group factor
    # and a per-group factor; a per-group factor of size 1 is left off it.
    per_group_batch = out_shape[out_batch]
    if batch_groups > 1:
        builder.add_factor([lhs_batch, rhs_out_feature], [out_feature], batch_groups)
    batch_in_lhs = lhs_batch if batch_groups == 1 or per_group_batch != 1 else NO_DIM
    builder.add_factor([batch_in_lhs, NO_DIM], [out_batch], per_group_batch)

    if not conservative:
        for lhs_dim, rhs_dim, out_dim in zip(
            numbers.input_spatial_dimensions,
            numbers.kernel_spatial_dimensions,
            numbers.output_spatial_dimensions,
        ):
            _add_spatial_factors(builder, lhs_dim, rhs_dim, out_dim, lhs_shape[lhs_dim],
                                 rhs_shape[rhs_dim], out_shape[out_dim])

    per_group_in_feature = rhs_shape[rhs_in_feature]
    if feature_groups > 1:
        builder.add_factor([lhs_feature, rhs_out_feature], [out_feature], feature_groups)
    feature_in_lhs = lhs_feature if feature_groups == 1 or per_group_in_feature != 1 else NO_DIM
    builder.add_factor([feature_in_lhs, rhs_in_feature], [NO_DIM], per_group_in_feature,
                       FactorKind.REDUCTION)

    # Unlike the other factors, the output feature one is left out unless larger than 1.
    per_group_out_feature = out_shape[out_feature] // (batch_groups * feature_groups)
    if per_group_out_feature > 1:
        builder.add_factor([NO_DIM, rhs_out_feature], [out_feature], per_group_out_feature)
    return builder.build()


def _add_spatial_factors(builder, lhs_dim, rhs_dim, out_dim, lhs_size, window_size, num_windows):
    """Splits an input spatial dim into a number-of-windows factor (shared with the
    output, a permutation) and a window-size factor (shared with the kernel, a
    reduction); the larger one is major. Each is capped by what is left of the
    input size; one that this leaves of size 1 is dropped (from jaxlib 0.12 on,
    kept whole on the output or kernel alone, as a permutation)."""
    remaining = lhs_size
    keep_beyond_input = versions.installed().convolution_keeps_spatial_factors_beyond_input

    def add(full_size: int, in_kernel: bool) -> None:
        nonlocal remaining
        size = min(remaining, full_size)
        if size > 1:
            if in_kernel:
                builder.add_factor([lhs_dim, rhs_dim], [NO_DIM], size, FactorKind.REDUCTION)
            else:
                builder.add_factor([lhs_dim, NO_DIM], [out_dim], size, FactorKind.PERMUTATION)
            remaining //= size
        elif full_size > 1 and keep_beyond_input:
            if in_kernel:
                builder.add_factor([NO_DIM, rhs_dim], [NO_DIM], full_size, FactorKind.PERMUTATION)
            else:
                builder.add_factor([NO_DIM, NO_DIM], [out_dim], full_size, FactorKind.PERMUTATION)

    if num_windows >= window_size:
        add(num_windows, in_kernel=False)
        add(window_size, in_kernel=True)
    else:
        add(window_size, in_kernel=True)
        add(num_windows, in_kernel=False)
