"""Slack-based priority backfilling (Talby & Feitelson 1999 §2).

Each waiting job may be delayed by at most its slack, ``(1 − p)·SF·AWT``; a
new job takes the cheapest schedule that respects every slack (the slack
pass: :mod:`~sweep.families.rigid._slack`, with every reading of the paper
it had to make). Parameters: :class:`~sweep.families.rigid._slack.SlackParams`,
whose defaults are the paper's §3.2 run.
"""

from __future__ import annotations

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.rigid import _core, _slack
from sweep.families.rigid._policy import rigid_policy
from sweep.families.rigid._slack import HEURISTICS, SlackParams


@jit(**NO_REFCOUNT)
def _run(jobs, state, aux):
    _core.run(jobs, state, aux, _slack.slack_pass, _core.submit_order)


POLICY = rigid_policy("slack", kernel=_run, discipline=_slack.SLACK, params=SlackParams,
                      examples=({}, {"heuristic": "du", "slack_factor": 1.0}), reference=False)

__all__ = ["HEURISTICS", "POLICY", "SlackParams"]
