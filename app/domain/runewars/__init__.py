"""Runewars Miniatures (shared/seeds/runewars-tournament-regulations-2017.txt): a second
game on the same tables, with its own table engine (`engine`) and its own tournament
(`pairing`, `standings`, `event`). Nothing here speaks of a chess clock."""
