"""The rigid passes' slow references, one module each, registered by name with
:func:`sweep.testing.naive.rigid.rigid_pass`; every module here is imported when a pass is
first looked up (:func:`sweep.testing.naive.rigid.pass_named`), so a new pass's reference is a
new file here."""
