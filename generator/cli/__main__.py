"""``python -m generator.cli``: the same as the ``whist`` command."""

from .main import main

main()
