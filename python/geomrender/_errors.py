"""The exceptions geomrender raises: one base class, one subclass per stage.

The message is the one the ``geomrender`` CLI prints for the same input.
"""


class GeomrenderError(Exception):
    """Base class of every error geomrender raises."""


class OptionError(GeomrenderError, ValueError):
    """A keyword argument out of range or of the wrong kind (format, backend, size,
    threads, batch, shard, errors)."""


class GenerateError(GeomrenderError, ValueError):
    """Generation options out of range (count, depth, probabilities, task options)."""


class VariantError(GeomrenderError, ValueError):
    """A variant SPEC, axis or value that is not valid, or a variant that cannot be made."""


class SceneError(GeomrenderError, ValueError):
    """A Scene or Problem (dict or JSON line) that breaks its contract."""


class RenderError(GeomrenderError, RuntimeError):
    """A backend that could not draw or encode an image."""


class ScoreError(GeomrenderError, ValueError):
    """Scoring inputs that cannot be read or scored."""


class GeomrenderWarning(UserWarning):
    """A variant a Stream could not make (the stream goes on without it)."""
