"""The ``sweep`` command: ``sweep [key=value ...]`` (DESIGN §8).

Bad input ends in one line on stderr naming the problem, and exit status 2,
before any simulation starts; an interrupted sweep exits 130 and resumes when
the same command is run again with the same ``output``.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence

USAGE = """usage: sweep [key=value ...]

Runs a parameter sweep and writes its results as netCDF.

  sweep experiment=quickstart            a preset from conf/experiment/
  sweep policy=easy                      a policy alone: its family's workload and system
  sweep grid.policy=[random,lwl] grid.load=[0.5,0.8] replications=4 output=out.nc
  sweep policy=sita_e workload=c90 load=0.7 system.hosts=4 engine.backend=serial
  sweep grid.system=[sp2_100,sp2_128] policy=easy workload=kth
  sweep policy=eqs workload.speedup.model=linear   (= workload/speedup=linear)

Any config key can be set (key=value) or swept (grid.key=[v1,v2,...]); see conf/config.yaml.
Config groups (options: conf/<group>/*.yaml), each also a grid axis over its options:
policy, workload, workload/speedup, system; experiment selects a preset.
"""


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the console script; returns the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if any(a in ("-h", "--help") for a in args):
        print(USAGE, end="")
        return 0
    if "--version" in args:
        import sweep

        print(f"sweep {sweep.__version__}")
        return 0
    from sweep.engine.config import ConfigError, compose
    from sweep.engine.runner import run_config
    from sweep.engine.tasks import TaskFailed

    try:
        run_config(compose(args), args)
    except ConfigError as error:
        print(f"sweep: error: {error}", file=sys.stderr)
        return 2
    except TaskFailed as error:
        print(f"sweep: error: a run failed ({error}); finished points are checkpointed",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print("sweep: interrupted; run the same command again to resume", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    sys.exit(main())
