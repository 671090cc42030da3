"""The ``whist`` command line (``main``) and the terminal game (``terminal``):
the top of the pipeline, free to import every other subpackage.
"""

from .main import main

__all__ = ["main"]
