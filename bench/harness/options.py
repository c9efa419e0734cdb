"""The command-line options the benchmarks share."""

from __future__ import annotations

import argparse


def add_common_options(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--port", type=int, default=0, help="server port (0: a free one)")
    parser.add_argument("--connect-concurrency", type=int, default=64)
    parser.add_argument(
        "--db-dir",
        metavar="DIR",
        help="where the temporary SQLite file goes (default: the system temp dir)",
    )


def add_load_options(parser: argparse.ArgumentParser) -> None:
    """The latency benchmarks' options: browser-like compression, quiet wait, profiler."""
    parser.add_argument(
        "--compression",
        choices=("deflate", "none"),
        default="deflate",
        help="permessage-deflate offered by the clients, as browsers do",
    )
    parser.add_argument(
        "--quiet-wait",
        type=float,
        default=0.0,
        metavar="S",
        help="on a shared machine, wait up to S s for other processes to go quiet first",
    )
    parser.add_argument(
        "--server-prefix",
        metavar="CMD",
        help="run the server under CMD (e.g. 'py-spy record -o prof.svg --'); "
        "its CPU then counts in server_cpu_pct",
    )


def add_tapping_options(parser: argparse.ArgumentParser, seconds: float = 30.0) -> None:
    """The tapping load's size and pace: tables, measured window, warm-up, interval, client
    processes, and how many tables are created at once."""
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--seconds", type=float, default=seconds, help="measured window")
    parser.add_argument("--warmup", type=float, default=5.0, help="taps before measuring")
    parser.add_argument("--interval", type=float, default=5.0, help="seconds between taps")
    parser.add_argument("--clients", type=int, default=1, help="client processes")
    parser.add_argument("--create-concurrency", type=int, default=16)
