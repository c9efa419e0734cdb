"""Run a Python module under cProfile, its stats written when it stops, SIGTERM included.

    python -m bench.harness.profiled PATH MODULE [ARGS...]

uvicorn answers SIGTERM with a graceful stop and then raises the signal again, which would
end the process before `python -m cProfile` writes its stats: here that second SIGTERM
interrupts the run instead, and the stats are written (python -m pstats PATH)."""

from __future__ import annotations

import cProfile
import runpy
import signal
import sys


def main() -> None:
    path, module, *rest = sys.argv[1:]
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    sys.argv = [module, *rest]
    profiler = cProfile.Profile()
    try:
        profiler.runcall(runpy.run_module, module, run_name="__main__", alter_sys=True)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        profiler.dump_stats(path)


if __name__ == "__main__":
    main()
