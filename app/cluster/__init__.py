"""Placement: which worker applies a table's commands, and the way between workers."""
