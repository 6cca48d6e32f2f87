"""Python values of the IR attributes pysdy reads and writes; no passes live here."""
