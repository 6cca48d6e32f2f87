"""The one error the runtime raises for input a user can fix: wrong inputs, too few devices, a module it cannot run."""


class RuntimeInputError(Exception):
    """A problem with the module, its inputs or the devices, worded for the person running it."""
