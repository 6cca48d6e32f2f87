"""Conversions between Shardy shardings and XLA's GSPMD shardings (HloSharding, `mhlo.sharding`)."""
