"""References of sweep's own policies, one module per policy, found without a list.

Every module here is imported when :mod:`sweep.testing.naive` is, and registers its policy's
reference with :func:`sweep.testing.naive.reference` in its family's form (the family's module of
:mod:`sweep.testing.naive` says which): adding a policy to sweep adds a file here, edits none. The
references written before this folder existed stay in their family's module. A plugin registers
its policy's reference in its own module instead (docs/plugins.md).
"""
