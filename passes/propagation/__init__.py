"""Sharding propagation: the op sharding rules and the passes that use them."""
