"""A bulk import's analysis process: the next chunks are parsed while this one is written.

Parsing (the spaCy tagger and parser) and writing each take about half of a bulk import, and
both hold the GIL much of the time, so threads do not overlap them; one worker process does.
It is started on the first large import (loading the model there takes a few seconds), kept
for later ones, and stopped by `MemoryStore.close`. It is a plain `python -m` command speaking
pickled frames over its pipes, not `multiprocessing`, whose spawned children import the
caller's `__main__` again. Results are the same as in-process analysis: the worker runs the
same extractor, rebuilt from its pickled form; embeddings and valid times are still computed
here. An extractor that cannot be pickled is run in-process.
"""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
import threading
from collections.abc import Iterator, Sequence
from typing import IO, Any

from bitemporal_core.errors import ExtractorUnavailable
from bitemporal_core.language.analysis import Analysed, Analyser, Utterance

__all__ = ["START_ITEMS", "AnalysisPool", "read_frame", "write_frame"]

START_ITEMS = 5_000  # a call this large starts the worker; a started one serves any 2-chunk call
_AHEAD = 2  # chunks analysed ahead of the one being written

_HEADER = struct.Struct("!Q")


def _request(said: Sequence[Utterance]) -> tuple[list[str], list[str | None]]:
    """What the worker parses of a part: its texts and their `language=`."""
    return [u.text for u in said], [u.language for u in said]


def write_frame(stream: IO[bytes], value: Any) -> None:
    """One length-prefixed pickle."""
    data = pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_HEADER.pack(len(data)) + data)
    stream.flush()


def read_frame(stream: IO[bytes]) -> Any:
    """The next frame's value; EOFError when the other side has closed."""
    header = stream.read(_HEADER.size)
    if len(header) < _HEADER.size:
        raise EOFError("the stream ended")
    size = _HEADER.unpack(header)[0]
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the stream ended inside a frame")
    return pickle.loads(data)


class _Worker:
    """The running `worker` process and its two pipes."""

    def __init__(self, setup: bytes) -> None:
        command = [sys.executable, "-m", "bitemporal_core.language.worker"]
        self._proc = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
        self._in = self._pipe(self._proc.stdin)
        self._out = self._pipe(self._proc.stdout)
        write_frame(self._in, setup)

    @property
    def pid(self) -> int:
        """The process id."""
        return self._proc.pid

    @staticmethod
    def _pipe(stream: IO[bytes] | None) -> IO[bytes]:
        assert stream is not None
        return stream

    def send(self, request: tuple[list[str], list[str | None]]) -> None:
        try:
            write_frame(self._in, request)
        except (BrokenPipeError, OSError) as e:
            raise ExtractorUnavailable(f"the analysis process stopped: {e}") from e

    def receive(self) -> list[list[Analysed]]:
        try:
            ok, value = read_frame(self._out)
        except (EOFError, OSError, pickle.UnpicklingError) as e:
            raise ExtractorUnavailable(f"the analysis process stopped: {e}") from e
        if not ok:
            raise value
        return value  # type: ignore[no-any-return]

    def close(self) -> None:
        try:
            self._in.close()
            self._proc.wait(timeout=10)
        except (OSError, subprocess.TimeoutExpired):
            self._proc.kill()
            self._proc.wait()
        finally:
            self._out.close()


class AnalysisPool:
    """The store's analysis process (none until a large import asks for it)."""

    def __init__(self, analyser: Analyser) -> None:
        self._analyser = analyser
        self._worker: _Worker | None = None
        self._lock = threading.RLock()

    def analysed(
        self, parts: Sequence[Sequence[Utterance]], *, parallel: bool | None
    ) -> Iterator[list[list[Analysed]]]:
        """Each part's statements (with their fields, embedded), in order; a worker process
        parses ahead when `parallel` is True, or None and the call is large (`START_ITEMS`).
        Each utterance's `language` is its `language=` (None: the analyser's)."""
        worker = self._worker_for(parts, parallel)
        if worker is None:
            yield from (self._analyser.analyse_many(list(said)) for said in parts)
            return
        with self._lock:  # one import at a time uses the worker
            sent = received = 0
            try:
                for said in parts[:_AHEAD]:
                    worker.send(_request(said))
                    sent += 1
                for part in parts:
                    groups = worker.receive()
                    received += 1
                    if sent < len(parts):
                        worker.send(_request(parts[sent]))
                        sent += 1
                    yield self._analyser.finish(groups, part)
            except ExtractorUnavailable:
                self._stop()
                raise
            finally:
                self._drain(worker, sent - received)

    def _drain(self, worker: _Worker, pending: int) -> None:
        """Read the answers of chunks sent but not used (the caller stopped early)."""
        if not pending or self._worker is not worker:  # none, or this worker was stopped
            return
        try:
            for _ in range(pending):
                worker.receive()
        except Exception:  # whatever it was, this worker's pipe is no longer in step
            self._stop()

    def _worker_for(
        self, parts: Sequence[Sequence[Utterance]], parallel: bool | None
    ) -> _Worker | None:
        if parallel is False or len(parts) < 2 or (os.cpu_count() or 1) < 2:
            return None
        if self._worker is None and not (parallel or sum(map(len, parts)) >= START_ITEMS):
            return None
        with self._lock:
            if self._worker is None:
                try:
                    analyser = self._analyser
                    setup = pickle.dumps((analyser.extractor, analyser.distance, analyser.language))
                except (pickle.PicklingError, TypeError, AttributeError):
                    return None  # this extractor cannot travel: analysed in-process
                self._worker = _Worker(setup)
            return self._worker

    def _stop(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None:
            worker.close()

    @property
    def worker_pid(self) -> int | None:
        """The analysis process's id while one runs, else None."""
        worker = self._worker
        return None if worker is None else worker.pid

    def close(self) -> None:
        """Stop the worker process, if one was started."""
        with self._lock:
            self._stop()
