"""The engine: the game of German Whist as the single source of truth.

Cards and decks, the specified PRNG and shuffle, rules and every variant,
a hand's state and what each seat observes, a whole game, and the trace
format; and how every command reads a file it is given (``bounded``: regular
files within what their kind holds, lines within their longest, quotes cut
short), which every later stage shares. It imports nothing from the rest of
``generator``.
"""
