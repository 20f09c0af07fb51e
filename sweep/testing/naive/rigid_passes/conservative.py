"""Conservative backfilling (Mu'alem & Feitelson 2001 §2): every job gets a reservation when it
arrives, the earliest start that delays no earlier reservation; when a job ends early, every
waiting job's reservation is made again, in queue order, and a job starts when its
reservation comes. The queue stays in submit order."""

from __future__ import annotations

from sweep.testing.naive.rigid import Machine, earliest, rigid_pass


def _reserved(m: Machine, but: int | None = None) -> list[tuple[float, float, int]]:
    """What the reservations hold (``but`` the one of that job)."""
    return [(m.resv[k], m.resv[k] + m.req[k], m.procs[k]) for k in m.resv if k != but]


@rigid_pass("conservative")
def conservative(m: Machine) -> None:
    """Reservations moved earlier after a completion, then made for the jobs arrived, then the
    jobs whose reservation is now started."""
    holding = m.holding()
    if m.finished:
        for j in m.queue:
            if j in m.resv:
                m.resv[j] = earliest(m.t, m.req[j], m.procs[j], m.P, holding + _reserved(m, but=j))
    for j in m.arrived:
        m.resv[j] = m.booked[j] = earliest(m.t, m.req[j], m.procs[j], m.P, holding + _reserved(m))
    for j in [k for k in m.queue if m.resv[k] == m.t]:
        m.begin(j)
        del m.resv[j]
