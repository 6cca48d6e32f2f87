"""IR helpers shared by the passes: function attributes, value shardings, data-flow edges, manual axes, op walks, constants and function bodies."""
