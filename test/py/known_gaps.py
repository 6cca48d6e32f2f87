"""Tests that fail on a jax line because pysdy does not follow that line's Shardy there yet.

Each is a strict xfail on that line (conftest.py): a fix makes it pass, and its entry must go. The reasons say what
differs; the README and the closing notes count them.
"""

from __future__ import annotations

PLANNER_0_12 = (
    "jax 0.12's reshard-to-collectives plans some reshards as a full all-gather then an all-slice where 0.10 and "
    "0.11 use a collective permute or a sub-axis gather; pysdy plans as 0.11 does"
)
ARGMAX_0_12 = (
    "jax 0.12's insert-explicit-reshards leaves an argmax-like reduce's partial results without an all-reduce "
    "(wrong values); pysdy refuses with an error on the reduce"
)
EMPTY_EDGES_0_12 = (
    "jax 0.12's sink-data-flow-edges writes an empty #sdy.propagation_edges<[]> that jaxlib's own parser rejects;"
    " pysdy refuses to write it"
)
FUNC_RESULTS = (
    "from jax 0.11, sdy-propagate-to-func-results copies any sharding of a returned value (open or replicated "
    "too) to the function's result; pysdy does not yet"
)
MAXIMAL_FUNC_SHARDINGS = (
    "from jax 0.11, insert-explicit-reshards refuses a single-device (maximal) sharding on a function argument or "
    "result, as pysdy does; random host-callback modules put such shardings on @main, and this test compares "
    "printed modules only"
)
ORIGINS_WITHOUT_EDGES = (
    "jax 0.12 records origins on a manual computation without data-flow edges (0.10 and 0.11 crash there); pysdy "
    "refuses them"
)
DUMP_NAMES_0_12 = (
    "jax 0.12's export pipeline names its second dump after_minimal_partitioner_with_global_shapes; pysdy writes "
    "after_partitioner_passes"
)
CALL_UNREDUCED = (
    "from jax 0.11, sdy-verify-unreduced-axes also reports a func.call whose argument's unreduced axes differ "
    "from the callee's; pysdy does not"
)

