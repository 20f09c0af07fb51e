"""Compare the verdicts of two ``sweep-reproduce`` runs, e.g. under two root seeds (BENCHMARKS.md,
"Two seeds"; issue 24, item 3).

    python benchmarks/two_seeds.py RUN_A RUN_B

Each RUN is a ``sweep-reproduce --out`` folder; its ``claims.csv`` is read. Prints how many claims
are decided under both runs and whether any differs, how many are undecided under both, and each
claim decided under one run only, with whether that decision was *marginal* (docs/design.md §9:
intervals twice as wide, or a sign test one flag the other way, would not give it). Exit 1 when a
claim decided under both differs, or a firm (not marginal) decision is not the same under the
other run.
"""

from __future__ import annotations

import csv
import sys
from pathlib import Path

#: Outcomes that are not verdicts: nothing to compare.
NOT_JUDGED = ("used to calibrate", "full precision only", "error")


def verdicts(run: Path) -> dict[tuple[str, str], tuple[str, bool]]:
    """(paper, claim id) -> (verdict, marginal) of every judged claim in ``run/claims.csv``."""
    with (run / "claims.csv").open() as rows:
        return {(row["paper"], row["id"]): (row["verdict"], row["marginal"] == "yes")
                for row in csv.DictReader(rows) if row["verdict"] not in NOT_JUDGED}


def main(first: Path, second: Path) -> int:
    a, b = verdicts(first), verdicts(second)
    common = sorted(a.keys() & b.keys())
    both = [k for k in common if "undecided" not in (a[k][0], b[k][0])]
    differing = [k for k in both if a[k][0] != b[k][0]]
    neither = [k for k in common if a[k][0] == b[k][0] == "undecided"]
    one = [k for k in common if (a[k][0] == "undecided") != (b[k][0] == "undecided")]
    firm_lost = [k for k in one if not (a[k] if a[k][0] != "undecided" else b[k])[1]]  # decided, not marginal
    marginal = [sum(v[1] for v in run.values()) for run in (a, b)]
    print(f"{len(common)} claims judged in both runs; decided under both: {len(both)}, of them differing: "
          f"{len(differing)}; undecided under both: {len(neither)}; decided under one run only: {len(one)}, "
          f"of them marginal where decided: {len(one) - len(firm_lost)}")
    print(f"marginal decisions: {marginal[0]} in {first}, {marginal[1]} in {second}")
    for key in differing:
        print(f"  differs: {key[0]}:{key[1]}: {a[key][0]} / {b[key][0]}")
    for key in one:
        (verdict, close), where = (a[key], first) if a[key][0] != "undecided" else (b[key], second)
        print(f"  one run only: {key[0]}:{key[1]}: {verdict}{' (marginal)' if close else ''} in {where}")
    return 1 if differing or firm_lost else 0


if __name__ == "__main__":
    if len(sys.argv) != 3:
        print("usage: python benchmarks/two_seeds.py RUN_A RUN_B", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
