"""Secrets: credentials never appear in logs, reprs or error messages (Neo4j passwords, in
`auth` or in the URI, right or wrong; API keys of the LLM and embedding clients)."""

from __future__ import annotations

import logging
import traceback
from collections.abc import Iterator
from typing import Any
from urllib.parse import quote

import pytest

from bitemporal_core import BackendError, BitemporalError, ConfigurationError, MemoryStore
from bitemporal_core.language.extract import ConceptExtractor

from ..conftest import neo4j_settings

SECRET = "p@ss:w%rd/Secret-7Qx"  # URI-special characters on purpose
USER = "bitemporal_reliability"
LOGGERS = ("neo4j", "bitemporal_core", "bitemporal_memory", "openai", "httpx")


def _chain(error: BaseException) -> str:
    """Everything an error shows: message, repr, causes, contexts and the full traceback."""
    seen, out, e = set(), [], error
    while e is not None and id(e) not in seen:
        seen.add(id(e))
        out += [str(e), repr(e), repr(getattr(e, "args", ()))]
        e = e.__cause__ or e.__context__
    out.append("".join(traceback.format_exception(error)))
    return "\n".join(out)


def _forms(secret: str) -> list[str]:
    """The secret as written, URI-encoded, and its longest distinctive part."""
    return [secret, quote(secret, safe=""), "Secret-7Qx"]


def _assert_clean(texts: list[str], secret: str = SECRET) -> None:
    for text in texts:
        for form in _forms(secret):
            assert form not in text, f"secret shown in: {text[:300]!r}"


@pytest.fixture
def debug_logs(caplog: pytest.LogCaptureFixture) -> Iterator[pytest.LogCaptureFixture]:
    for name in LOGGERS:
        caplog.set_level(logging.DEBUG, logger=name)
    yield caplog


