"""Shardy's export passes, which turn propagated IR into the form partitioners and users expect."""
