"""What a room hosts for WARMACHINE & HORDES: the engine, its codec and its views."""
