"""Reads from the store that many sockets want at once, made together on a thread.

After the hall's Wi-Fi restarts every phone comes back at once, and with several workers
a phone may reach a worker that has not read its table yet. One read per socket, each on
a thread of its own, queued behind the others and contending for the interpreter with the
loop, kept the phones waiting for their tables a second and more (bench.herd --workers 2).
Here the tables asked for while a read is on its way go in the next read, one for all of
them (`app.store.tails`): the first socket's read starts at once, and a crowd costs a few
queries a batch rather than a few a socket. Two sockets of one table share its read.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Generic, TypeVar

Key = TypeVar("Key")
Arg = TypeVar("Arg")
Result = TypeVar("Result")

#: The most tables in one read (a crowd bigger than this takes several).
BATCH = 200


class BatchedReads(Generic[Key, Arg, Result]):
    """`read(key, arg)`: `read_many({key: arg, ...})[key]`, with the keys asked for
    meanwhile read in the same call (on a thread: it may wait on the database)."""

    def __init__(
        self, read_many: Callable[[dict[Key, Arg]], dict[Key, Result]], batch: int = BATCH
    ) -> None:
        self._read_many = read_many
        self._batch = batch
        self._asked: dict[Key, Arg] = {}
        self._waiting: dict[Key, asyncio.Future[Result]] = {}
        self._task: asyncio.Task[None] | None = None
        #: How many reads were made (each one for a batch of keys).
        self.reads = 0

    async def read(self, key: Key, arg: Arg) -> Result:
        waiting = self._waiting.get(key)
        if waiting is None:
            waiting = self._waiting[key] = asyncio.get_running_loop().create_future()
            self._asked[key] = arg
            if self._task is None or self._task.done():
                self._task = asyncio.create_task(self._run())
        return await asyncio.shield(waiting)

    def close(self) -> None:
        """Stop reading (the server is stopping): whoever still waits hears so."""
        if self._task is not None:
            self._task.cancel()
        for future in self._waiting.values():
            future.cancel()
        self._asked.clear()
        self._waiting.clear()

    async def _run(self) -> None:
        while self._asked:
            keys = list(self._asked)[: self._batch]
            asked = {key: self._asked.pop(key) for key in keys}
            futures = {key: self._waiting.pop(key) for key in keys}
            self.reads += 1
            try:
                found = await asyncio.to_thread(self._read_many, asked)
            except asyncio.CancelledError:  # closed: nobody gets this batch
                for future in futures.values():
                    future.cancel()
                raise
            except Exception as exc:  # every socket of the batch hears it
                for future in futures.values():
                    if not future.done():
                        future.set_exception(exc)
                        future.exception()  # told to whoever waits; nobody may be left
                continue
            for wanted, future in futures.items():
                if future.done():
                    continue
                if wanted in found:
                    future.set_result(found[wanted])
                else:  # a read that forgot one must not leave its socket waiting
                    future.set_exception(LookupError(f"the read gave nothing for {wanted!r}"))
                    future.exception()
