"""Exceptions that name the culprit and the fix."""


class BenchError(Exception):
    """Base class of every error bench raises on purpose."""


class ParameterError(BenchError, ValueError):
    """A task parameter was unknown or had a value outside what the task allows."""


class SelectorError(BenchError, ValueError):
    """A task selector named no installed family or task."""


class PluginError(BenchError):
    """A plugin failed to import, register or validate."""


class GenerationError(BenchError):
    """A task could not produce a valid item (its generator or its verify checks failed)."""


class VerifyDisagreement(GenerationError):
    """Verify rejected an item its generator had accepted: a bug in the task, never retried."""


class DatasetError(BenchError):
    """A dataset directory is missing, unreadable or inconsistent."""
