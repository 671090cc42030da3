"""The targets: what builds, runs or receives a hex. The firmware build and
``.arduboy`` package, the emulator driver, cross-tests, thinking time,
screenshots and benchmarks, and the device side (Intel HEX, the uploader,
the serial link to a running game, the live sources of the review).

It may import from ``engine``, ``ai`` and ``codegen``; only the command line
imports it.
"""
