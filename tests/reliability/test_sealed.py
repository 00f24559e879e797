"""Sealed namespaces (`keys=`): the engine's files never hold a namespace's texts readable,
and `forget(namespace=...)` destroys the key, so the sealed copies the files keep (freed
Neo4j records, transaction logs) can no longer be opened by anyone."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest

from bitemporal_core import (
    FileKeyStore,
    InvalidInput,
    KeyStoreError,
    MemoryStore,
)
from bitemporal_core.backends.sealed.cipher import Seal
from bitemporal_core.backends.sealed.keys import KEY_BYTES
from bitemporal_core.language.extract import ConceptExtractor

from ._helpers import PASSWORD, PrivateNeo4j, observe, require_java_and_maven
from .test_forget import (
    NEEDLES,
    QUERIES,
    EchoLLM,
    bytes_on_disk,
    embed,
    populate_forgotten,
    populate_forgotten_zh,
    populate_kept,
)


def _sealed_forms(seal: Seal) -> list[str]:
    """Sealed values of namespace x that are long enough to be stored as plain bytes (short
    strings Neo4j packs into its records): the first 40 characters of each."""
    texts = [f"Zorbleq visited Quixfot on trip {i}." for i in range(4)]
    return [seal.enc(t)[:40] for t in texts]


def _readable(store: MemoryStore, ns: str) -> list[str]:
    return sorted(f.text for f in store.timeline(ns))


@pytest.mark.slow
@pytest.mark.neo4j
def test_a_sealed_neo4j_namespace_is_unreadable_on_disk_once_forgotten(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    """A private server (so nothing another test wrote is on its disk): every kind of write
    in a sealed namespace x, a kept namespace y, `forget(namespace="x")`, a clean shutdown
    (every record checkpointed into the store files). No file of the server holds any of x's
    strings in plain text, the sealed copies are still there (the grep sees what the server
    wrote), and no key that remains opens them."""
    pytest.importorskip("neo4j")
    require_java_and_maven()
    keys = FileKeyStore(tmp_path / "keys")
    server = PrivateNeo4j(tmp_path / "run")
    server.start()
    try:
        store = MemoryStore.neo4j(
            server.uri,
            auth=("neo4j", PASSWORD),
            extractor=extractor,
            llm=EchoLLM(),
            embedder=embed,
            keys=keys,
        )
        with store:
            populate_forgotten(store, "x")
            populate_forgotten_zh(store, "x")
            assert store.abstract("x")  # an extractive digest quoting the markers
            assert store.infer_relationships("x", min_strength=2)  # edges between their concepts
            populate_kept(store, "y")
            assert any("Zorbleq" in t for t in _readable(store, "x"))
            kept, view = _readable(store, "y"), observe(store, "y", QUERIES)
            key_x = keys.key("x", create=False)
            assert key_x is not None
            store.forget(namespace="x")
            assert keys.key("x", create=False) is None
            assert _readable(store, "y") == kept and observe(store, "y", QUERIES) == view
    finally:
        server.stop()
    data = tmp_path / "run" / "home" / "data"
    assert bytes_on_disk(data, NEEDLES) == {}
    left = bytes_on_disk(data, _sealed_forms(Seal("x", key_x)))
    assert left, "the server's files hold none of the sealed values: the grep proves nothing"
    remaining = [p.read_bytes() for p in (tmp_path / "keys").iterdir()]
    assert len(remaining) == 1 and key_x not in remaining  # y's key only
    with pytest.raises(KeyStoreError):
        Seal("x", remaining[0]).dec(Seal("x", key_x).enc("Zorbleq visited Quixfot on trip 0."))


def test_a_sealed_embedded_store_holds_no_plain_text_even_while_open(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    """The sealed embedded store's file, WAL and saved recall indexes never hold a text of
    the namespace, open or closed; it reads back, recalls and forgets as a plain one."""
    path, keys = tmp_path / "db" / "memory.lbdb", tmp_path / "keys"
    path.parent.mkdir()
    opts = {"extractor": extractor, "llm": EchoLLM(), "embedder": embed, "keys": keys}
    with MemoryStore.embedded(path, **opts) as s:  # type: ignore[arg-type]
        populate_forgotten(s, "x")
        populate_forgotten_zh(s, "x")
        populate_kept(s, "y")
        hits = s.recall("Where did Zorbleq go?", namespace="x")
        assert hits and "Zorbleq" in hits[0].fact.text
        assert bytes_on_disk(path.parent, NEEDLES) == {}
        view = observe(s, "y", QUERIES)
    assert bytes_on_disk(path.parent, NEEDLES) == {}
    with MemoryStore.embedded(path, **opts) as s:  # type: ignore[arg-type]
        assert observe(s, "y", QUERIES) == view
        s.forget(namespace="x")
        assert s.namespaces() == ["y"]
    assert len(list(keys.iterdir())) == 1


def test_data_the_key_does_not_open_is_a_clear_error(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    """Opening a plain store with keys, or a sealed one with another key store, raises
    `KeyStoreError` (never garbage); a sealed store opened without keys shows sealed text."""
    path = tmp_path / "memory.lbdb"
    with MemoryStore.embedded(path, extractor=extractor) as s:
        s.remember("Alice lives in Paris.", namespace="plain")
    with MemoryStore.embedded(path, extractor=extractor, keys=tmp_path / "k1") as s:
        with pytest.raises(KeyStoreError, match="has no key"):
            s.snapshot("plain")
        s.remember("Bob lives in Rome.", namespace="sealed")
        assert [f.text for f in s.snapshot("sealed")] == ["Bob lives in Rome."]
    other = MemoryStore.embedded(path, extractor=extractor, keys=tmp_path / "k2")
    with other as s, pytest.raises(KeyStoreError):
        s.snapshot("sealed")
    with MemoryStore.embedded(path, extractor=extractor) as s:
        assert "Rome" not in s.snapshot("sealed")[0].text


def test_a_read_overtaken_by_the_first_write_opens_what_it_finds(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    """A read of a namespace with no key yet, overtaken by its first write (which creates the
    key) between reading the key and reading the engine, opens what it finds: concurrent
    first writes once raised `KeyStoreError` ("holds data its key does not open")."""
    with MemoryStore.embedded(None, extractor=extractor, keys=tmp_path / "keys") as s:
        sealed: Any = s.backend
        real = sealed.inner.recent

        def overtaken(namespace: str) -> tuple[str, ...]:
            sealed.inner.recent = real
            s.remember("Alice met Bob in Rome.", namespace=namespace)  # creates the key
            return tuple(real(namespace))

        sealed.inner.recent = overtaken
        found = sealed.recent("c")
        assert "person:alice" in found and found == sealed.recent("c")


def test_file_key_store_keys_are_one_per_namespace_and_destroyed_for_good(
    tmp_path: Path,
) -> None:
    keys = FileKeyStore(tmp_path / "keys")
    assert keys.key("a", create=False) is None and not (tmp_path / "keys").exists()
    got: list[bytes | None] = []
    threads = [
        threading.Thread(target=lambda: got.append(keys.key("a", create=True))) for _ in range(8)
    ]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(set(got)) == 1 and len(got[0] or b"") == KEY_BYTES
    assert keys.key("b", create=True) != got[0]
    files = sorted((tmp_path / "keys").iterdir())
    assert len(files) == 2 and all(f.stem != "a" and f.stat().st_mode & 0o077 == 0 for f in files)
    assert keys.destroy("a") and not keys.destroy("a")
    assert keys.key("a", create=False) is None
    assert keys.key("a", create=True) != got[0]


def test_key_store_faults_are_the_librarys_errors(tmp_path: Path) -> None:
    keys = FileKeyStore(tmp_path / "keys")
    keys.key("a", create=True)
    (only,) = (tmp_path / "keys").iterdir()
    only.write_bytes(b"short")
    with pytest.raises(KeyStoreError, match="damaged"):
        keys.key("a", create=False)
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    with pytest.raises(KeyStoreError, match="cannot use the key store"):
        FileKeyStore(blocked).key("a", create=True)
    with pytest.raises(InvalidInput, match="KeyStore or a folder"):
        MemoryStore.embedded(None, keys=42)


class ForgetElsewhere:
    """A key store where another process forgets namespace `ns` while this one writes: the
    read after the first write's (the check after it) finds the key destroyed, the data gone."""

    def __init__(self, keys: FileKeyStore, ns: str) -> None:
        self.keys, self.ns, self.forget = keys, ns, lambda: None
        self.armed: bool | None = None

    def key(self, namespace: str, *, create: bool) -> bytes | None:
        if namespace == self.ns and self.armed is None and create:
            self.armed = True
        elif namespace == self.ns and self.armed:
            self.armed = False
            self.keys.destroy(namespace)
            self.forget()
        return self.keys.key(namespace, create=create)

    def destroy(self, namespace: str) -> bool:
        return self.keys.destroy(namespace)


def test_a_write_another_process_forget_overtook_is_removed_and_refused(
    tmp_path: Path, extractor: ConceptExtractor
) -> None:
    keys = ForgetElsewhere(FileKeyStore(tmp_path / "keys"), "c")
    with MemoryStore.embedded(None, extractor=extractor, keys=keys) as s:
        keys.forget = lambda: s.backend.inner.forget_namespace("c")  # type: ignore[attr-defined]
        s.remember("Bob likes tea.", namespace="d")
        with pytest.raises(KeyStoreError, match="forgotten while this write ran"):
            s.remember("Alice lives in Paris.", namespace="c")
        assert s.snapshot("c") == [] and s.timeline("c").versions == ()
        s.remember("Alice lives in Rome.", namespace="c")  # a new key from now on
        assert [f.text for f in s.snapshot("c")] == ["Alice lives in Rome."]
        assert [f.text for f in s.snapshot("d")] == ["Bob likes tea."]
