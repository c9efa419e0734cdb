"""The mechanics every benchmark shares: servers, sockets, load, measures, report."""
