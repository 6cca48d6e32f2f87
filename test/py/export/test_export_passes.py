"""pysdy's export passes against jaxlib's C++ ones: same printed module on the JAX corpus (at the point of the real pipeline where each pass runs) and on hand-written edge cases."""

from __future__ import annotations

import pytest
from export_cases import ALL as CASES
from export_inputs import assert_same_output, corpus_before, pipeline_steps, print_after_pysdy, split_top_level
from jax_corpus import program_names
from line_side import when
from oracle import cpp_output, cpp_pass_pipeline

from pysdy import versions
from pysdy.passes.export.export_pipeline import ExportPipelinePass
from pysdy.passes.pipeline import NestedPipeline

# (the pass as a pipeline, the pass whose input in the propagation pipeline is
# this pass's input, the pipeline variants in which that point exists).
PASSES = {
    "sink-data-flow-edges": ("func.func(sdy-sink-data-flow-edges)", "sdy-sink-data-flow-edges", ("default", "dedup", "debug")),
    "sink-data-flow-edges-debug": (
        "func.func(sdy-sink-data-flow-edges{sink-debug-sharding-origins=true sink-debug-propagation-edge-sharding=true})",
        "sdy-sink-data-flow-edges",
        ("debug",),
    ),
    "sink-func-data-flow-edges": ("func.func(sdy-sink-func-data-flow-edges)", "sdy-sink-func-data-flow-edges", ("dedup",)),
    "close-shardings": ("sdy-close-shardings", "sdy-close-shardings", ("default", "dedup", "debug")),
    "constant-or-scalar-merger": ("func.func(sdy-constant-or-scalar-merger)", "sdy-constant-or-scalar-merger", ("default", "dedup", "debug")),
    "remove-sharding-groups": ("sdy-remove-sharding-groups", "sdy-remove-sharding-groups", ("default",)),
    "drop-sharding-rules": ("func.func(sdy-drop-sharding-rules)", "sdy-drop-sharding-rules", ("default", "debug")),
    "update-non-divisible": (
        "sdy-update-non-divisible-input-output-shardings",
        "sdy-update-non-divisible-input-output-shardings",
        ("default", "dedup"),
    ),
    "remove-sub-axes": (
        "sdy-remove-sub-axes-in-input-output-shardings",
        "sdy-remove-sub-axes-in-input-output-shardings",
        ("default", "dedup"),
    ),
    "remove-propagation-debug-info": ("sdy-remove-propagation-debug-info", None, ("debug",)),
    "unflatten-call-graph": ("sdy-unflatten-call-graph", "sdy-unflatten-call-graph", ("default", "dedup")),
    "unflatten-call-graph-fully": (
        "sdy-unflatten-call-graph{dedup-functions-fully=true}",
        "sdy-unflatten-call-graph",
        ("default", "dedup"),
    ),
    "export-named-computations": ("sdy-export-named-computations", "sdy-export-named-computations", ("default",)),
    "propagate-to-func-results": ("sdy-propagate-to-func-results", "sdy-propagate-to-func-results", ("default", "dedup")),
    "insert-func-call-reshards": ("sdy-insert-func-call-reshards", "sdy-insert-func-call-reshards", ("default", "dedup")),
    "export-pipeline-no-partitioning": (
        "sdy-export-pipeline{avoid-export-for-partitioning=true}",
        "sdy-constant-or-scalar-merger",
        ("default", "dedup", "debug"),
    ),
    "export-pipeline-keep-rules-debug": (
        "sdy-export-pipeline{avoid-export-for-partitioning=true keep-sharding-rules=true dump-sharding-origins=true dump-propagation-edges=true}",
        "sdy-constant-or-scalar-merger",
        ("debug",),
    ),
    "export-pipeline-divisible-untouched": (
        "sdy-export-pipeline{avoid-export-for-partitioning=true update-non-divisible-input-output-shardings=false}",
        "sdy-constant-or-scalar-merger",
        ("default",),
    ),
}

def _corpus_params(variants: tuple[str, ...]):
    params = []
    for key, (_, _, pass_variants) in PASSES.items():
        for variant in pass_variants:
            if variant in variants:
                params += [pytest.param(key, variant, program, id=f"{key}-{variant}-{program}") for program in program_names()]
    return params


