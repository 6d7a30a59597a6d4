"""Drivers that play the referee session without a table: the seeded simulated table
(:mod:`companion.sim.autoplay`), ``noah-companion demo`` (:mod:`companion.sim.demo`), the crash
drill (:mod:`companion.sim.crashdrill`) and the session benchmark (:mod:`companion.sim.bench`).

They use :mod:`companion.session` exactly as the app does; nothing in ``companion.session``
imports them.
"""
