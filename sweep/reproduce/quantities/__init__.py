"""The quantities claims compute from Datasets, by name (docs/design.md §9).

A quantity is a function ``(datasets, **args) -> DataArray`` registered with
:func:`quantity`; ``datasets`` maps preset names to their Datasets, ``args``
come from the claim's record. It returns one value per remaining label with
its confidence interval as ``low``/``high`` coordinates
(:func:`sweep.analysis.confidence_interval`, :func:`sweep.analysis.ratio`).
A quantity that makes calls of its own on the data (a sign test, an order read
from intervals) may take ``strict: bool`` and, when true, make each call as a
marginal verdict is judged (:attr:`sweep.reproduce.claims.Judgement.marginal`).
Every module of this package and of every paper's package (:mod:`sweep.papers`) is
imported on first use, so a paper's own quantities live in its package
(``sweep/papers/<key>/quantities.py``) and are found without a list.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable, Mapping

import xarray as xr

from sweep.config.files import paper_modules

Quantity = Callable[..., xr.DataArray]


class _Registry(dict):
    """Name -> quantity; fills itself by importing every module of the package once."""

    _loaded = False

    def _load(self) -> None:
        if not self._loaded:
            type(self)._loaded = True
            for module in pkgutil.iter_modules(__path__):
                importlib.import_module(f"{__name__}.{module.name}")
            for module in paper_modules():
                importlib.import_module(module)

    def __contains__(self, name: object) -> bool:
        self._load()
        return super().__contains__(name)

    def __getitem__(self, name: str) -> Quantity:
        self._load()
        return super().__getitem__(name)

    def __iter__(self):
        self._load()
        return super().__iter__()


QUANTITIES: Mapping[str, Quantity] = _Registry()


def quantity(function: Quantity) -> Quantity:
    """Register ``function`` under its name."""
    if dict.__contains__(QUANTITIES, function.__name__):
        raise ValueError(f"quantity {function.__name__!r} is registered twice")
    dict.__setitem__(QUANTITIES, function.__name__, function)
    return function
