"""Compiling and running partitioned modules on N devices through jaxlib's PJRT client."""
