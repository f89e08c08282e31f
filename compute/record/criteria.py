"""When a simulated value agrees with the exact one: the single criterion of the pages, the build and the tests."""

SIMULATION_Z = 4.0
"""A simulated value agrees with the exact value when it lies within this many standard errors of it (a
correct simulation lands farther away about once in 15,000 checks)."""
