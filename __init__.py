"""pysdy: the Shardy (sdy) sharding pipeline for StableHLO, written in Python."""

__version__ = "0.1.0"
