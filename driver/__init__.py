"""What pysdy-opt does with a source buffer: parse, run a pipeline, print, report diagnostics."""
