"""Whist for Arduboy: the Python reference engine and the firmware generator.

The pipeline, each stage a subpackage that imports only the ones above it:

    engine   -> the game itself: cards, PRNG, rules and variants, state, trace
    ai       -> the computer players, the stage-2 solver, arena and tuning
    codegen  -> C++ rendered from the engine and the AI, sprites from assets/
    targets  -> the firmware build, the emulator, cross-tests, the uploader
    cli      -> the ``whist`` command line and the terminal game
"""

__version__ = "0.1.0"
