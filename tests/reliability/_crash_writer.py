"""A bulk importer the durability test kills with SIGKILL (run as a script, not collected).

    python _crash_writer.py PATH FIRST_CHUNK N_CHUNKS CHUNK_SIZE CHECKPOINT_BYTES

Each chunk is one `remember_many` call (one transaction), then one `supersede` of the chunk's
first fact. A line is printed before each call starts (BEGIN/SBEGIN) and after it returned
(ACK/SACK, with the ids), flushed, so the test knows exactly what was acknowledged.
CHECKPOINT_BYTES > 0 opens the database with that small WAL checkpoint threshold, so the kill
also lands during checkpoints.
"""

from __future__ import annotations

import sys

TEXTS = ("Alice visited Paris.", "Bob likes green tea.")
SUPERSEDE_TEXT = "Carol moved to Rome."
NAMESPACE = "imp"


def main() -> None:
    path, first, count, size, threshold = sys.argv[1], *map(int, sys.argv[2:6])
    from bitemporal_core import MemoryStore

    if threshold == 0:
        store = MemoryStore.embedded(path)
    else:
        import ladybug

        from bitemporal_core.backends.ladybug import LadybugBackend

        db = ladybug.Database(path, checkpoint_threshold=threshold)
        store = MemoryStore(LadybugBackend(database=db))
    store.remember("warm up", namespace="warm-up")  # loads the models before the first chunk
    print("READY", flush=True)
    for c in range(first, first + count):
        items = [
            {"text": TEXTS[j % 2], "id": f"c{c}-{j}", "session": f"s{c}", "speaker": "user"}
            for j in range(size)
        ]
        print("BEGIN", c, flush=True)
        facts = store.remember_many(items, namespace=NAMESPACE, chunk=size)
        print("ACK", c, *(f[0].id for f in facts), flush=True)
        print("SBEGIN", c, flush=True)
        new = store.supersede(facts[0][0].id, SUPERSEDE_TEXT, source=f"c{c}-sup")
        print("SACK", c, facts[0][0].id, new.id, flush=True)
    print("DONE", flush=True)


if __name__ == "__main__":
    main()
