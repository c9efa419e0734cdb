"""The organiser's actions that send every table of a round a command (the round's start,
its end): the tables at once, each table's own commands in their order.

A command is acked once it is on disk (app.store.group_commit), and one table after
another, every table waited for a flush of its own: a round of 256 tables took 1.7 s to
start, most of it waiting for the disk. At once, the tables share their flushes.

Every table is tried; a table that fails (its worker gone, say) fails the action once all
the others are done, with the first failure: the organiser tries again, and what the tables
that went through already did is not done twice (each action skips a table already past it).
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterable
from typing import TypeVar

Item = TypeVar("Item")
Result = TypeVar("Result")


async def at_every_table(
    items: Iterable[Item], act: Callable[[Item], Awaitable[Result]]
) -> list[Result]:
    """`act(item)` for every item at once; their results in the items' order."""
    done = await asyncio.gather(*(act(item) for item in items), return_exceptions=True)
    for outcome in done:
        if isinstance(outcome, BaseException):
            raise outcome
    return done  # type: ignore[return-value]  # no exception among them
