"""The organiser's every-table actions (app.events.every_table): the tables at once, their
results in order, every table tried, and a failure raised once the others are done."""

from __future__ import annotations

import asyncio

import pytest

from app.events.every_table import at_every_table


async def test_the_tables_go_at_once_and_answer_in_order() -> None:
    arrived: list[int] = []
    everyone = asyncio.Event()

    async def act(table: int) -> str:
        arrived.append(table)
        if len(arrived) == 4:
            everyone.set()
        await everyone.wait()  # one table after another would never get past the first
        return f"table {table}"

    done = await at_every_table([3, 1, 4, 2], act)
    assert done == ["table 3", "table 1", "table 4", "table 2"]


async def test_a_failing_table_fails_the_action_once_every_other_table_is_done() -> None:
    finished: list[int] = []

    async def act(table: int) -> int:
        await asyncio.sleep(0)
        if table == 2:
            raise RuntimeError("table 2's worker is gone")
        await asyncio.sleep(0)
        finished.append(table)
        return table

    with pytest.raises(RuntimeError, match="table 2's worker is gone"):
        await at_every_table([1, 2, 3, 4], act)
    assert sorted(finished) == [1, 3, 4]


async def test_no_tables_no_work() -> None:
    async def act(_table: int) -> int:
        raise AssertionError("no table to act on")

    assert await at_every_table([], act) == []
