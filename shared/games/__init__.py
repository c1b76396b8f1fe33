"""Every game module of this package; importing the package registers them all."""

import importlib
import pkgutil

from shared.engine.game import registered

for _module in pkgutil.iter_modules(__path__):
    if not _module.name.startswith("_"):
        importlib.import_module(f"{__name__}.{_module.name}")

# TRANSITIONAL: the games not converted yet get their event declarations from one package
# (a file per game); the last conversion deletes it and these two lines.
from ._unconverted import adopt  # noqa: E402

adopt(registered())