def _check_corpus(key: str, variant: str, program: str) -> None:
    pipeline, before, _ = PASSES[key]
    inputs = corpus_before(variant, before)
    if program not in inputs:
        pytest.skip("jaxlib's C++ pipeline fails on this program in this mode")
    assert_same_output(inputs[program], pipeline)


@pytest.mark.parametrize("key, variant, program", _corpus_params(("default",)))
def test_pass_matches_cpp_on_jax_corpus(key, variant, program):
    _check_corpus(key, variant, program)


@pytest.mark.slow
@pytest.mark.parametrize("key, variant, program", _corpus_params(("dedup", "debug")))
def test_pass_matches_cpp_on_jax_corpus_other_pipeline_modes(key, variant, program):
    _check_corpus(key, variant, program)


@pytest.mark.parametrize("key, case", [(key, case) for key in PASSES for case in CASES])
def test_pass_matches_cpp_on_edge_case(key, case):
    assert_same_output(CASES[case], PASSES[key][0])


@pytest.mark.parametrize("key", list(PASSES))
def test_edge_cases_exercise_the_pass(key):
    """At least one hand-written case is changed by the C++ pass, so the agreement above means something."""
    changed = [
        case for case, text in CASES.items() if cpp_output(text, PASSES[key][0]) != cpp_output(text, "")
    ]
    assert changed


def test_corpus_inputs_follow_jaxlibs_propagation_pipeline():
    """The step list the inputs come from is jaxlib's, with export passes after propagation."""
    steps = pipeline_steps("default")
    propagate = next(i for i, s in enumerate(steps) if s.startswith("sdy-user-priority-propagate"))
    assert [s.split("{")[0] for s in steps[propagate + 1 : propagate + 6]] == [
        "sdy-export-named-computations",
        "sdy-propagate-to-func-results",
        "sdy-unflatten-call-graph",
        "symbol-dce",
        "sdy-insert-func-call-reshards",
    ]


def _step_text(step) -> str:
    if isinstance(step, NestedPipeline):
        return f"{step.anchor}({','.join(_step_text(s) for s in step.steps)})"
    return step.text()


@pytest.mark.parametrize(
    "options",
    [
        {},
        {"avoid_export_for_partitioning": True},
        {"enable_insert_explicit_collectives": True},
        {"enable_insert_explicit_collectives": True, "remove_all_gather_reduce_scatter_for_cmv1": True},
        {"remove_all_gather_reduce_scatter_for_cmv1": True},
        {"keep_sharding_rules": True},
        {"dump_sharding_origins": True},
        {"dump_propagation_edges": True},
        {"avoid_reshards_on_calls": True},
        {"update_non_divisible_input_output_shardings": False},
        {"avoid_export_for_partitioning": True, "update_non_divisible_input_output_shardings": False, "keep_sharding_rules": True},
    ],
    ids=lambda options: ",".join(options) or "defaults",
)
def test_export_pipeline_steps_are_jaxlibs(options):
    """pysdy's pipeline runs exactly the passes (and options) jaxlib's `sdy-export-pipeline` expands to,
    and dumps the module where jaxlib's expansion has `sdy-save-module`."""
    option_text = " ".join(f"{k.replace('_', '-')}={str(v).lower()}" for k, v in options.items())
    expected = cpp_pass_pipeline(f"sdy-export-pipeline{{{option_text}}}")
    texts = []
    for steps, dump_name in ExportPipelinePass(**options).stages():
        texts += map(_step_text, steps)
        if dump_name is not None:
            texts.append("sdy-save-module")
    # Parse pysdy's steps with jaxlib's parser to print them alike; the dump is not a parsable pass.
    dumps = [i for i, text in enumerate(texts) if text == "sdy-save-module"]
    passes = [text for text in texts if text != "sdy-save-module"]
    printed = cpp_pass_pipeline(",".join(passes))
    expected_passes = expected.replace(",sdy-save-module", "")
    assert printed == expected_passes
    assert _save_module_positions(expected) == dumps


