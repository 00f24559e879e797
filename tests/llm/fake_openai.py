"""A tiny OpenAI-compatible chat server for tests: deterministic rules instead of a model.

It answers `POST /v1/chat/completions` like the real API (so the real `openai` client talks to
it) and records every request. Rules: a statement is worth remembering unless it ends with "?";
for the update (and the older contradiction) prompt, a CURRENT fact is replaced
when it shares a content word with the NEW statement and exactly one of the two carries a
change marker ("allergic", "no longer", "moved", "hate", "stopped"); for a summary prompt, the
reply lists the statements' first words; kinds, abstractions and relations follow simple marker
rules (see `_kinds`, `_relations`).
"""

from __future__ import annotations

import json
import re
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

MARKERS = ("allergic", "no longer", "moved", "hate", "stopped")
STOP = {"i", "am", "to", "the", "a", "an", "my", "in", "is", "of", "and", "eating", "enjoy"}


def _words(text: str) -> set[str]:
    return {w.rstrip("s") for w in re.findall(r"[a-z]+", text.lower())} - STOP


def _changed(text: str) -> bool:
    return any(m in text.lower() for m in MARKERS)


KIND_WORDS = {"plan": "tomorrow", "preference": "love", "belief": "think", "intent": "want"}


def _kinds(user: str) -> str:
    """Kinds by one marker word each (else "event"), so tests can tell them from the rules."""
    texts = re.findall(r"^\d+\. (.*)$", user, re.M)
    kinds = [
        next((k for k, word in KIND_WORDS.items() if word in text.lower()), "event")
        for text in texts
    ]
    return json.dumps({"kinds": kinds})


def _relations(user: str) -> str:
    """Each pair seen together becomes LINKED_TO with confidence 0.7."""
    pairs = re.findall(r"^- (\S+) / (\S+)$", user, re.M)
    return json.dumps({"relations": [[a, "LINKED_TO", b, 0.7] for a, b in pairs]})


def answer(system: str, user: str) -> str:
    """The fake model's reply."""
    if system.startswith("Classify each"):
        return _kinds(user)
    if "typed relations" in system:
        return _relations(user)
    if "higher-level memory" in system:
        topic = re.search(r"TOPIC: (.*)", user)
        return f"About {topic.group(1) if topic else 'it'}: " + "; ".join(
            re.findall(r"^- (.*)$", user, re.M)
        )
    if "worth remembering" in system:
        texts = re.findall(r"^\d+\. (.*)$", user, re.M)
        return json.dumps({"memory": [not t.rstrip().endswith("?") for t in texts]})
    if "JSON" in system:
        new = re.search(r"NEW: (.*)", user)
        facts = re.findall(r"^(\d+)\. (.*)$", user, re.M)
        if not new:
            return "{}"
        replaced = [
            int(n)
            for n, text in facts
            if _words(text) & _words(new.group(1)) and _changed(text) != _changed(new.group(1))
        ]
        if '"actions"' in system:
            return json.dumps({"actions": [{"fact": n, "action": "update"} for n in replaced]})
        return json.dumps({"replaced": replaced})
    statements = re.findall(r"^- \(\S+\) (.*)$", user, re.M)
    return "Summary: " + "; ".join(s.split()[0] for s in statements)


class _Handler(BaseHTTPRequestHandler):
    server: _Server

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.requests.append(body)
        if self.server.fail:
            self.send_response(500)
            self.end_headers()
            return
        messages = {m["role"]: m["content"] for m in body["messages"]}
        reply = answer(messages.get("system", ""), messages.get("user", ""))
        payload = {
            "id": "chatcmpl-fake",
            "object": "chat.completion",
            "created": 0,
            "model": body.get("model", "fake"),
            "choices": [
                {
                    "index": 0,
                    "finish_reason": "stop",
                    "message": {"role": "assistant", "content": reply},
                }
            ],
            "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
        }
        data = json.dumps(payload).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, format: str, *args: Any) -> None:
        return


class _Server(ThreadingHTTPServer):
    requests: list[dict[str, Any]]
    fail: bool


@contextmanager
def fake_openai_server() -> Iterator[_Server]:
    """Serve on 127.0.0.1 (a free port) for the duration of the block."""
    server = _Server(("127.0.0.1", 0), _Handler)
    server.requests = []
    server.fail = False
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
