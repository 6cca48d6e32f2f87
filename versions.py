"""The jax/jaxlib lines pysdy supports and what differs between them: one row per line of what its bundled
Shardy, XLA and JAX do. Passes, the runtime and the JAX hook read the installed line's row; no other module
compares version numbers.
"""

from __future__ import annotations

import dataclasses
import functools
import importlib.metadata

from jaxlib import version as _jaxlib_version


@dataclasses.dataclass(frozen=True)
class JaxLine:
    """One jax/jaxlib release line (`0.12`) and the behaviours of its Shardy, XLA and JAX that pysdy follows."""

    line: tuple[int, int]
    tested: str  # the release of the line the tests ran on
    # --- the sdy dialect's shardings ---
    # A sharding's unreduced axes carry how they are to be reduced: `unreduced=max{...}` / `min{...}` (sum unwritten).
    unreduced_reduction_kinds: bool
    # Sharding equivalence counts unreduced axes: a sharding with some is not replicated, so two such
    # shardings on differently named meshes are not equivalent.
    equivalence_counts_unreduced_axes: bool
    # --- Shardy's export pipeline ---
    # `sdy-verify-unreduced-axes` runs before `sdy-insert-explicit-reshards`.
    verify_unreduced_axes: bool
    # `sdy-insert-explicit-reshards` has the `mark-partial-result-with-unreduced-axes` option.
    reshards_mark_partial_results_unreduced: bool
    # `sdy-export-pipeline` ends by inlining meshes (`sdy-inline-meshes`).
    export_inlines_meshes: bool
    # `sdy-insert-explicit-reshards` refuses a function argument or result with a maximal (single-device) sharding.
    explicit_reshards_refuse_maximal_func_shardings: bool
    # `enable-insert-explicit-collectives` runs `sdy-optimize-collectives` after `sdy-reshard-to-collectives`.
    optimize_collectives: bool
    # `sdy-inline-meshes` also inlines the meshes that collectives' `replica_groups` name (as `#stablehlo.mesh`).
    inline_meshes_in_replica_groups: bool
    # `sdy-insert-explicit-reshards` all-reduces a reduce's partial results with its body's reduction (`max`, `min`).
    all_reduce_follows_reduce_body: bool
    # ... but leaves those of a reduce of several inputs with a mixed body (an argmax) as they are, for
    # `sdy-convert-global-to-local` to gather and reduce again.
    mixed_reduce_left_unreduced: bool
    # The full `sdy-insert-explicit-reshards` leaves a reshape whose axes do not divide a factor they shard (overflow
    # axes) as it is when its operand and result shardings split its row-major elements alike as if every dimension
    # divided evenly (each axis after as many blocks on both sides, consecutive sub-axes merged; the same replicated
    # axes), for `sdy-resolve-permutation-factors` to reshard; before, it redistributed the axes as for any overflow.
    explicit_reshards_keep_reshapes_split_alike: bool
    # `sdy-reshard-to-collectives` leaves a reshard from or to a maximal mesh as it is (0.10 drops one between
    # maximal meshes and fails on one between a maximal sharding and a sharding with dimensions).
    reshards_keep_maximal_meshes: bool
    # `sdy-insert-explicit-reshards` moves the tensor operands of an op with a result on a maximal mesh (a host
    # callback, a reshard to a device) to its device, through replicated on the module's first mesh with axes, and
    # replicates its results there.
    reshards_around_single_device_ops: bool
    # `sdy-reshard-to-collectives` reshards a dimension whose input and output shardings both shard it but pad it to
    # different sizes only once it is empty: it all-gathers all of its axes (or all-to-alls them all out, and makes
    # no collective-permute meanwhile), then slices or all-to-alls the output's axes in, and plans up to three rounds
    # of collectives (not two); before, it kept a common prefix and gathered, sliced or permuted the rest in place.
    reshards_empty_unevenly_padded_dims: bool
    # With `keep-redundant-reshards`, a reshard changing only unreduced axes is not redundant (it is converted).
    redundant_reshards_compare_unreduced: bool
    # How `sdy-insert-func-call-reshards` treats unreduced axes of a call's or its callee's result sharding:
    # "ignored" (not compared), "compared" (differing ones need a reshard, even between replicated shardings) or
    # "left" (a result whose unreduced axes differ between the sides keeps the call's sharding, without a reshard).
    func_call_reshards_unreduced: str
    # `sdy-export-pipeline` names its dump after the partitioner's passes `after_partitioner_passes`, with or without
    # explicit collectives (before: `after_minimal_partitioner_with_global_shapes`, or with explicit collectives
    # `after_partitioner_with_global_shapes`).
    export_dump_names_partitioner_passes: bool
    # `sdy-propagate-to-func-results` also gives each result of the main function that has no sharding the sharding
    # of the value returned there (the main function's own result shardings stay); before, it skipped main.
    func_results_fill_main: bool
    # `sdy-propagate-to-func-results` takes no maximal (single-device) sharding from a returned value: a non-main
    # function's result loses its sharding there, a main function's result keeps its own.
    func_results_skip_maximal: bool
    # `sdy-resolve-single-device-sharding` exists: an op on a maximal mesh runs in a `stablehlo.if` on its device.
    resolve_single_device_sharding: bool
    # ... whose guard compares the `ui32` partition (or replica) id with a `ui32` constant; before, it converted the
    # id to `i64` and compared with an `i64` constant.
    single_device_guard_compares_ui32: bool
    # ... and a complex result gets complex zeros on the other devices; before, Shardy crashed making them.
    single_device_zeros_complex: bool
    # `sdy-per-instruction-partitioning` exists (pysdy selects its ops and refuses them: see the pass).
    per_instruction_partitioning: bool
    # ... with the `rng-bit-generator-unsafe` option.
    per_instruction_rng_option: bool
    # ... and partitions only the ops of the module's `@main` function (else of its first public function); before,
    # every function's.
    per_instruction_main_function_only: bool
    # `sdy-convert-global-to-local` has the `partition-count` and `replica-count` options.
    convert_global_to_local_device_counts: bool
    # ... and its `enable-rgv3` option is true by default.
    convert_global_to_local_rgv3_by_default: bool
    # ... and it records main's global argument and result shardings on the module (`sdy.parameters_shardings`,
    # `sdy.output_shardings`, meshes inlined, an unsharded one fully replicated).
    convert_global_to_local_records_main_shardings: bool
    # ... and reads a device's offsets along sliced dimensions from `i32` tables indexed by the `ui32` partition id;
    # before, from `i64` tables indexed by the partition id converted to `i64`.
    convert_global_to_local_slice_offsets_i32: bool
    # `sdy-convert-global-to-local` finishes the partial results of a dot or reduce that no sdy collective reads: an
    # all-reduce after it (a reduce's body copied), or, for a reduce of several results, a gather and a second reduce.
    convert_global_to_local_finishes_partial_results: bool
    # ... and, where a scatter's updates are split along its scatter dimensions, selects its operand on the first
    # device of each group by a scalar read from the device table; before, by that entry broadcast to the operand's
    # shape.
    convert_global_to_local_masks_by_scalar: bool
    # `sdy-convert-global-to-local` marks the device offsets it broadcasts over a gather's or scatter's indices
    # replicated (`sdy.sharding`); before, it left them unmarked.
    convert_global_to_local_marks_index_offsets: bool
    # `sdy-convert-global-to-local` sends a collective permute's parts where they belong also when its shardings name
    # sub-axes; before, it paired devices otherwise there, and its program put parts on the wrong devices (pysdy
    # pairs them right on every line).
    convert_global_to_local_permutes_sub_axes_right: bool
    # `sdy-convert-global-to-local` keeps a constant marked unreduced (partial sums of a whole value) on the first
    # device of each group, zeros on the others; before, every device kept it whole and their sum counted it once per
    # device (pysdy keeps it on one device on every line).
    convert_global_to_local_masks_partial_constants: bool
    # `sdy-resolve-permutation-factors` has the `partition-count` and `replica-count` options.
    permutation_factors_device_count_options: bool
    # `sdy-resolve-permutation-factors` has the `rng-bit-generator-unsafe` option.
    permutation_factors_rng_unsafe_option: bool
    # `sdy-resolve-permutation-factors` gives a sharded reverse's result the sharding on the mirrored mesh and reshards
    # it back after the op; before, it resharded the operand onto the mirrored mesh and gave the result the operand's
    # sharding.
    permutation_factors_reverse_result_mirrored: bool
    # `sdy-resolve-permutation-factors` leaves a pad dimension each device can compute from its own shard (without
    # communication) sharded, as it does slice dimensions, exchanges halos for the other pad and slice dimensions, and
    # handles reshapes; before, every other sharded pad or slice dimension was replicated and reshapes were left alone.
    permutation_factors_halo_pad_slice_reshape: bool
    # `sdy-resolve-permutation-factors` aborts on a pad whose operand has no sharding (when it checks whether its
    # dimensions need communication) and on a reshape of which only one side has a sharding (0.12 still aborts on
    # such reshapes and on some others; pysdy refuses every sharded reshape on both lines).
    permutation_factors_crash_on_missing_shardings: bool
    # `sdy-resolve-permutation-factors` leaves a `stablehlo.dynamic_update_slice` result's sharding where its operand
    # needs no reshard (pysdy refuses those); before, the result was resharded like any other tensor.
    permutation_factors_dus_result_follows_operand: bool
    # `sdy-pad-for-divisibility` runs on the module (before: on each function).
    pad_for_divisibility_on_module: bool
    # --- Shardy's import pipeline ---
    # `sdy-lift-inlined-meshes` has the `use-single-device-mesh-names` option.
    lift_meshes_single_device_names_option: bool
    # `sdy-propagation-pipeline` adds function data-flow edges before applying sharding constraints and sinks
    # them after, then imports function calls (rather than importing calls right after flattening).
    import_calls_after_func_edges: bool
    # `sdy-apply-sharding-constraints` looks up the module's `@main` function and aborts when there is none.
    apply_sharding_constraints_needs_main: bool
    # `sdy-apply-sharding-constraints` treats a function data-flow edge (`sdy.func_data_flow_edge`) as a data-flow
    # target: a constraint on it, or a manual computation's in_sharding, stays a constraint its uses go through (before,
    # the edge took the sharding).
    apply_sharding_constraints_func_edges_are_targets: bool
    # `sdy-apply-sharding-constraints` treats a value whose sharding has every dimension open and empty, and no
    # replicated or unreduced axes, as a value without a sharding: a constraint on it still applies (and so on a
    # result of an op with several results whose sharding has no dimensions, nor replicated or unreduced axes).
    apply_sharding_constraints_overrides_open_shardings: bool
    # `sdy-drop-sharding-and-mesh` keeps the meshes that are still referenced.
    drop_sharding_keeps_referenced_meshes: bool
    # `sdy-drop-sharding-and-mesh` has the `keep-module-sharding-metadata` option.
    drop_sharding_keep_metadata_option: bool
    # --- Shardy's op sharding rules ---
    # A dimension `stablehlo.dynamic_update_slice` updates in part has permutation factors on both sides (the
    # operand/result one and the update one), whatever the start indices; before, the operand's passed through and
    # the update's needed replication unless every start index was a constant.
    dynamic_update_slice_permutes_sliced_dims: bool
    # `stablehlo.pad` has a permutation factor on every dimension with any padding (low, high or interior), even
    # one whose size is unchanged; before, only on dimensions whose size changed.
    pad_permutes_every_padded_dim: bool
    # `stablehlo.reshape`'s size-1 dimensions get need-replication factors (before: pass-through ones).
    reshape_size_one_dims_need_replication: bool
    # Where `stablehlo.reshape`'s walk over both shapes first finds aligned dimensions sharing no factor, it gives
    # them one permutation factor (of the operand's size) and the factors each side then has alone need
    # replication; before, each side got pass-through factors of its own there.
    reshape_permutes_diverging_dims: bool
    # Custom calls to `TopK` get the rule of `mhlo.topk` (before, `TopK` was unknown to the registry).
    top_k_custom_call_has_rule: bool
    # `stablehlo.if` is a data-flow op like `stablehlo.case` (its results are edge owners, its branches' returns
    # their sources), so the registry knows it as an op without a rule (no "unknown to SDY sharding rule registry"
    # warning).
    if_is_data_flow_op: bool
    # A `stablehlo.convolution` spatial factor (number of windows, or window size) that nothing is left of the
    # input dimension for is kept, as a permutation factor of its full size on the output (or kernel) alone;
    # before, it was left out.
    convolution_keeps_spatial_factors_beyond_input: bool
    # With `debug-sharding-origins`, a manual computation without any data-flow edge gets its origin name but gives
    # no origins, to its operands or anything its results reach; before, jaxlib crashed there (as 0.12 does on one
    # with only some of its edges), and pysdy refuses it.
    origins_skip_manual_computations_without_edges: bool
    # `sdy-sink-data-flow-edges` with debug info gives every data-flow edge of an op an entry (empty when the edge
    # recorded nothing); before, edges without info added none.
    sink_debug_info_of_every_edge: bool
    # --- the sdy dialect's verifier ---
    # A sharding on a mesh without axes is a "single-device sharding" in the verifier's messages (not "maximal").
    verifier_says_single_device_sharding: bool
    # The verifier accepts `sdy.propagation_edges` on an `sdy.data_flow_edge` that name its edge's other sources
    # (`operand-1`, ...), as debug propagation records them on a while's edges; before, only its one operand.
    verifier_accepts_edge_sources_beyond_operands: bool
    # --- XLA's GSPMD import (`xla-sdy-stablehlo-import-pipeline`) ---
    # `{maximal device=N}` imports onto a mesh named `single_device_N` (else `maximal_mesh_N`).
    xla_import_single_device_mesh_names: bool
    # --- XLA's GSPMD export (`xla-sdy-stablehlo-export-pipeline`) ---
    # An `sdy.reshard` from a maximal sharding to a replicated one (no dim axes, no unreduced axes, or no
    # sharding), or from a replicated one to a maximal one, is dropped rather than exported as `@Sharding`.
    xla_export_drops_maximal_replicated_reshards: bool
    # XLA's `xla-sdy-stablehlo-export-manual-reduction-collectives` pads a dimension the shardings of an unreduced
    # reduction (or of a move to unreduced axes) do not divide, with the reduction's identity, to a multiple of its
    # shard counts, and slices the result back; before, it aborted (pysdy refuses).
    xla_export_pads_non_divisible_unreduced_collectives: bool
    # XLA's StableHLO-HLO translation keeps an unreduced sharding's reduction as a metadata entry
    # `{op_type="sdy::reduction_op" op_name="SUM"}`, adding it (SUM) where the sharding has none.
    xla_translation_records_unreduced_reduction: bool
    # XLA's HloSharding parser rejects a device list whose length is not the tile shape's product.
    xla_parser_checks_device_count: bool
    # XLA's CPU FFT fails at run time on an operand whose batch dims are sharded (a layout RET_CHECK in
    # fft_thunk.cc), in plain jax.jit as through pysdy.
    xla_cpu_fft_fails_when_partitioned: bool
    # XLA's own import of an `mhlo.sharding` module (the tests' oracle for pysdy's import) crashes (signal 11) on
    # JAX's GSPMD lowering of an ordered io_callback beside a debug.print.
    xla_import_crashes_on_ordered_callbacks: bool

    @property
    def name(self) -> str:
        return f"{self.line[0]}.{self.line[1]}"

    def lit_features(self) -> set[str]:
        """The row as lit features: each true flag's name, and `<name>=<value>` for each other field."""
        features = set()
        for field in dataclasses.fields(self):
            if field.name in ("line", "tested"):
                continue
            value = getattr(self, field.name)
            if value is True:
                features.add(field.name)
            elif value is not False:
                features.add(f"{field.name}={value}")
        return features


