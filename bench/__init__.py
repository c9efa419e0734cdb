"""Load and latency benchmarks for the table socket (run with `python -m bench.table_latency`)."""
