"""The gang family's one loop (CSSE00 §3.3.1, §3.3.3): slices, period boundaries, rebuilds.

Each slice every PE runs, tick by tick, the slot's own task if ready, else
its local pick (``_core``'s module docstring gives the rules). The ticks of
a slice are visited in one of two equivalent orders:

- *tick-major* (every PE in tick t, then every PE in tick t + 1): always
  valid, since every effect of a tick on another PE (a barrier opened) takes
  effect at the next tick;
- *PE-major* (:func:`_pe_slice`: PE 0's whole slice, then PE 1's, ...), in runs
  of ticks in which nothing is decided: a task runs until its burst or work
  ends, the slot's owner wakes or the slice ends; an idle PE stays idle until
  its local scheduler could answer otherwise (``mach.skip``) or the owner
  wakes. Valid when no PE can affect another within the slice, i.e. when no
  job of the matrix has barriers: then only the job counters are shared, and
  they are kept order-free (a job's start is a minimum, its end the latest of
  its tasks' ends).

The loop takes the PE-major order whenever the matrix holds no ``sync`` job:
the same schedule, far fewer decisions (I/O bursts are 2–3 ticks long, a
compute task runs a whole slice at once).
"""

from __future__ import annotations

from sweep._numba import NO_REFCOUNT, jit
from sweep.families.gang._column import append, reorder
from sweep.families.gang._core import (
    DONE,
    IO,
    OVER_CAP,
    READY,
    RUNNING,
    SYNC,
    _grade,
    _pack,
    step_task,
    task_status,
)


@jit(**NO_REFCOUNT)
def _index_columns(rows, tasks, mach, par, priority):
    """Each PE's column of the new matrix in its local scheduler's order (``_column``: by the
    *priority* hook), done tasks out."""
    mat = mach.mat
    for p in range(mat.shape[1]):
        n = 0
        for r in range(rows):
            mach.at[r, p] = -1
            x = mat[r, p]
            if x >= 0 and tasks.state[x] != DONE:
                append(p, n, r, priority(x, tasks, par), mach)
                n += 1
        mach.size[p] = n


@jit(inline="always", **NO_REFCOUNT)
def _run_for(x, t, d, tasks, jobs, pool, par, det):
    """Run ``x`` in ticks ``t … t + d − 1`` (``d`` ≤ its burst and work left): the last tick's
    ``step_task``."""
    j = tasks.job[x]
    if jobs.start[j] < 0 or t < jobs.start[j]:
        jobs.start[j] = t
    tasks.left[x] -= d - 1
    tasks.seg[x] -= d - 1
    return step_task(x, t + d - 1, tasks, jobs, pool, par, det)


@jit(inline="always", **NO_REFCOUNT)
def _kept_or_picked(p, t, row, rows, tasks, jobs, mach, pool, par, det, local):
    """What PE ``p`` runs at tick ``t`` when its slot's own task does not: the task its local
    scheduler picked earlier in the slice if still ready, else a new local pick (−1: none)."""
    kept = mach.run[p]
    if kept >= 0 and task_status(kept, t, tasks, jobs, pool, par, det) == READY:
        return kept
    picked = local(p, t, row, rows, mach.mat, tasks, jobs, mach, pool, par)
    mach.run[p] = picked
    return picked


@jit(inline="always", **NO_REFCOUNT)
def _pe_slice(p, s, row, rows, tasks, jobs, mach, pool, par, rec, t_from, local):
    """PE ``p``'s whole slice ``s`` in runs of ticks (module docstring); (idle, empty, busy, a job ended).

    Only for a matrix without barriers: the owner is ready, blocked on I/O
    (until ``ready_at``) or done. ``local`` answering −1 sets ``mach.skip[p]``
    to the first tick at which it might answer otherwise (the hook contract).
    """
    K = par.ticks
    det = par.deterministic != 0
    mat, obs = mach.mat, mach.obs
    nrec = rec.shape[0]
    g = mat[row, p] if rows > 0 else -1
    t = s * K
    end = t + K
    idle, empty, busy = 0, 0, 0
    ended = False
    while t < end:
        st = task_status(g, t, tasks, jobs, pool, par, det) if g >= 0 else DONE
        if g >= 0 and st == READY:
            x = g
            d = min(tasks.seg[g], tasks.left[g], end - t)
            obs[p, 0] += d
        else:
            until = min(end, tasks.ready_at[g]) if g >= 0 and st == IO else end
            x = _kept_or_picked(p, t, row, rows, tasks, jobs, mach, pool, par, det, local)
            # a run of x, or idle until the local scheduler might pick (skip) or the owner wakes;
            # a hook that set no skip is asked again at the next tick
            if x >= 0:
                d = min(tasks.seg[x], tasks.left[x], until - t)
            else:
                d = max(1, min(mach.skip[p], until) - t)
            if g < 0:
                empty += d
            elif st != DONE:
                obs[p, st] += d
        if t + d > t_from and t - t_from < nrec:
            for u in range(max(t, t_from), min(t + d, t_from + nrec)):
                rec[u - t_from, p] = x
        if x < 0:
            idle += d
        else:
            busy += d
            obs[p, 3] += d
            if _run_for(x, t, d, tasks, jobs, pool, par, det):
                ended = True
        t += d
    return idle, empty, busy, ended


