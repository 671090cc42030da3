"""The computer players: one module per family (``basic``, ``original``,
``hard``), the stage-2 ``solver``, the registry in ``players``, and the tools
that measure and tune them (``arena``, ``tuning``).

It imports only from ``generator.engine``.
"""
