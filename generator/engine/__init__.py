"""The engine: the game of German Whist as the single source of truth.

Cards and decks, the specified PRNG and shuffle, rules and every variant,
a hand's state and what each seat observes, a whole game, and the trace
format. It imports nothing from the rest of ``generator``.
"""