def _save_module_positions(printed_pipeline: str) -> list[int]:
    """Indices of `sdy-save-module` among the top-level steps of a printed `builtin.module(...)` pipeline."""
    return [i for i, step in enumerate(split_top_level(printed_pipeline)) if step == "sdy-save-module"]


@pytest.mark.parametrize("options", ["", "avoid-export-for-partitioning=true", "enable-insert-explicit-collectives=true"])
@pytest.mark.parametrize("program", ["transformer_block_grad", "scan_over_layers_grad"])
def test_export_pipeline_dumps_match_cpp(program, options, tmp_path):
    """With `dump-directory`, the same files with the same modules as jaxlib's pipeline writes."""
    text = corpus_before("default", "sdy-constant-or-scalar-merger")[program]
    for side in ("cpp", "pysdy"):
        (tmp_path / side).mkdir()
    pipeline = "sdy-export-pipeline{%s dump-directory=%s}"
    assert_same_output(text, pipeline % (options, tmp_path / "cpp"), pipeline % (options, tmp_path / "pysdy"))
    cpp_files = sorted(path.name for path in (tmp_path / "cpp").iterdir())
    assert cpp_files and cpp_files == sorted(path.name for path in (tmp_path / "pysdy").iterdir())
    for name in cpp_files:
        assert (tmp_path / "pysdy" / name).read_text() == (tmp_path / "cpp" / name).read_text(), name


def _cpp_dump_names(collectives: bool, directory) -> list[str]:
    """The files jaxlib's export pipeline writes to `directory`, with or without explicit collectives."""
    text = corpus_before("default", "sdy-constant-or-scalar-merger")["mlp_forward"]
    cpp_output(text, f"sdy-export-pipeline{{enable-insert-explicit-collectives={str(collectives).lower()} dump-directory={directory}}}")
    return sorted(path.name for path in directory.iterdir())


@when("export_dump_names_partitioner_passes", False)
def test_cpp_names_the_partitioner_dump_after_global_shapes(tmp_path):
    """Before jax 0.12: after the minimal partitioner, or with explicit collectives the full one, on global shapes."""
    (tmp_path / "minimal").mkdir()
    (tmp_path / "collectives").mkdir()
    assert _cpp_dump_names(False, tmp_path / "minimal") == [
        "00.after_propagation.mlir",
        "01.after_minimal_partitioner_with_global_shapes.mlir",
    ]
    assert _cpp_dump_names(True, tmp_path / "collectives") == [
        "00.after_propagation.mlir",
        "01.after_explicit_reshards.mlir",
        "02.after_partitioner_with_global_shapes.mlir",
    ]


@when("export_dump_names_partitioner_passes")
def test_cpp_names_the_partitioner_dump_after_its_passes(tmp_path):
    """From jax 0.12: after_partitioner_passes, with or without explicit collectives."""
    (tmp_path / "minimal").mkdir()
    (tmp_path / "collectives").mkdir()
    assert _cpp_dump_names(False, tmp_path / "minimal") == [
        "00.after_propagation.mlir",
        "01.after_partitioner_passes.mlir",
    ]
    assert _cpp_dump_names(True, tmp_path / "collectives") == [
        "00.after_propagation.mlir",
        "01.after_explicit_reshards.mlir",
        "02.after_partitioner_passes.mlir",
    ]


def test_export_pipeline_dump_to_missing_directory_is_reported_not_fatal(tmp_path, capfd):
    """As in jaxlib: the directory is not created, each dump reports an error, the pipeline still succeeds."""
    text = corpus_before("default", "sdy-constant-or-scalar-merger")["mlp_forward"]
    missing = tmp_path / "missing"
    print_after_pysdy(text, f"sdy-export-pipeline{{dump-directory={missing}}}")
    errors = capfd.readouterr().err.splitlines()
    partitioner = (
        "after_partitioner_passes"
        if versions.installed().export_dump_names_partitioner_passes
        else "after_minimal_partitioner_with_global_shapes"
    )
    assert errors == [
        f"error when writing file {missing}/{name}.mlir: No such file or directory"
        for name in ("00.after_propagation", f"01.{partitioner}")
    ]
    assert not missing.exists()
