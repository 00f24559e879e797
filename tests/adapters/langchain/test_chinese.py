"""Chinese conversations through the LangChain adapters, on every engine (issue #18)."""

from __future__ import annotations

from langchain_core.messages import AIMessage, HumanMessage

from bitemporal_core import Basis, MemoryStore
from langchain_bitemporal import BitemporalChatMessageHistory, BitemporalRetriever

from .fakes import t


def test_chinese_history_and_retriever(store: MemoryStore) -> None:
    chat = BitemporalChatMessageHistory(store, session_id="s1", namespace="xm")
    chat.add_messages(
        [HumanMessage("我喜欢吃苹果。"), AIMessage("好的，记住了。"), HumanMessage("我住在杭州。")]
    )
    assert [m.content for m in chat.messages][:2] == ["我喜欢吃苹果。", "好的，记住了。"]
    docs = BitemporalRetriever(store, namespace="xm", k=2).invoke("我可以吃苹果吗？")
    assert docs[0].page_content == "我喜欢吃苹果。"
    assert docs[0].metadata["language"] == "zh" and docs[0].metadata["kind"] == "preference"


def test_chinese_retriever_at_a_basis(store: MemoryStore) -> None:
    like = store.remember("我喜欢吃苹果。", namespace="xm", at=t("2023-10-26T10:00"))[0]
    store.supersede(like.id, "我對蘋果過敏。", at=t("2023-10-27T09:00"))
    retriever = BitemporalRetriever(store, namespace="xm", k=1)
    assert [d.page_content for d in retriever.invoke("苹果")] == ["我對蘋果過敏。"]
    then = retriever.invoke("苹果", valid_at=t("2023-10-26T12:00"))
    assert [d.page_content for d in then] == ["我喜欢吃苹果。"]
    assert then[0].metadata["valid_to"].startswith("2023-10-27")
    assert Basis(valid_at=t("2023-10-26T12:00")).valid_at is not None
