"""The ``whist`` command line (``main``), the terminal game (``terminal``) and
the review's words (``review``, ``table``): the top of the pipeline, free to
import every other subpackage.
"""

from .main import main

__all__ = ["main"]
