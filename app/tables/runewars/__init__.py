"""What a room hosts for Runewars: the engine, its codec and its views."""
