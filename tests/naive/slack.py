"""A slow, obvious reference for slack-based priority backfilling (Talby & Feitelson 1999 §2).

Written from the slack pass's documentation (``sweep/families/rigid/_slack.py``,
docs/model-notes.md §2), sharing nothing with ``sweep.families.rigid``: plain
lists and dicts, every schedule a list of ``(start, end, n)`` holdings, the free
processors at an instant recomputed from all of them, every candidate slot's
schedule built from scratch.

At each event time ``t`` (an arrival, an actual completion, or a waiting job's
planned start ``te``): completions, then arrivals in trace order; at a time with
completions the ``completion`` reading re-plans (``compress``: every waiting job
in submit order to its earliest start; ``remove``: insert a dummy timeless job;
``tick``: nothing); each arrival is inserted (§2.1, §2.4) with SP = ½ and its
priority and slack recomputed once from its scheduled wait; the jobs due at ``t``
start. Prices are summed in the order the delayed jobs are compressed, so that
equal prices compare equal bit for bit.
"""

from __future__ import annotations

import math

from sweep.testing.naive.rigid import earliest, fits

#: The rigid policies this reference implements (the others name a pass of ``sweep.testing.naive.rigid``).
POLICIES = ("slack",)

HEURISTICS = ("ast", "aat", "du", "dc", "dp")


def _priority_slack(base, sp, opt):
    """§2.2: p = (UP + PP + SP)/3, s0 = (1 − p)·SF·AWT; PP = −∞ (over quota): p = −∞, s0 = ∞."""
    if base == -math.inf:
        return -math.inf, math.inf
    p = (base + sp) / 3.0
    return p, (1.0 - p) * opt["slack_factor"] * opt["awt_now"]


def _cost(job, delay, p_new, opt):
    """§2.3: one moved job's term of the price; ``p_new`` None for the dummy job."""
    if job["s0"] == math.inf:
        return 0.0
    ratio = 1.0 if p_new is None else job["p"] / p_new
    weight = opt["zero_weight"] if job["s0"] == 0.0 else job["s0"] / max(job["s"], 1.0)
    sign = (delay > 0) - (delay < 0)
    return (job["n"] ** opt["alpha_u"] * sign * abs(delay) ** opt["alpha_t"]
            * ratio ** opt["alpha_p"] * weight ** opt["fairness"])


def _order(waiting, jobs, p_new, opt):
    """The waiting jobs in the heuristic's order (§2.4), ties by arrival."""
    keys = {"ast": lambda i: jobs[i]["te"], "aat": lambda i: i,
            "du": lambda i: -jobs[i]["n"] * jobs[i]["req"],
            "dc": lambda i: -_cost(jobs[i], 1.0, p_new, opt), "dp": lambda i: -jobs[i]["p"]}
    key = keys[opt["heuristic"]]
    return sorted(waiting, key=lambda i: (key(i), i))


def _insert(j, t, waiting, running, jobs, P, opt):
    """insert(j) of §2.1/§2.4 (``j`` None: the dummy timeless job of Remove())."""
    dummy = j is None
    n_j, d_j = (0, 0.0) if dummy else (jobs[j]["n"], jobs[j]["req"])
    p_new = None if dummy else jobs[j]["p"]
    quota = not dummy and jobs[j]["s0"] == math.inf
    clamp = opt["move_up"] == "clamp" and not dummy
    held = [(jobs[r]["start"], jobs[r]["start"] + jobs[r]["req"], jobs[r]["n"]) for r in running]
    te = {i: jobs[i]["te"] for i in waiting}

    def arrival_price(ts):
        return 0.0 if dummy else (ts - t) ** opt["alpha_t"] * n_j ** opt["alpha_u"]

    # conservative's schedule: j at its earliest start, nobody moved
    planned = [(te[i], te[i] + jobs[i]["req"], jobs[i]["n"]) for i in waiting]
    best_ts = earliest(t, d_j, n_j, P, held + planned)
    best, best_moved, best_te = arrival_price(best_ts), 0, dict(te)
    order = _order(waiting, jobs, p_new, opt)
    # the profile's time slots from t on: now, the running jobs' requested ends, the waiting
    # jobs' planned starts and ends
    slots = {t} | {e for _, e, _ in held}
    slots |= {te[i] for i in waiting} | {te[i] + jobs[i]["req"] for i in waiting}
    for ts in sorted(slots):
        before = [(te[i], te[i] + jobs[i]["req"], jobs[i]["n"]) for i in waiting if te[i] < ts]
        if not fits(ts, d_j, n_j, P, held + before):
            continue
        # every job from ts on delayed by d_j, j alone at ts, then compress in the heuristic's order
        where = {i: te[i] + d_j if te[i] >= ts else te[i] for i in waiting}
        price, moved = arrival_price(ts), 0
        for i in order:
            if te[i] < ts:
                continue
            others = [(where[k], where[k] + jobs[k]["req"], jobs[k]["n"]) for k in waiting if k != i]
            schedule = held + [(ts, ts + d_j, n_j)] + others
            lo = te[i] if clamp else t
            where[i] = earliest(lo, jobs[i]["req"], jobs[i]["n"], P, schedule)
            delay = where[i] - te[i]
            if delay > jobs[i]["s"] or (quota and delay > 0):
                price = math.inf
                break
            moved += delay > 0 or (opt["tie"] == "moved" and delay < 0)
            price += _cost(jobs[i], delay, p_new, opt)
        if price < best or (price == best and moved < best_moved):
            best, best_moved, best_ts, best_te = price, moved, ts, where
    for i in waiting:
        delay = best_te[i] - te[i]
        jobs[i]["s"] -= delay if opt["moved_up_slack"] == "regained" else max(delay, 0.0)
        jobs[i]["te"] = best_te[i]
    if not dummy:
        jobs[j]["te"] = best_ts


