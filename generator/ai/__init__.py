"""The computer players: one module per family (``basic``, ``original``,
``hard``), the stage-2 ``solver``, the registry in ``players``, the tools
that measure and tune them (``arena``, ``tuning``), and the coach that
reviews a player's hands (``review``).

It imports only from ``generator.engine``.
"""
