"""The computer players: one module per family (``basic``, ``original``,
``hard``, ``rollout``, ``expert``, and ``ppot``, the original game's own
opponent as a yardstick), the stage-2 ``solver``, the registry in
``players``, the tools that measure and tune them (``arena``, ``tuning``),
and the coach that reviews a player's hands (``review``).

It imports only from ``generator.engine``.
"""
