"""Start times of slack backfilling under every preset configuration and option, against earlier
code: the check that a faster slack kernel schedules exactly as before (issue 17).

    python benchmarks/slack_identity.py --baseline DIR

``DIR`` is a checkout of the earlier code (``git worktree add ../base <rev> --detach``). The
configurations run first on that code, in a subprocess with ``PYTHONPATH=DIR``, then on this
one, and every start time is compared; exit 1 if any differs. 177 configurations on the KTH
log (28,475 jobs; 5,040,075 start times): the ten of Talby & Feitelson 1999 Table 5 on the
whole trace and by month, Table 2's slack factors, Table 4's priority gaps, the noise preset's
submit jitter with three seeds, every combination of the readings of §2 that are options
(completion, move-up, moved-up slack, with AWT 1 s and 2401 s, equal and unequal priorities),
the 64 points of ``tf99_sensitivity``, and single cases of the other options (fairness
exponent, zero-slack weight, tie, running AWT, quotas, 100 processors, ``overrun: extend``,
priority gaps and heuristics crossed with completion modes).
"""

from __future__ import annotations

import argparse
import itertools
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

import sweep
from sweep.families import load_families
from sweep.families.rigid._jobs import prepare
from sweep.families.rigid._simulate import schedule
from sweep.workloads.swf import read_swf

KTH = Path(__file__).resolve().parents[1] / "data" / "traces" / "KTH-SP2-1996-2.1-cln.swf.gz"
HEURISTICS = ("ast", "aat", "du", "dc", "dp")
SENSITIVITY = ("slack_factor", "awt", "alpha_u", "alpha_t", "alpha_p", "alpha_f")

#: (name, workload options, slack parameters); workloads split by month unless told.
Configuration = tuple[str, dict, dict]


def _tables() -> list[Configuration]:
    """Table 5 (whole trace and by month), Table 2's slack factors, Table 4's gaps, the noise."""
    out = [(f"whole/{h}/every{e}", {"split": "none", "priority_every": e}, {"heuristic": h})
           for e, h in itertools.product((0, 5), HEURISTICS)]
    out += [(f"table5/{h}/every{e}", {"priority_every": e}, {"heuristic": h})
            for e, h in itertools.product((0, 5), HEURISTICS)]
    out += [(f"table2/sf{sf}", {}, {"slack_factor": float(sf)}) for sf in (1, 5, 7, 9, 11)]
    out += [(f"table4/gap{gap}", {"priority_every": 5, "priority_gap": gap}, {})
            for gap in (0, 0.5, 1, 1.5)]
    out += [(f"noise/seed{seed}/every{e}", {"priority_every": e, "submit_jitter": 1, "seed": seed}, {})
            for seed, e in itertools.product(range(3), (0, 5))]
    return out


def _readings() -> list[Configuration]:
    """Every combination of the §2 readings that are options, and tf99_sensitivity's 64 points."""
    out = [(f"readings/{c}/{mu}/{ms}/awt{awt}/every{e}", {"priority_every": e},
            {"completion": c, "move_up": mu, "moved_up_slack": ms, "awt": awt})
           for c, mu, ms, awt, e in itertools.product(("compress", "remove", "tick"), ("allow", "clamp"),
                                                      ("regained", "kept"), (1.0, 2401.0), (0, 5))]
    levels = itertools.product((1.0, 5.0), (1200.0, 3600.0), (0.5, 1.0), (0.5, 1.0), (0.5, 1.0),
                               (0.5, 1.0))
    out += [("sensitivity/" + "/".join(map(str, v)), {"priority_every": 5},
             dict(zip(SENSITIVITY, v, strict=True))) for v in levels]
    return out


