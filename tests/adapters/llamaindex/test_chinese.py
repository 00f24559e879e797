"""Chinese conversations through the LlamaIndex adapters, on every engine (issue #18)."""

from __future__ import annotations

from llama_index.core.llms import ChatMessage, MessageRole

from bitemporal_core import Basis, MemoryStore
from llamaindex_bitemporal import BitemporalMemory, BitemporalRetriever

from .conftest import t


def test_chinese_memory_and_retriever(store: MemoryStore) -> None:
    like = store.remember("我喜欢吃苹果。", namespace="xm", at=t("2023-10-26T10:00"))[0]
    store.supersede(like.id, "我对苹果过敏。", at=t("2023-10-27T09:00"))
    store.remember("下个月我要去巴黎出差。", namespace="xm", at=t("2023-10-28T10:00"))
    memory = BitemporalMemory(store, namespace="xm", session="s1")
    memory.put(ChatMessage(role=MessageRole.USER, content="我可以做苹果派吗？"))
    system = memory.get("我可以做苹果派吗？")[0].content
    assert "我对苹果过敏。" in system and "我喜欢吃苹果。" not in system
    (node,) = BitemporalRetriever(store, namespace="xm").retrieve("巴黎")
    assert node.node.metadata["language"] == "zh" and node.node.metadata["kind"] == "plan"
    on_26 = Basis(valid_at=t("2023-10-26T12:00"))
    (then,) = BitemporalRetriever(store, namespace="xm", basis=on_26).retrieve("苹果")
    assert then.node.get_content() == "我喜欢吃苹果。"
