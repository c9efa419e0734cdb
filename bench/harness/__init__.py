"""The mechanics every benchmark shares: the servers under test (servers), their tables
(tables), the phones' sockets (sockets, seats), the load generator's processes (load), what
is measured (measure), the command line (options) and what a run says (report)."""
