"""The analysis process of bulk imports (`python -m bitemporal_core.language.worker`).

It reads pickled frames from stdin, the first one the pickled extractor, RecallM neighbour
distance and language choice, each next one a list of texts with their `language=` options,
and answers each list with its statements (or the
exception raised) on stdout, in order. Started by `pool.AnalysisPool`; a plain command rather
than `multiprocessing`, so the caller's `__main__` is never imported again.
"""

from __future__ import annotations

import pickle
import queue
import sys
import threading
from typing import Any

from bitemporal_core.language.pool import read_frame, write_frame


def main() -> None:
    from bitemporal_core.language.analysis import Analyser

    requests, replies = sys.stdin.buffer, sys.stdout.buffer
    sys.stdout = sys.stderr  # stray prints must not corrupt the frames
    extractor, distance, language = pickle.loads(read_frame(requests))
    analyser = Analyser(extractor=extractor, resolver=None, distance=distance, language=language)
    inbox: queue.Queue[Any] = queue.Queue()

    def drain() -> None:  # keeps reading, so the caller never blocks on a full pipe
        while True:
            try:
                inbox.put(read_frame(requests))
            except EOFError:
                inbox.put(None)
                return

    threading.Thread(target=drain, daemon=True).start()
    while (request := inbox.get()) is not None:
        texts, languages = request
        try:
            reply: tuple[bool, Any] = (True, analyser.statements_many(texts, languages))
        except Exception as e:  # sent back and raised by the caller
            reply = (False, e)
        write_frame(replies, reply)


if __name__ == "__main__":
    main()
