"""Whist for Arduboy: the Python reference engine and the firmware generator.

The engine (cards, prng, rules, scoring, state, game, trace) is the source of
truth; the code generator turns its definitions into C++ for the ATmega32u4.
"""

__version__ = "0.1.0"
