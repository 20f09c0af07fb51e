"""A sweep's configuration, in one direction: compose -> typed settings -> design -> points.

:mod:`~sweep.config.compose` composes ``conf/config.yaml`` with the overrides
(Hydra's compose API) and checks the settings; :mod:`~sweep.config.schema`
makes the typed schemas from the code (sweep's own settings, and what every
family declares in its ``Family`` record: policies, workload kinds, systems,
nested workload sections); :mod:`~sweep.config.design` holds the sample
designs; :mod:`~sweep.config.grid` expands a composed config into the grid of
points the engine runs, each with its random stream (:mod:`~sweep.config.seeding`).
Below the engine and above the families: nothing here knows Ray, a runner or a
Dataset.
"""