@jit(inline="always", **NO_REFCOUNT)
def simulate_core(jobs, tasks, mach, pool, settings, report, out, rec, owner, active, local,
                  priority, indexed):
    """Run from tick 0 to ``report[-1]`` (a whole number of slices); ``local`` is the hook.

    ``indexed``: keep each PE's column in its local scheduler's order
    (``mach.order``, ``_column``) for ``local`` to read, ordered by the
    *priority* hook ``priority(x, tasks, par) -> float`` (task ``x``'s
    priority from its grades, −1 for none: read at each rebuild and after each
    grade update, so it may depend on the grades and ``par`` only); Gang needs
    none (``_core.no_priority``).

    ``report``: ticks (multiples of ``K``) at which the cumulative idle PE-ticks,
    empty-slot PE-ticks, busy PE-ticks, PE-ticks while the matrix holds a job
    and idle PE-ticks among those, slots (PE × slice) in which the PE ran no
    task at all and task-slices (tasks in the matrix, summed over slices) are
    written to ``out`` (one ``_core.REPORT`` record each). ``settings`` is one
    record of ``_core.SETTINGS``'s fields and the policy's parameters, in an
    array of one. ``rec`` (ticks × PEs) receives the task run
    in each of ``rec.shape[0]`` ticks from slice ``settings.trace_from`` on
    (−1: idle), ``owner`` (slices × PEs) the slot's task of the same slices.
    ``active`` is work space for the ids of the jobs present.
    """
    par = settings[0]
    K = par.ticks
    packing = par.packing
    det = par.deterministic != 0
    cap = par.max_jobs
    mat, run, obs = mach.mat, mach.run, mach.obs
    P = mat.shape[1]
    n = jobs.arrival.shape[0]
    slices = report[report.shape[0] - 1] // K
    nrec, nown = rec.shape[0], owner.shape[0]
    s_from = par.trace_from  # first slice recorded
    t_from = s_from * K
    rows = 0
    assigned = 0  # tasks in the matrix (one slot each)
    barriers = False  # a job of the matrix has barriers: PEs are coupled within a slice
    idle_slots, task_slices = 0, 0
    cur = 0
    nxt = 0
    count = 0
    changed = False
    idle, empty, busy, held, held_idle = 0, 0, 0, 0, 0
    rep = 0
    status = RUNNING
    rebuilds = 0
    s = 0
    while s < slices:
        t0 = s * K
        if cur == 0:  # a period boundary: act on the workload changes
            while nxt < n and jobs.arrival[nxt] <= t0:
                nxt += 1
                changed = True
            if changed:
                count = 0
                for j in range(nxt):
                    if jobs.end[j] < 0:
                        active[count] = j
                        count += 1
                if count > cap:
                    status = OVER_CAP
                    break
                rows = _pack(active, count, jobs, mach, packing)
                assigned = 0
                barriers = False
                for a in range(count):
                    assigned += jobs.width[active[a]]
                    barriers = barriers or jobs.cls[active[a]] == SYNC
                if indexed:
                    _index_columns(rows, tasks, mach, par, priority)
                rebuilds += 1
                changed = False
        row = cur
        idle0 = idle
        for p in range(P):
            run[p] = -1
            mach.skip[p] = 0
            obs[p, 0] = 0
            obs[p, 1] = 0
            obs[p, 2] = 0
            obs[p, 3] = 0
            if 0 <= s - s_from < nown:
                owner[s - s_from, p] = mat[row, p] if rows > 0 else -1
        if not barriers:
            for p in range(P):
                i_d, e_d, b_d, ended = _pe_slice(p, s, row, rows, tasks, jobs, mach, pool, par,
                                                 rec, t_from, local)
                idle += i_d
                empty += e_d
                busy += b_d
                changed = changed or ended
        else:
            for k in range(K):
                t = t0 + k
                for p in range(P):
                    g = mat[row, p] if rows > 0 else -1
                    x = -1
                    if g >= 0:
                        st = task_status(g, t, tasks, jobs, pool, par, det)
                        if st == READY:
                            x = g
                        elif st != DONE:
                            obs[p, st] += 1
                    else:
                        empty += 1
                    if x < 0:
                        x = _kept_or_picked(p, t, row, rows, tasks, jobs, mach, pool, par, det, local)
                    else:
                        obs[p, 0] += 1
                    if 0 <= t - t_from < nrec:
                        rec[t - t_from, p] = x
                    if x < 0:
                        idle += 1
                        continue
                    busy += 1
                    obs[p, 3] += 1
                    if step_task(x, t, tasks, jobs, pool, par, det):
                        changed = True
        if rows > 0:
            held += P * K
            held_idle += idle - idle0
            for p in range(P):
                g = mat[row, p]
                if g >= 0:
                    _grade(g, obs, p, tasks, par, K)
                    if indexed:
                        reorder(p, row, priority(g, tasks, par), mach)
        task_slices += assigned
        for p in range(P):
            if obs[p, 3] == 0:
                idle_slots += 1
        cur += 1
        if cur >= rows:
            cur = 0
        s += 1
        while rep < report.shape[0] and report[rep] <= s * K:
            row = out[rep]
            row.idle, row.empty, row.busy, row.held = idle, empty, busy, held
            row.held_idle, row.idle_slots, row.task_slices = held_idle, idle_slots, task_slices
            rep += 1
    outcome = mach.outcome[0]
    outcome.status, outcome.slices, outcome.rebuilds = status, s, rebuilds
    return s
