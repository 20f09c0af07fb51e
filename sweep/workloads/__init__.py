"""Job streams: service-time distributions, arrival processes and trace readers.

Nothing here knows of Ray, Hydra, xarray or of any family.
"""
