"""Every game module; importing this package registers them all."""

from . import brisca  # noqa: F401
