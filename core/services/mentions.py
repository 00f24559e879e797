"""Who a conversation mentioned, to resolve its pronouns and the relatives it named
(docs/design.md, "Memory formation")."""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence

import attrs

from bitemporal_core.language.people import nickname_of
from bitemporal_core.language.people_zh import zh_alias_opening
from bitemporal_core.language.slots import slot_table
from bitemporal_core.model import Claim

__all__ = ["SINGULAR_PRONOUNS", "Mentions"]

_PLURAL = frozenset({"parents", "kids", "children", "family", "in-laws", "爸妈", "父母", "孩子们"})
SINGULAR_PRONOUNS = frozenset({"he", "she", "him", "her", "他", "她"})
"""The pronouns that point back to one other person."""


@attrs.define
class Mentions:
    """Who a conversation mentioned, most recent first: entity keys of people and relatives
    (the speaker excluded), to resolve pronouns; then the relatives it named
    (`relation:dad=person:pete`), so that a later "dad" is the same entity."""

    recent: list[str] = attrs.field(factory=list)
    changed: bool = False
    keep: int = 12

    def add(self, key: str) -> None:
        if key.startswith(("speaker:", "unknown:")):
            return
        people = [k for k in self.recent if "=" not in k]
        aliases = [k for k in self.recent if "=" in k]
        if "=" in key:
            relation = key.split("=", 1)[0] + "="
            aliases = [a for a in aliases if not a.startswith(relation)] + [key]
        else:
            if key in people:
                people.remove(key)
            people.insert(0, key)
        stored = people[: self.keep] + aliases[-self.keep :]
        if stored != self.recent:
            self.changed = True
        self.recent[:] = stored

    def lead(self, text: str, relatives: Sequence[str], pronouns: Collection[str]) -> None:
        """Make the relatives (relation words) a statement names before its first he or
        she, of that pronoun's gender, the latest mentioned (as who they are known as):
        "Mum finally sold up and she's moved to Devizes" is Mum's move, whoever was
        mentioned last before the statement."""
        said = text.lower()
        for pronoun in pronouns:
            wanted, at = _gender(pronoun), _at(pronoun, said)
            for word in relatives if wanted is not None and at >= 0 else ():
                if _gender(word) == wanted and 0 <= _at(word, said) < at:
                    self.add(self.alias("relation:" + word))

    def as_kin(self, claims: Sequence[Claim]) -> list[Claim]:
        """The claims of someone named as a relative ("my brother Callum") said again of the
        relative, so that they meet what was said of "my brother" before he was named."""
        named = {a.split("=", 1)[1]: a.split("=", 1)[0] for a in self.recent if "=" in a}
        return [attrs.evolve(c, subject=named[c.subject]) for c in claims if c.subject in named]

    def alias(self, key: str) -> str:
        """The person a relative was named as ("my dad Pete"), or the one person mentioned
        whose first name a short name begins ("rach" for Rachel), else `key` itself."""
        found = next((a for a in self.recent if a.startswith(key + "=")), None)
        if found is not None:
            return found.split("=", 1)[1]
        kin = self._kin(key)
        if kin is not None:
            return self.alias(kin)
        return self._named_in_full(key) or key

    def _kin(self, key: str) -> str | None:
        """The one relative mentioned whom a relation word not mentioned itself may stand
        for (`subjects.relation_families`): "the kid" for the son, "my partner" for the
        husband, 孩子 for 儿子; and the other way round ("my husband" for "my partner")."""
        kind, _, word = key.partition(":")
        if kind != "relation" or any(k == key or k.startswith(key + "=") for k in self.recent):
            return None
        families = slot_table()["subjects"]["relation_families"]
        kin = set(families.get(word, ())) | {g for g, words in families.items() if word in words}
        said = {k.split("=", 1)[0].partition(":")[2] for k in self.recent if k.startswith(kind)}
        found = kin & said
        return "relation:" + found.pop() if len(found) == 1 else None

    def _named_in_full(self, key: str) -> str | None:
        """The one person mentioned whom a short name not mentioned itself may stand for
        (`nickname_of`: "rach" for Rachel, "jonno" for Jonathan, 洋子 for 刘洋; not "tom"
        when Tom and Tommy were both mentioned), or the one whose short name was mentioned
        when a full name comes later ("Joseph" after "Joe")."""
        kind, _, name = key.partition(":")
        if kind != "person" or key in self.recent:
            return None
        people = self._people()
        fuller = {k for k in people if nickname_of(name, k.partition(":")[2])}
        if not fuller:  # "Dev" mentioned, then "Devendra"
            fuller = {k for k in people if nickname_of(k.partition(":")[2], name)}
        return fuller.pop() if len(fuller) == 1 else None

    def _people(self) -> list[str]:
        return [k for k in self.recent if k.startswith("person:") and "=" not in k]

    def opening(self, text: str) -> str | None:
        """The person mentioned whom a Chinese statement without 我 opens by name or short
        name (洋子辞职回老家了 after 我发小刘洋...): its claims are that person's, not the
        speaker's."""
        names = [k.partition(":")[2] for k in self._people()]
        found = zh_alias_opening(text, [n for n in names if not n.isascii()])
        return None if found is None else "person:" + found

    def pronoun(self, word: str, prefer: Collection[str] = ()) -> str | None:
        """The entity a pronoun points back to: he/she the latest person or relative who is
        not a group and whose relation does not say the other gender (she is not "my dad");
        they/them the latest group (else None: the speaker's "they"). Among those, the latest
        in `prefer` (the ones the statement's topic is held about) comes first."""
        found = self.referents(word)
        return next((k for k in found if k in prefer), found[0] if found else None)

    def referents(self, word: str) -> list[str]:
        """Whom a pronoun may point back to, latest first (`pronoun`)."""
        singular = word in SINGULAR_PRONOUNS
        wanted = _gender(word)
        out = []
        for key in self.recent:
            if "=" in key:
                continue
            name = key.split(":", 1)[1]
            plural = name in _PLURAL
            known = _gender(name) if key.startswith("relation:") else None
            if plural != singular and not (wanted and known and known != wanted):
                out.append(key)
        return out


def _at(word: str, text: str) -> int:
    """Where a word first stands in a text (a whole word in English), else -1."""
    if not word.isascii():
        return text.find(word)
    found = re.search(rf"\b{re.escape(word)}\b", text)
    return -1 if found is None else found.start()


def _gender(word: str) -> str | None:
    """The gender ("male", "female") a pronoun or relation word says, if any (`data/slots.json`)."""
    genders = slot_table()["subjects"]["genders"]
    return next((g for g, words in genders.items() if word in words), None)
