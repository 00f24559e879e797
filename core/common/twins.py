"""Async twins: run a sync method in a worker thread so the event loop never blocks."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Coroutine
from types import TracebackType
from typing import Any, Concatenate, ParamSpec, Self, TypeVar

__all__ = ["Closing", "twin"]

P = ParamSpec("P")
R = TypeVar("R")
S = TypeVar("S")


def twin(
    method: Callable[Concatenate[S, P], R],
) -> Callable[Concatenate[S, P], Coroutine[Any, Any, R]]:
    """The `a`-prefixed async twin of a blocking method, with the same signature."""

    async def run(self: S, /, *args: P.args, **kwargs: P.kwargs) -> R:
        return await asyncio.to_thread(method, self, *args, **kwargs)

    run.__name__ = "a" + method.__name__
    run.__qualname__ = method.__qualname__.rsplit(".", 1)[0] + "." + run.__name__
    run.__module__ = method.__module__
    run.__wrapped__ = method  # type: ignore[attr-defined]  # inspect.signature follows it
    run.__doc__ = f"Async twin of `{method.__name__}` (runs it off the event loop)."
    return run


class Closing:
    """`with` and `async with` support for an object with `close` and its twin `aclose`."""

    def close(self) -> None:
        raise NotImplementedError

    async def aclose(self) -> None:
        await asyncio.to_thread(self.close)

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    async def __aenter__(self) -> Self:
        return self

    async def __aexit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        await self.aclose()
