"""Slow, obvious references of the compiled kernels, shared by sweep's tests and :mod:`sweep.testing`.

Plain Python, written from the documentation, sharing nothing with the kernels they check: these
exist to be read and trusted. :mod:`.rigid` is the references of the rigid passes, which any
rigid policy (a plugin's too) is compared with through ``RigidHooks.reference``; the references
of one family's own policies only stay in the repository's ``tests/naive/``.
"""
