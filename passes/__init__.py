"""pysdy's passes: every sdy and xla-sdy pass, written in Python, and the registry that names them."""
