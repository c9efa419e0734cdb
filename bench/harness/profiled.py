"""Run a Python module under cProfile, its stats written when it stops, SIGTERM included.

    python -m bench.harness.profiled PATH MODULE [ARGS...]

uvicorn answers SIGTERM with a graceful stop and then raises the signal again, which would
end the process before `python -m cProfile` writes its stats: here that second SIGTERM
interrupts the run instead, and the stats are written (python -m pstats PATH). The server's
own stop (app.cli) raises it again itself once uvicorn has stopped: here that ends the run
the same way.

Times are the main thread's CPU time (`time.thread_time`), not the wall clock: on a machine
whose cores the load generator and others share, a function is not charged for the time it
waited for a core, nor the loop for the time it slept (the log's flush thread is not
profiled; its CPU counts in the benchmark's line)."""

from __future__ import annotations

import cProfile
import runpy
import signal
import sys
import time


def _interrupt(_signum: int) -> None:
    raise KeyboardInterrupt


def main() -> None:
    path, module, *rest = sys.argv[1:]
    signal.signal(signal.SIGTERM, signal.default_int_handler)
    signal.raise_signal = _interrupt  # the server's own second SIGTERM (app.cli._on_stop)
    sys.argv = [module, *rest]
    profiler = cProfile.Profile(time.thread_time)
    try:
        profiler.runcall(runpy.run_module, module, run_name="__main__", alter_sys=True)
    except (KeyboardInterrupt, SystemExit):
        pass
    finally:
        profiler.dump_stats(path)


if __name__ == "__main__":
    main()