def _log_text(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [caplog.text, *(repr(r.args) for r in caplog.records), *(r.msg for r in caplog.records)]


@pytest.fixture
def real_user(neo4j_driver: Any) -> Iterator[str]:
    """A user of our own on the test server whose real password is not SECRET: wrong
    attempts lock only this user (Neo4j locks a user after repeated failures)."""
    try:
        with neo4j_driver.session(database="system") as session:
            session.run(
                f"CREATE USER {USER} IF NOT EXISTS SET PLAINTEXT PASSWORD $pw CHANGE NOT REQUIRED",
                pw="the-right-password-1",
            ).consume()
    except Exception:  # no user management here: an unknown user is just as wrong
        yield "no-such-user-7"
        return
    yield USER
    with neo4j_driver.session(database="system") as session:
        session.run(f"DROP USER {USER} IF EXISTS").consume()


def _uri(user: str, password: str) -> str:
    uri, _, _ = neo4j_settings()
    scheme, host = uri.split("://", 1)
    return f"{scheme}://{quote(user, safe='')}:{quote(password, safe='')}@{host}"


@pytest.mark.neo4j
@pytest.mark.parametrize("given", ["auth", "uri"])
def test_a_wrong_password_is_never_shown(
    given: str,
    real_user: str,
    extractor: ConceptExtractor,
    debug_logs: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    uri, _, _ = neo4j_settings()
    if given == "auth":
        store = MemoryStore.neo4j(uri, auth=(real_user, SECRET), extractor=extractor)
    else:
        store = MemoryStore.neo4j(_uri(real_user, SECRET), extractor=extractor)
    shown = [repr(store), repr(store.backend), store.describe(), str(vars(store.backend))]
    errors = []
    for call in (
        lambda: store.remember("I like tea.", namespace="a"),
        lambda: store.recall("tea", namespace="a"),
        lambda: store.namespaces(),
    ):
        with pytest.raises(BitemporalError) as info:
            call()
        errors.append(_chain(info.value))
    store.close()
    assert any("unauthorized" in e.lower() or "authentic" in e.lower() for e in errors)
    out = capsys.readouterr()
    _assert_clean([*shown, *errors, *_log_text(debug_logs), out.out, out.err])


@pytest.mark.neo4j
def test_a_right_password_in_the_uri_is_never_shown(
    neo4j_driver: Any,
    extractor: ConceptExtractor,
    debug_logs: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    _, user, password = neo4j_settings()
    store = MemoryStore.neo4j(_uri(user, password), extractor=extractor)
    with neo4j_driver.session() as session:
        session.run("MATCH (n) DETACH DELETE n").consume()
    with store:
        store.remember("I like tea.", namespace="a")
        assert store.recall("tea", namespace="a")
        shown = [repr(store), repr(store.backend), store.describe()]
        with pytest.raises(BitemporalError) as info:  # a server-side error, while connected
            store.backend._write("THIS IS NOT CYPHER", {})  # type: ignore[attr-defined]
        shown.append(_chain(info.value))
    out = capsys.readouterr()
    _assert_clean([*shown, *_log_text(debug_logs), out.out, out.err], password)
    assert "bolt://" in shown[0]  # the host is still shown


@pytest.mark.parametrize(
    "uri",
    [
        "ftp://neo4j:{pw}@127.0.0.1",  # refused: unsupported scheme
        "bolt://neo4j:{pw}@[::1",  # refused: not a URI
        "bolt://neo4j:{pw}@127.0.0.1:notaport",  # accepted: the driver connects lazily
        "neo4j://neo4j:{pw}@127.0.0.1:1",  # accepted: nothing listens there
    ],
)
def test_a_bad_uri_with_credentials_in_it_does_not_show_them(
    uri: str, debug_logs: pytest.LogCaptureFixture
) -> None:
    pytest.importorskip("neo4j")
    try:
        store = MemoryStore.neo4j(uri.format(pw=quote(SECRET, safe="")))
    except ConfigurationError as e:
        shown = [_chain(e)]
    else:
        shown = [repr(store), repr(store.backend), store.describe()]
        store.close()
    _assert_clean([*shown, *_log_text(debug_logs)])


def test_credentials_in_both_the_uri_and_auth_are_refused_without_them() -> None:
    pytest.importorskip("neo4j")
    with pytest.raises(ConfigurationError) as info:
        MemoryStore.neo4j(_uri("neo4j", SECRET), auth=("neo4j", SECRET))
    _assert_clean([_chain(info.value)])


def test_api_keys_of_llm_and_embedding_clients_are_never_shown(
    extractor: ConceptExtractor,
    debug_logs: pytest.LogCaptureFixture,
    capsys: pytest.CaptureFixture[str],
) -> None:
    openai = pytest.importorskip("openai")
    key = "sk-test-" + SECRET
    client = openai.OpenAI(api_key=key, base_url="http://127.0.0.1:9/v1", max_retries=0)
    try:
        store = MemoryStore.embedded(extractor=extractor, llm=client, embedder=client)
        shown = [
            repr(store),
            store.describe(),
            repr(store.services.llm),
            repr(store.services.analyser.embedder),
        ]
        for call in (
            lambda: store.remember("I like tea.", namespace="a"),
            lambda: store.recall("tea", namespace="a"),
        ):
            with pytest.raises(Exception) as info:  # any failure: its text is checked below
                call()
            shown.append(_chain(info.value))
        store.close()
    finally:
        client.close()
    out = capsys.readouterr()
    _assert_clean([*shown, *_log_text(debug_logs), out.out, out.err], key)


def test_an_api_key_passed_as_the_embedder_is_not_echoed() -> None:
    """Found by this suite (the ConfigurationError quoted the str); fixed on branch issue9."""
    with pytest.raises(ConfigurationError) as info:
        MemoryStore.embedded(embedder="sk-test-" + SECRET)
    _assert_clean([_chain(info.value)])


def test_an_embedding_provider_error_is_a_backend_error_that_quotes_nothing(
    extractor: ConceptExtractor,
) -> None:
    """A provider's message may quote the key (e.g. "Incorrect API key provided: sk-..."):
    the library's error names the exception type only (the cause stays chained)."""

    def leaky(texts: list[str]) -> list[list[float]]:
        raise PermissionError(f"Incorrect API key provided: sk-{SECRET}")

    with MemoryStore.embedded(extractor=extractor, embedder=leaky) as store:
        with pytest.raises(BackendError) as info:
            store.remember("Alice visited Paris.", namespace="a")
        assert "PermissionError" in str(info.value)
        _assert_clean([str(info.value), repr(info.value)])
        assert store.namespaces() == []