def _options() -> list[Configuration]:
    """One case of each remaining option, and heuristics crossed with completion modes."""
    cases = [
        ({"priority_every": 5}, {"fairness_exponent": "alpha_f", "alpha_p": 0.5, "alpha_f": 0.7,
                                 "alpha_u": 0.3, "alpha_t": 0.8}),
        ({"priority_every": 5}, {"zero_slack_weight": "zero"}),
        ({"priority_every": 5}, {"zero_slack_weight": "zero", "completion": "remove"}),
        ({"priority_every": 5}, {"tie": "delayed"}),
        ({"priority_every": 5}, {"tie": "delayed", "completion": "remove"}),
        ({"priority_every": 5}, {"awt_estimate": "running"}),
        ({}, {"awt_estimate": "running", "completion": "tick", "heuristic": "dc"}),
        ({"priority_every": 5, "quota_every": 7}, {}),
        ({"priority_every": 5, "quota_every": 7}, {"completion": "remove", "heuristic": "dp"}),
        ({"quota_every": 3}, {"completion": "tick", "heuristic": "du"}),
        ({"processors": 100}, {}),
        ({}, {"slack_factor": 0.0}),
        ({}, {"slack_factor": 0.0, "move_up": "clamp", "moved_up_slack": "kept"}),
        ({"priority_every": 5}, {"alpha_u": 0.0, "alpha_t": 0.2, "alpha_p": 0.0, "alpha_f": 0.0}),
        ({"overrun": "extend"}, {}),
    ]
    for h in HEURISTICS:
        cases += [({"priority_every": 5}, {"heuristic": h, "completion": "remove"}),
                  ({"priority_every": 5}, {"heuristic": h, "completion": "tick", "move_up": "clamp"}),
                  ({"priority_every": 3, "priority_gap": 1.0},
                   {"heuristic": h, "alpha_p": 0.4, "slack_factor": 6.0})]
    return [(f"options/{k}", workload, params) for k, (workload, params) in enumerate(cases)]


def configurations() -> list[Configuration]:
    return _tables() + _readings() + _options()


def start_times() -> tuple[dict[str, np.ndarray], float]:
    """Every configuration's start times on the code this process imports, and the seconds taken."""
    trace = read_swf(KTH)
    policy = load_families()["rigid"].policies["slack"]
    out = {}
    t0 = time.perf_counter()
    for name, workload, params in configurations():
        workload = {"split": "month", **workload}
        seed = workload.pop("seed", None)
        processors = workload.pop("processors", 128)
        rng = np.random.default_rng(seed) if seed is not None else None
        jobs = prepare(trace, processors=processors, rng=rng, **workload)
        out[name] = schedule(jobs, "slack", policy.make_params(params))
    return out, time.perf_counter() - t0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", required=True, help="a checkout of the earlier code")
    parser.add_argument("--dump", default=None, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.dump:
        np.savez_compressed(args.dump, **start_times()[0])
        return
    with tempfile.TemporaryDirectory() as folder:
        path = os.path.join(folder, "before.npz")
        env = dict(os.environ, PYTHONPATH=os.path.abspath(args.baseline))
        t0 = time.perf_counter()
        subprocess.run([sys.executable, __file__, "--baseline", args.baseline, "--dump", path],
                       env=env, check=True)
        print(f"before: {args.baseline}, {time.perf_counter() - t0:.1f} s with its compiles")
        with np.load(path) as data:
            before = {k: data[k] for k in data.files}
    after, seconds = start_times()
    print(f"after: {Path(sweep.__file__).parents[1]}, {seconds:.1f} s with its compiles")
    differ = [name for name in after if not np.array_equal(after[name], before[name])]
    for name in differ:
        changed = after[name] != before[name]
        print(f"  DIFFER {name}: {int(changed.sum())} jobs, the first job {int(np.argmax(changed))}")
    print(f"{len(after)} configurations, {sum(v.size for v in after.values()):,} start times compared: "
          f"{len(after) - len(differ)} identical, {len(differ)} differ")
    sys.exit(1 if differ else 0)


if __name__ == "__main__":
    main()