# Each line as the changes from the one before.
_JAX_0_10 = JaxLine(
    line=(0, 10),
    tested="0.10.2",
    unreduced_reduction_kinds=False,
    equivalence_counts_unreduced_axes=False,
    verify_unreduced_axes=False,
    reshards_mark_partial_results_unreduced=False,
    export_inlines_meshes=False,
    explicit_reshards_refuse_maximal_func_shardings=False,
    optimize_collectives=False,
    inline_meshes_in_replica_groups=False,
    all_reduce_follows_reduce_body=False,
    mixed_reduce_left_unreduced=False,
    explicit_reshards_keep_reshapes_split_alike=False,
    reshards_keep_maximal_meshes=False,
    reshards_around_single_device_ops=False,
    reshards_empty_unevenly_padded_dims=False,
    redundant_reshards_compare_unreduced=False,
    func_call_reshards_unreduced="ignored",
    export_dump_names_partitioner_passes=False,
    func_results_fill_main=False,
    func_results_skip_maximal=False,
    resolve_single_device_sharding=False,
    single_device_guard_compares_ui32=False,
    single_device_zeros_complex=False,
    per_instruction_partitioning=False,
    per_instruction_rng_option=False,
    per_instruction_main_function_only=False,
    convert_global_to_local_device_counts=False,
    convert_global_to_local_rgv3_by_default=False,
    convert_global_to_local_records_main_shardings=False,
    convert_global_to_local_slice_offsets_i32=False,
    convert_global_to_local_finishes_partial_results=False,
    convert_global_to_local_masks_by_scalar=False,
    convert_global_to_local_masks_partial_constants=False,
    convert_global_to_local_marks_index_offsets=False,
    convert_global_to_local_permutes_sub_axes_right=False,
    permutation_factors_device_count_options=False,
    permutation_factors_rng_unsafe_option=False,
    permutation_factors_reverse_result_mirrored=False,
    permutation_factors_halo_pad_slice_reshape=False,
    permutation_factors_dus_result_follows_operand=False,
    permutation_factors_crash_on_missing_shardings=False,
    pad_for_divisibility_on_module=False,
    lift_meshes_single_device_names_option=False,
    import_calls_after_func_edges=False,
    apply_sharding_constraints_needs_main=False,
    apply_sharding_constraints_func_edges_are_targets=False,
    apply_sharding_constraints_overrides_open_shardings=False,
    drop_sharding_keeps_referenced_meshes=False,
    drop_sharding_keep_metadata_option=False,
    dynamic_update_slice_permutes_sliced_dims=False,
    pad_permutes_every_padded_dim=False,
    reshape_size_one_dims_need_replication=False,
    reshape_permutes_diverging_dims=False,
    top_k_custom_call_has_rule=False,
    if_is_data_flow_op=False,
    convolution_keeps_spatial_factors_beyond_input=False,
    origins_skip_manual_computations_without_edges=False,
    sink_debug_info_of_every_edge=False,
    verifier_says_single_device_sharding=False,
    verifier_accepts_edge_sources_beyond_operands=False,
    xla_import_single_device_mesh_names=False,
    xla_export_drops_maximal_replicated_reshards=False,
    xla_export_pads_non_divisible_unreduced_collectives=False,
    xla_translation_records_unreduced_reduction=False,
    xla_parser_checks_device_count=False,
    xla_cpu_fft_fails_when_partitioned=True,
    xla_import_crashes_on_ordered_callbacks=True,
)
# What jax 0.11 changed.
_JAX_0_11 = dataclasses.replace(
    _JAX_0_10,
    line=(0, 11),
    tested="0.11.2",
    xla_import_crashes_on_ordered_callbacks=False,
    unreduced_reduction_kinds=True,
    equivalence_counts_unreduced_axes=True,
    verify_unreduced_axes=True,
    reshards_mark_partial_results_unreduced=True,
    export_inlines_meshes=True,
    explicit_reshards_refuse_maximal_func_shardings=True,
    optimize_collectives=True,
    inline_meshes_in_replica_groups=True,
    all_reduce_follows_reduce_body=True,
    reshards_keep_maximal_meshes=True,
    reshards_around_single_device_ops=True,
    redundant_reshards_compare_unreduced=True,
    func_call_reshards_unreduced="compared",
    func_results_fill_main=True,
    func_results_skip_maximal=True,
    resolve_single_device_sharding=True,
    per_instruction_partitioning=True,
    convert_global_to_local_device_counts=True,
    convert_global_to_local_rgv3_by_default=True,
    convert_global_to_local_marks_index_offsets=True,
    convert_global_to_local_permutes_sub_axes_right=True,
    permutation_factors_device_count_options=True,
    permutation_factors_reverse_result_mirrored=True,
    permutation_factors_halo_pad_slice_reshape=True,
    permutation_factors_crash_on_missing_shardings=True,
    pad_for_divisibility_on_module=True,
    drop_sharding_keeps_referenced_meshes=True,
    dynamic_update_slice_permutes_sliced_dims=True,
    xla_translation_records_unreduced_reduction=True,
    xla_parser_checks_device_count=True,
    xla_export_pads_non_divisible_unreduced_collectives=True,
)
# What jax 0.12 changed.
_JAX_0_12 = dataclasses.replace(
    _JAX_0_11,
    line=(0, 12),
    tested="0.12.0.1",
    mixed_reduce_left_unreduced=True,
    explicit_reshards_keep_reshapes_split_alike=True,
    reshards_empty_unevenly_padded_dims=True,
    func_call_reshards_unreduced="left",
    export_dump_names_partitioner_passes=True,
    single_device_guard_compares_ui32=True,
    single_device_zeros_complex=True,
    convert_global_to_local_records_main_shardings=True,
    convert_global_to_local_slice_offsets_i32=True,
    convert_global_to_local_finishes_partial_results=True,
    convert_global_to_local_masks_by_scalar=True,
    convert_global_to_local_masks_partial_constants=True,
    per_instruction_rng_option=True,
    per_instruction_main_function_only=True,
    permutation_factors_rng_unsafe_option=True,
    permutation_factors_dus_result_follows_operand=True,
    permutation_factors_crash_on_missing_shardings=False,
    lift_meshes_single_device_names_option=True,
    import_calls_after_func_edges=True,
    apply_sharding_constraints_needs_main=True,
    apply_sharding_constraints_func_edges_are_targets=True,
    apply_sharding_constraints_overrides_open_shardings=True,
    drop_sharding_keep_metadata_option=True,
    pad_permutes_every_padded_dim=True,
    reshape_size_one_dims_need_replication=True,
    reshape_permutes_diverging_dims=True,
    top_k_custom_call_has_rule=True,
    if_is_data_flow_op=True,
    convolution_keeps_spatial_factors_beyond_input=True,
    origins_skip_manual_computations_without_edges=True,
    sink_debug_info_of_every_edge=True,
    verifier_says_single_device_sharding=True,
    verifier_accepts_edge_sources_beyond_operands=True,
    xla_import_single_device_mesh_names=True,
    xla_export_drops_maximal_replicated_reshards=True,
    xla_cpu_fft_fails_when_partitioned=False,
)
LINES = (_JAX_0_10, _JAX_0_11, _JAX_0_12)


