"""Slack-based priority backfilling (Talby & Feitelson 1999 §2).

Each waiting job may be delayed by at most its slack, ``(1 − p)·SF·AWT``; a
new job takes the cheapest schedule that respects every slack (the slack
pass: :mod:`~sweep.families.rigid._slack`, with every reading of the paper
it had to make). Parameters: :class:`~sweep.families.rigid._slack.SlackParams`,
whose defaults are the paper's §3.2 run.
"""

from __future__ import annotations

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.rigid import (
    HEURISTICS,
    SLACK,
    SlackParams,
    rigid_policy,
    run_loop,
    slack_pass,
    submit_order,
)


@jit(**NO_REFCOUNT)
def _run(jobs, state, aux):
    run_loop(jobs, state, aux, slack_pass, submit_order)


POLICY = rigid_policy("slack", kernel=_run, discipline=SLACK, params=SlackParams,
                      examples=({}, {"heuristic": "du", "slack_factor": 1.0}), reference=False)

__all__ = ["HEURISTICS", "POLICY", "SlackParams"]
