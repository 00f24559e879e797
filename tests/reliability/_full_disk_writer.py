"""Child process of the full-disk test: writes batches into an embedded store whose files
are capped (`RLIMIT_FSIZE`, the way a full disk refuses bytes) until a write fails; prints
one line per acknowledged batch and the failure's class. It never closes the store:
LadybugDB's destructor aborts the process after an I/O failure, so it leaves by `os._exit`."""

from __future__ import annotations

import json
import os
import resource
import signal
import sys

from bitemporal_core import BitemporalError, MemoryStore


def main(path: str, room: int) -> None:
    store = MemoryStore.embedded(path)
    size = max(os.path.getsize(p) for p in (path, path + ".wal") if os.path.exists(p))
    signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a failed write() instead of a signal
    resource.setrlimit(resource.RLIMIT_FSIZE, (size + room, size + room))
    for i in range(10_000):
        batch = [
            {
                "text": f"Note {i}-{j}: I visited the gallery of modern art {i * 20 + j}.",
                "id": f"m{i}-{j}",
            }
            for j in range(20)
        ]
        try:
            store.remember_many(batch, namespace="disk")
        except BitemporalError as e:
            print(json.dumps({"failed": i, "error": type(e).__name__}), flush=True)
            break
        print(json.dumps({"acknowledged": i}), flush=True)
    os._exit(0)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
