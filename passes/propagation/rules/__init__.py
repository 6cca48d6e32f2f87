"""Op sharding rules, one module per op family; importing this package registers them all."""

import importlib
import pkgutil

from pysdy.passes.propagation.rules.registry import (  # noqa: F401  (the package's API)
    create_rule,
    get_or_create_rule,
    registered_op_names,
    rule_for,
)
from pysdy.passes.propagation.rules.custom_call import (  # noqa: F401  (the custom-call rule API)
    register_batch_partitionable,
    register_custom_call_rule,
    unregister_custom_call_rule,
)

for _module in pkgutil.iter_modules(__path__):
    if _module.name not in ("builder", "registry"):
        importlib.import_module(f"{__name__}.{_module.name}")
