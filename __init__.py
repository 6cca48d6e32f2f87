"""pysdy: the Shardy (sdy) sharding pipeline for StableHLO, written in Python."""

__version__ = "0.1.0"


def explain(module_text: str, source_name: str = "<module>"):
    """Why each value of a StableHLO module is sharded as it is, and what its reshards cost (see `pysdy-explain`):
    a `pysdy.explanation.api.ModuleExplanation`, which prints as the summary and renders in a notebook."""
    from pysdy.explanation.api import explain as explain_module

    return explain_module(module_text, source_name)
