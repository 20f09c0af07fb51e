"""EASY backfilling (Lifka 1995; Mu'alem & Feitelson 2001 §2): the queue's heads start while they
fit; the first that does not gets a reservation at the shadow time, the earliest instant
enough processors are free for it if every running job runs its requested time; a later job
starts now if it fits and either ends by the shadow time or uses only the extra processors,
those the head will not need then."""

from __future__ import annotations

from sweep.testing.naive.rigid import Machine, free_at, rigid_pass


@rigid_pass("easy")
def easy(m: Machine) -> None:
    """FCFS's heads, then backfilling around the reservation of the first job that waits."""
    m.start_heads()
    if not m.queue:
        return
    t, head, holding = m.t, m.queue[0], m.holding()
    shadow = min(s for s in {t} | {e for _, e, _ in holding}
                 if free_at(s, m.P, holding) >= m.procs[head] and s >= t)
    extra = free_at(shadow, m.P, holding) - m.procs[head]
    for j in list(m.queue[1:]):
        if m.procs[j] > m.free_now():
            continue
        if t + m.req[j] <= shadow or m.procs[j] <= extra:
            if t + m.req[j] > shadow:
                extra -= m.procs[j]
            m.begin(j)
