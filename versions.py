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
    # --- Shardy's import pipeline ---
    # `sdy-lift-inlined-meshes` has the `use-single-device-mesh-names` option.
    lift_meshes_single_device_names_option: bool
    # `sdy-propagation-pipeline` adds function data-flow edges before applying sharding constraints and sinks
    # them after, then imports function calls (rather than importing calls right after flattening).
    import_calls_after_func_edges: bool
    # `sdy-drop-sharding-and-mesh` keeps meshes still referenced (and has `keep-module-sharding-metadata`).
    drop_sharding_keeps_referenced_meshes: bool
    drop_sharding_keep_metadata_option: bool
    # --- XLA's GSPMD import (`xla-sdy-stablehlo-import-pipeline`) ---
    # `{maximal device=N}` imports onto a mesh named `single_device_N` (else `maximal_mesh_N`).
    xla_import_single_device_mesh_names: bool
    # --- XLA's GSPMD export (`xla-sdy-stablehlo-export-pipeline`) ---
    # An `sdy.reshard` from a maximal sharding to a replicated one (no dim axes, no unreduced axes, or no
    # sharding), or from a replicated one to a maximal one, is dropped rather than exported as `@Sharding`.
    xla_export_drops_maximal_replicated_reshards: bool
    # XLA's StableHLO-HLO translation keeps an unreduced sharding's reduction as a metadata entry
    # `{op_type="sdy::reduction_op" op_name="SUM"}`, adding it (SUM) where the sharding has none.
    xla_translation_records_unreduced_reduction: bool
    # XLA's HloSharding parser rejects a device list whose length is not the tile shape's product.
    xla_parser_checks_device_count: bool
    # XLA's CPU FFT fails at run time on an operand whose batch dims are sharded (a layout RET_CHECK in
    # fft_thunk.cc), in plain jax.jit as through pysdy.
    xla_cpu_fft_fails_when_partitioned: bool

    @property
    def name(self) -> str:
        return f"{self.line[0]}.{self.line[1]}"


LINES = (
    JaxLine(
        line=(0, 10),
        tested="0.10.2",
        verify_unreduced_axes=False,
        reshards_mark_partial_results_unreduced=False,
        export_inlines_meshes=False,
        optimize_collectives=False,
        explicit_reshards_refuse_maximal_func_shardings=False,
        lift_meshes_single_device_names_option=False,
        import_calls_after_func_edges=False,
        drop_sharding_keeps_referenced_meshes=False,
        drop_sharding_keep_metadata_option=False,
        xla_import_single_device_mesh_names=False,
        xla_export_drops_maximal_replicated_reshards=False,
        xla_translation_records_unreduced_reduction=False,
        xla_parser_checks_device_count=False,
        xla_cpu_fft_fails_when_partitioned=True,
    ),
    JaxLine(
        line=(0, 11),
        tested="0.11.2",
        verify_unreduced_axes=True,
        reshards_mark_partial_results_unreduced=True,
        export_inlines_meshes=True,
        optimize_collectives=True,
        explicit_reshards_refuse_maximal_func_shardings=True,
        lift_meshes_single_device_names_option=False,
        import_calls_after_func_edges=False,
        drop_sharding_keeps_referenced_meshes=True,
        drop_sharding_keep_metadata_option=False,
        xla_import_single_device_mesh_names=False,
        xla_export_drops_maximal_replicated_reshards=False,
        xla_translation_records_unreduced_reduction=True,
        xla_parser_checks_device_count=True,
        xla_cpu_fft_fails_when_partitioned=True,
    ),
    JaxLine(
        line=(0, 12),
        tested="0.12.0.1",
        verify_unreduced_axes=True,
        reshards_mark_partial_results_unreduced=True,
        export_inlines_meshes=True,
        optimize_collectives=True,
        explicit_reshards_refuse_maximal_func_shardings=True,
        lift_meshes_single_device_names_option=True,
        import_calls_after_func_edges=True,
        drop_sharding_keeps_referenced_meshes=True,
        drop_sharding_keep_metadata_option=True,
        xla_import_single_device_mesh_names=True,
        xla_export_drops_maximal_replicated_reshards=True,
        xla_translation_records_unreduced_reduction=True,
        xla_parser_checks_device_count=True,
        xla_cpu_fft_fails_when_partitioned=False,
    ),
)


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