# jax line -> test id -> reason
KNOWN_GAPS: dict[str, dict[str, str]] = {
    "0.11": {
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[propagate-to-func-results-data_flow_edges]': FUNC_RESULTS,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[propagate-to-func-results-manual_computation]': FUNC_RESULTS,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[propagate-to-func-results-manual_computation_edge_priority]': FUNC_RESULTS,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[propagate-to-func-results-non_divisible_manual_computation]': FUNC_RESULTS,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[propagate-to-func-results-call_keys_by_shardings]': FUNC_RESULTS,
        'test/py/export/test_verify_unreduced_axes.py::test_pass_matches_cpp[30]': CALL_UNREDUCED,
        'test/py/import_/test_explicit_gather_scatter_batching.py::test_option_matches_hand_built_cpp_pipeline_on_cases[13-propagation]': FUNC_RESULTS,
        'test/py/import_/test_explicit_gather_scatter_batching.py::test_option_matches_hand_built_cpp_pipeline_on_cases[13-propagation-dedup]': FUNC_RESULTS,
        'test/py/propagation/test_propagation_random_modules.py::test_host_callback_modules_match_cpp[sdy-propagation-pipeline]': MAXIMAL_FUNC_SHARDINGS,
        'test/py/propagation/test_propagation_random_modules.py::test_host_callback_modules_match_cpp[sdy-propagation-pipeline,sdy-export-pipeline]': MAXIMAL_FUNC_SHARDINGS,
        'test/py/test_unregistered_dialect.py::test_pass_treats_unknown_ops_as_cpp_does[text26-sdy-propagate-to-func-results]': FUNC_RESULTS,
    },
    "0.12": {
        'test/py/export/test_explicit_reshards.py::test_pass_matches_cpp_on_jax_corpus[insert-reshards-full-default-argmax_and_argmin]': ARGMAX_0_12,
        'test/py/export/test_explicit_reshards.py::test_pass_matches_cpp_on_jax_corpus[export-pipeline-collectives-default-argmax_and_argmin]': ARGMAX_0_12,
        'test/py/export/test_explicit_reshards.py::test_pass_matches_cpp_on_jax_corpus[export-pipeline-collectives-default-slicing_padding_concat]': PLANNER_0_12,
        'test/py/export/test_explicit_reshards.py::test_pass_matches_cpp_on_jax_corpus[export-pipeline-collectives-cmv1-default-argmax_and_argmin]': ARGMAX_0_12,
        'test/py/export/test_explicit_reshards.py::test_pass_matches_cpp_on_jax_corpus[export-pipeline-collectives-cmv1-default-slicing_padding_concat]': PLANNER_0_12,
        'test/py/export/test_explicit_reshards.py::test_export_pipeline_with_collectives_matches_cpp_on_edge_case[non_divisible_and_three_axes-export-pipeline-collectives]': PLANNER_0_12,
        'test/py/export/test_explicit_reshards.py::test_export_pipeline_with_collectives_matches_cpp_on_edge_case[non_divisible_and_three_axes-export-pipeline-collectives-cmv1]': PLANNER_0_12,
        'test/py/export/test_explicit_reshards_random.py::test_pass_matches_cpp[export-input-export-with-collectives]': PLANNER_0_12,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[sink-data-flow-edges-debug-data_flow_edges]': EMPTY_EDGES_0_12,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[sink-data-flow-edges-debug-manual_computation]': EMPTY_EDGES_0_12,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[sink-data-flow-edges-debug-manual_computation_edge_priority]': EMPTY_EDGES_0_12,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[propagate-to-func-results-data_flow_edges]': FUNC_RESULTS,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[propagate-to-func-results-manual_computation]': FUNC_RESULTS,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[propagate-to-func-results-manual_computation_edge_priority]': FUNC_RESULTS,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[propagate-to-func-results-non_divisible_manual_computation]': FUNC_RESULTS,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[propagate-to-func-results-call_keys_by_shardings]': FUNC_RESULTS,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[export-pipeline-keep-rules-debug-data_flow_edges]': EMPTY_EDGES_0_12,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[export-pipeline-keep-rules-debug-manual_computation]': EMPTY_EDGES_0_12,
        'test/py/export/test_export_passes.py::test_pass_matches_cpp_on_edge_case[export-pipeline-keep-rules-debug-manual_computation_edge_priority]': EMPTY_EDGES_0_12,
        'test/py/export/test_export_passes.py::test_export_pipeline_dumps_match_cpp[transformer_block_grad-]': DUMP_NAMES_0_12,
        'test/py/export/test_export_passes.py::test_export_pipeline_dumps_match_cpp[scan_over_layers_grad-]': DUMP_NAMES_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[7]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[9]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[11]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[16]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[17]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[18]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[24]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[27]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[30]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[32]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[38]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[41]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[44]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[45]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[49]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[59]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[61]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[63]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[64]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[65]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[73]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[76]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[78]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[79]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[81]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[83]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[93]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[97]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[98]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[104]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[106]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[110]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[111]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[112]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[115]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[118]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[129]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[133]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[135]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[142]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[150]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[151]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[156]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[157]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[163]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[166]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[170]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[175]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[182]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[186]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[189]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[192]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[195]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[210]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[213]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[216]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[217]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[218]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[221]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[223]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[227]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[236]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[238]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[244]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[248]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[249]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[251]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[253]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[257]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[261]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[262]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[263]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[265]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[268]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[271]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[274]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[276]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[279]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[286]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_matches_cpp[293]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[7]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[9]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[11]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[16]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[17]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[18]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[24]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[27]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[30]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[32]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[38]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[41]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[44]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[45]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[49]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[59]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[61]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[63]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[64]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[65]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[73]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[76]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[78]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[79]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[81]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[83]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[93]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[97]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_random_reshard_kept_or_converted_as_cpp[98]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_reshard_matches_cpp_on_jax_corpus[slicing_padding_concat-func.func(sdy-reshard-to-collectives)]': PLANNER_0_12,
        'test/py/export/test_reshard_to_collectives.py::test_reshard_matches_cpp_on_jax_corpus[slicing_padding_concat-func.func(sdy-reshard-to-collectives{keep-redundant-reshards=true})]': PLANNER_0_12,
        'test/py/export/test_verify_unreduced_axes.py::test_pass_matches_cpp[30]': CALL_UNREDUCED,
        'test/py/import_/test_explicit_gather_scatter_batching.py::test_option_matches_hand_built_cpp_pipeline_on_cases[13-propagation]': FUNC_RESULTS,
        'test/py/import_/test_explicit_gather_scatter_batching.py::test_option_matches_hand_built_cpp_pipeline_on_cases[13-propagation-dedup]': FUNC_RESULTS,
        'test/py/propagation/test_apply_constraints_debug_info.py::test_origins_refused_on_manual_computation_without_data_flow_edges': ORIGINS_WITHOUT_EDGES,
        'test/py/propagation/test_debug_info.py::test_origins_refused_on_manual_computation_without_edges[sdy-basic-propagate-origins]': ORIGINS_WITHOUT_EDGES,
        'test/py/propagation/test_debug_info.py::test_origins_refused_on_manual_computation_without_edges[sdy-basic-propagate-both]': ORIGINS_WITHOUT_EDGES,
        'test/py/propagation/test_debug_info.py::test_origins_refused_on_manual_computation_without_edges[sdy-aggressive-propagate-origins]': ORIGINS_WITHOUT_EDGES,
        'test/py/propagation/test_debug_info.py::test_origins_refused_on_manual_computation_without_edges[sdy-aggressive-propagate-both]': ORIGINS_WITHOUT_EDGES,
        'test/py/propagation/test_debug_info.py::test_origins_refused_on_manual_computation_without_edges[sdy-op-priority-propagate-origins]': ORIGINS_WITHOUT_EDGES,
        'test/py/propagation/test_debug_info.py::test_origins_refused_on_manual_computation_without_edges[sdy-op-priority-propagate-both]': ORIGINS_WITHOUT_EDGES,
        'test/py/propagation/test_debug_info.py::test_origins_refused_on_manual_computation_without_edges[sdy-user-priority-propagate-origins]': ORIGINS_WITHOUT_EDGES,
        'test/py/propagation/test_debug_info.py::test_origins_refused_on_manual_computation_without_edges[sdy-user-priority-propagate-both]': ORIGINS_WITHOUT_EDGES,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[mlp_grad_with_remat-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[scan_over_layers-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[scan_over_layers_grad-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[while_loop_power_iteration-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[cond_branches-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[shard_map_psum-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[shard_map_all_gather-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[shard_map_ppermute-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[shard_map_all_to_all-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[shard_map_psum_scatter_and_axis_index-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[shard_map_inside_jit_mixed-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[jitted_calls_inside_and_outside_shard_map-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[linalg_solve_lu-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[random_dropout_threefry-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_debug_info.py::test_export_sinks_recorded_info[io_callback_in_loop-export_pipeline]': EMPTY_EDGES_0_12,
        'test/py/propagation/test_propagation_random_modules.py::test_host_callback_modules_match_cpp[sdy-propagation-pipeline]': MAXIMAL_FUNC_SHARDINGS,
        'test/py/propagation/test_propagation_random_modules.py::test_host_callback_modules_match_cpp[sdy-propagation-pipeline,sdy-export-pipeline]': MAXIMAL_FUNC_SHARDINGS,
        'test/py/test_unregistered_dialect.py::test_pass_treats_unknown_ops_as_cpp_does[text26-sdy-propagate-to-func-results]': FUNC_RESULTS,
    },
}
