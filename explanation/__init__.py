"""Why each value is sharded as it is, and what that costs: provenance, reshards, the text and HTML reports (`pysdy.explain` is the entry point)."""