def _compress(t, waiting, running, jobs, P):
    """Conservative's compression: each waiting job in submit order to its earliest start."""
    held = [(jobs[r]["start"], jobs[r]["start"] + jobs[r]["req"], jobs[r]["n"]) for r in running]
    for i in waiting:
        others = [(jobs[k]["te"], jobs[k]["te"] + jobs[k]["req"], jobs[k]["n"])
                  for k in waiting if k != i]
        jobs[i]["te"] = earliest(t, jobs[i]["req"], jobs[i]["n"], P, held + others)


def simulate(submit, run, req, procs, priority, P, **options):
    """Start times (list) under slack-based backfilling; ``options`` are the fields of
    ``SlackParams`` (slack_factor, awt, alpha_*, heuristic, fairness_exponent, ...)."""
    opt = dict(slack_factor=3.0, awt=2401.0, alpha_u=1.0, alpha_t=1.0, alpha_p=1.0, alpha_f=1.0,
               heuristic="ast", fairness_exponent="printed", zero_slack_weight="neutral",
               completion="compress", move_up="allow", tie="moved", moved_up_slack="regained",
               awt_estimate="fixed")
    opt.update(options)
    opt["fairness"] = (opt["alpha_p"] * opt["alpha_f"] if opt["fairness_exponent"] == "printed"
                       else opt["alpha_f"])
    opt["zero_weight"] = 1.0 if opt["zero_slack_weight"] == "neutral" else 0.0
    jobs = [dict(submit=submit[i], run=run[i], req=req[i], n=procs[i], base=priority[i],
                 start=None, te=None, p=0.0, s0=0.0, s=0.0) for i in range(len(submit))]
    waited, started = 0.0, 1  # the running AWT: awt counts as the first job
    running, waiting, nxt = [], [], 0
    while nxt < len(jobs) or running or waiting:
        events = [jobs[r]["start"] + jobs[r]["run"] for r in running]
        events += [jobs[i]["te"] for i in waiting]
        if nxt < len(jobs):
            events.append(jobs[nxt]["submit"])
        t = min(events)
        done = [r for r in running if jobs[r]["start"] + jobs[r]["run"] == t]
        running = [r for r in running if r not in done]
        arrived = []
        while nxt < len(jobs) and jobs[nxt]["submit"] == t:
            arrived.append(nxt)
            nxt += 1
        opt["awt_now"] = (opt["awt"] if opt["awt_estimate"] == "fixed"
                          else (opt["awt"] + waited) / started)
        if done and opt["completion"] == "compress":
            _compress(t, waiting, running, jobs, P)
        elif done and opt["completion"] == "remove":
            _insert(None, t, waiting, running, jobs, P, opt)
        for j in arrived:
            job = jobs[j]
            job["p"], job["s0"] = _priority_slack(job["base"], 0.5, opt)
            job["s"] = job["s0"]
            _insert(j, t, waiting, running, jobs, P, opt)
            waiting.append(j)
            sp = min((job["te"] - t) / (2.0 * opt["awt_now"]), 1.0)
            job["p"], job["s0"] = _priority_slack(job["base"], sp, opt)
            job["s"] = job["s0"]
        for i in [i for i in waiting if jobs[i]["te"] == t]:
            jobs[i]["start"] = t
            waited += t - jobs[i]["submit"]
            started += 1
            waiting.remove(i)
            running.append(i)
    return [job["start"] for job in jobs]
