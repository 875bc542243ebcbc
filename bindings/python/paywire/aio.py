"""asyncio surface of the binding: the same typed methods, awaitable, and events as an async
iterator.

    async with paywire.aio.Client(config) as client:
        paywall = await client.get_paywall(placement_id="onboarding")
        async for event in client.events(timeout=0.5):
            ...

Built on the binding's own machinery, not on ctypes callbacks (which cost ten times more per
event and run on the core's threads): each call goes out with `call_async`, and one pump task
polls the client in the loop's default executor, so the loop never blocks. A `call_result`
for a call made here resolves that call's future; every other event is queued for `events()`.
"""
from __future__ import annotations

import asyncio
from typing import Any, AsyncIterator, Dict, List, Mapping, Optional

from . import Client as _SyncClient
from . import PaywireError, _warn_about
from .methods import AsyncTypedMethods
from .models import AnyEvent, parse_event

__all__ = ["Client"]

_BATCH = 256  # events taken per executor hop: one hop per event would cost more than the poll


class Client(AsyncTypedMethods):
    """One Paywire client for asyncio. Close it with `await client.aclose()` or `async with`.

    Events are buffered here until `events()` reads them (the core's own queue stays drained, so
    its overflow event cannot fire): a program that never reads events should not keep a client
    open for long."""

    def __init__(self, config: Optional[Mapping[str, Any]] = None, *, poll_interval: float = 0.05):
        self.sync = _SyncClient(config)  # the blocking client: raw `call`, and the same handle
        self._poll_interval = poll_interval
        self._pending: Dict[int, asyncio.Future[Any]] = {}
        self._queue: Optional[asyncio.Queue[Optional[Dict[str, Any]]]] = None
        self._pump: Optional[asyncio.Task[None]] = None
        self._closed = False

    async def call(self, method: str, params: Optional[Mapping[str, Any]] = None) -> Any:
        """The raw contract, awaitable: the success result as JSON values; raises PaywireError."""
        if self._closed:
            raise PaywireError("CLOSED", {"code": "closed", "message": "the client is closed"})
        self._start()
        if self._pump is not None and self._pump.done():  # it stopped on an error: nobody would answer
            raise PaywireError("CLOSED", {"code": "closed", "message": "the event pump stopped"})
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        # No await between call_async and registering the future: the pump dispatches on this
        # loop's thread, so the result cannot be looked up before it is registered.
        self._pending[self.sync.call_async(method, params)] = future
        return await future

    async def _call_typed(self, method: str, params: Dict[str, Any]) -> Any:
        return await self.call(method, params)

    async def events(self, timeout: Optional[float] = None) -> AsyncIterator[AnyEvent]:
        """Typed events in seq order; ends when none came for `timeout` seconds (never, when
        None) or when the client is closed."""
        queue = self._start()
        while True:
            try:
                raw = await asyncio.wait_for(queue.get(), timeout)
            except asyncio.TimeoutError:
                return
            if raw is None:  # closed
                queue.put_nowait(None)  # let any other reader stop too
                return
            yield parse_event(raw)

    async def aclose(self) -> None:
        """Stops the pump, frees the client, fails calls still waiting. Safe to call twice."""
        if self._closed:
            return
        self._closed = True
        if self._pump is not None:
            await asyncio.gather(self._pump, return_exceptions=True)
        self.sync.close()
        self._fail_pending(PaywireError("CLOSED", {"code": "closed", "message": "the client was closed"}))
        if self._queue is not None:
            self._queue.put_nowait(None)

    async def __aenter__(self) -> "Client":
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()

    # ---- the pump -----------------------------------------------------------------------------
    def _start(self) -> asyncio.Queue[Optional[Dict[str, Any]]]:
        if self._queue is None:
            self._queue = asyncio.Queue()
        if self._pump is None and not self._closed:
            self._pump = asyncio.get_running_loop().create_task(self._run_pump())
        return self._queue

    async def _run_pump(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while not self._closed:
                for event in await loop.run_in_executor(None, self._drain):
                    self._dispatch(event)
        except Exception as error:  # the client failed under us: no call may wait forever
            self._fail_pending(error)
            if self._queue is not None:
                self._queue.put_nowait(None)

    def _drain(self) -> List[Dict[str, Any]]:
        """Runs in the executor: waits up to poll_interval for one event, then takes what is queued."""
        batch: List[Dict[str, Any]] = []
        event = self.sync.poll(self._poll_interval)
        while event is not None:
            batch.append(event)
            if len(batch) >= _BATCH:
                break
            event = self.sync.poll(0)
        return batch

    def _dispatch(self, event: Dict[str, Any]) -> None:
        if event.get("event") == "call_result":
            future = self._pending.pop(event.get("call_id", 0), None)
            if future is not None:
                if not future.done():  # a cancelled await leaves a done future behind
                    envelope = event.get("envelope", {})
                    if "error" in envelope:
                        future.set_exception(PaywireError(event.get("status_name", "FAILED"), envelope["error"]))
                    else:
                        _warn_about(envelope.get("success"))
                        future.set_result(envelope.get("success"))
                return
        assert self._queue is not None
        self._queue.put_nowait(event)

    def _fail_pending(self, error: BaseException) -> None:
        pending, self._pending = self._pending, {}
        for future in pending.values():
            if not future.done():
                future.set_exception(error)