class UnsupportedJaxlibError(RuntimeError):
    """The installed jaxlib is of a line pysdy has no row for."""


def installed_jaxlib_version() -> str:
    return _jaxlib_version._version


@functools.cache
def installed() -> JaxLine:
    """The row of the installed jaxlib's line; raises UnsupportedJaxlibError for any other line."""
    text = installed_jaxlib_version()
    row = line_of(text)
    if row is not None:
        return row
    supported = ", ".join(row.name for row in LINES)
    raise UnsupportedJaxlibError(f"pysdy supports jaxlib {supported}; jaxlib {text} is installed")


def line_of(version: str) -> JaxLine | None:
    """The row of the line a jax or jaxlib version (`0.12.0.1`) belongs to; None for a line pysdy has no row for."""
    line = tuple(int(part) for part in version.split(".")[:2])
    return next((row for row in LINES if row.line == line), None)


def version_text() -> str:
    """pysdy's version and the jax/jaxlib it runs with (read from their metadata, without importing jax)."""
    from pysdy import __version__

    try:
        jax_version = importlib.metadata.version("jax")
    except importlib.metadata.PackageNotFoundError:
        jax_version = "not installed"
    try:
        row = installed()
        target = f"follows Shardy, XLA and JAX of the jax/jaxlib {row.name} line (tested with {row.tested})"
    except UnsupportedJaxlibError as error:
        target = str(error)
    return f"pysdy {__version__}: jax {jax_version}, jaxlib {installed_jaxlib_version()}; {target}"
