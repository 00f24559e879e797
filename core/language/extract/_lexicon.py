"""Compact English word lists for the dependency-free heuristic tagger."""

from __future__ import annotations

__all__ = [
    "ABBREVIATIONS",
    "ADJECTIVES",
    "ADVERBS",
    "AFTER_RIGHT",
    "BEFORE_VERB",
    "COPULAS",
    "FUNCTION_WORDS",
    "INFINITIVE_CUES",
    "ING_NOUNS",
    "LY_NOUNS",
    "NUMBER_WORDS",
    "SUBJECT_PRONOUNS",
    "VERB_FORMS",
    "VERB_TRIGGERS",
]


def _words(words: str) -> frozenset[str]:
    """Return the set of whitespace-separated words of `words`."""
    return frozenset(words.split())


def _tagged(tag: str, words: str) -> dict[str, str]:
    """Map each whitespace-separated word to `tag`."""
    return dict.fromkeys(words.split(), tag)


FUNCTION_WORDS: dict[str, str] = {
    **_tagged("DET", "a an the this that these those each every some any no all both either"),
    **_tagged("DET", "neither another such what which whose my your his her its our their"),
    **_tagged("ADJ", "many much more most few fewer less least"),
    **_tagged("PRON", "i me you he him she it we us they them myself yourself himself"),
    **_tagged("PRON", "herself itself ourselves yourselves themselves mine yours hers ours"),
    **_tagged("PRON", "theirs who whom someone somebody something anyone anybody anything"),
    **_tagged("PRON", "everyone everybody everything nobody nothing"),
    **_tagged("ADP", "of in on at by for with about against between into through during"),
    **_tagged("ADP", "before after above below from up down out off over under near"),
    **_tagged("ADP", "since until without within along across behind beyond per via"),
    **_tagged("ADP", "among around toward towards upon onto despite except inside outside"),
    **_tagged("ADP", "as"),
    **_tagged("CCONJ", "and or but nor yet plus"),
    **_tagged("SCONJ", "if because although though while whereas unless whether so than"),
    **_tagged("AUX", "be am is are was were been being have has had having do does did"),
    **_tagged("AUX", "will would shall should can could may might must ca wo sha 'm 're 's"),
    **_tagged("AUX", "'ve 'll 'd"),
    **_tagged("PART", "not n't to"),
    **_tagged("ADV", "when where why how there here then now very too also just only"),
    **_tagged("ADV", "never always often sometimes usually again already still even ever"),
    **_tagged("ADV", "soon later yesterday tomorrow today tonight maybe perhaps please"),
    **_tagged("ADV", "e.g. i.e. etc. etc"),
    **_tagged("INTJ", "yes hi hello hey oh ok okay thanks wow"),
}
"""Closed-class words with their UPOS tag (some time words are ADV here, NOUN in spaCy)."""

SUBJECT_PRONOUNS: frozenset[str] = _words("i you he she it we they who")
VERB_TRIGGERS: frozenset[str] = _words(
    "will would shall should can could may might must do does did ca wo sha 'll 'd n't"
)
"""Modals and do-forms: the next open-class word is a verb."""
COPULAS: frozenset[str] = _words(
    "be am is are was were been being 'm 're 's seem seems seemed feel feels felt "
    "become becomes became look looks looked get gets got"
)

_IRREGULAR = """
be am is are was were been being have has had do does did done go goes went gone get got
gotten make made say said see saw seen take took taken come came know knew known think
thought give gave given find found tell told become became leave left feel felt bring
brought begin began begun keep kept hold held write wrote written stand stood hear heard
let mean meant set meet met run ran pay paid sit sat speak spoke spoken lie lay lead led
read grow grew grown lose lost fall fell fallen send sent build built understand
understood draw drew drawn break broke broken spend spent cut rise rose drive drove driven
buy bought wear wore worn choose chose chosen eat ate eaten drink drank drunk sing sang
swim swam fly flew flown sleep slept teach taught catch caught fight fought forget forgot
forgotten sell sold win won ride rode hide hid wake woke shut put hit hurt cost quit
"""

_REGULAR = """
want need like love hate enjoy prefer travel visit live work play watch listen talk walk
ask help try call move plan start stop finish decide hope wish learn study use open close
cook clean wash change share join stay wait remember agree believe seem appear happen
include continue follow create allow add expect provide turn show consider suggest
describe order return reach receive remain offer serve die kill improve explain develop
carry report pick pass check count fill lift touch jump smile laugh cry marry own dance
relax rest rent borrow save invite prepare arrive hurry worry care miss book fix train
celebrate graduate retire quit paint draw bake fry boil text email mention discuss
recommend cancel schedule attend manage design hire fire apply earn spend collect
search
"""

_INFINITIVE = """
want wants wanted wanting need needs needed like likes liked love loves loved hate hates
hated try tries tried plan plans planned hope hopes hoped decide decides decided going
learn learns learned begin begins began start starts started prefer prefers preferred
wish wishes wished expect expects expected intend intends intended agree agrees agreed
refuse refuses refused forget forgets forgot remember remembers remembered choose chooses
chose able have has had used ought order afraid ready happy glad going likely unlikely
unable hoping trying planning wanting get gets got appear appears appeared seem seems seemed
"""


def _inflect(verb: str) -> set[str]:
    """Return `verb` with its regular -s, -ed and -ing forms (spelling rules approximated)."""
    forms = {verb}
    if verb.endswith("e"):
        forms |= {verb + "s", verb + "d", verb[:-1] + "ing"}
    elif verb.endswith("y") and verb[-2:-1] not in set("aeiou"):
        forms |= {verb[:-1] + "ies", verb[:-1] + "ied", verb + "ing"}
    else:
        suffix_s = "es" if verb.endswith(("s", "sh", "ch", "x", "z", "o")) else "s"
        forms |= {verb + suffix_s, verb + "ed", verb + "ing"}
        cvc = (
            len(verb) >= 3
            and verb[-1] not in "aeiouwxy"
            and verb[-2] in "aeiou"
            and verb[-3] not in "aeiou"
        )
        if cvc and len(verb) <= 4:
            forms |= {verb + verb[-1] + "ed", verb + verb[-1] + "ing"}
    return forms


def _verb_forms() -> frozenset[str]:
    """All known verb forms: irregular forms plus regular inflections."""
    forms: set[str] = set(_IRREGULAR.split())
    for verb in _REGULAR.split() + _IRREGULAR.split():
        forms |= _inflect(verb)
    return frozenset(forms)


VERB_FORMS: frozenset[str] = _verb_forms()
INFINITIVE_CUES: frozenset[str] = _words(_INFINITIVE)
"""Words after which "to" introduces an infinitive ("want to travel")."""

ADJECTIVES: frozenset[str] = _words(
    """
    good bad great big small large little long short old new young high low happy sad nice
    fine best better worse worst hot cold warm cool early late easy hard difficult simple
    important different same other next last first second favorite favourite red blue green
    yellow black white brown pink purple orange grey gray dark light busy free full empty
    rich poor strong weak fast slow quick tall fresh clean dirty sick ill tired hungry
    thirsty allergic vegan vegetarian single married divorced sure true false real main
    whole open closed ready glad afraid alive dead alone able own certain available
    friendly lovely early daily weekly monthly yearly likely ugly silly holy
    """
)
ADVERBS: frozenset[str] = _words(
    """
    very really quite rather almost also just only even still already soon often always
    never sometimes usually again together away back abroad ago well instead anyway
    """
)
BEFORE_VERB: frozenset[str] = _words(
    """
    first likely unlikely probably most really actually finally ever still just also mostly
    usually normally already even only never always often sometimes once originally
    """
)
"""Adverbs between an inverted subject and its verb ("did Felix first meet"): the verb still
follows."""
AFTER_RIGHT: frozenset[str] = _words("now then away after before here there back")
"""Words after which "right" is an adverb ("right now")."""
LY_NOUNS: frozenset[str] = _words(
    """
    family supply reply assembly butterfly jelly belly lily rally ally fly anomaly monopoly
    bully folly holly july italy emily kelly sally molly polly
    """
)
"""Nouns (and names) ending in -ly, which are not -ly adverbs."""

ING_NOUNS: frozenset[str] = _words(
    """
    thing king ring spring string wing morning evening building meeting wedding ceiling
    clothing feeling painting pudding sibling darling offspring nothing something anything
    everything ping sting swing sling
    """
)
"""Words ending in -ing that are not -ing verb forms."""

NUMBER_WORDS: frozenset[str] = _words(
    """
    zero one two three four five six seven eight nine ten eleven twelve thirteen fourteen
    fifteen sixteen seventeen eighteen nineteen twenty thirty forty fifty sixty seventy
    eighty ninety hundred thousand million billion dozen
    """
)

ABBREVIATIONS: frozenset[str] = _words(
    """
    mr mrs ms dr prof sr jr st mt vs etc e.g i.e cf al approx dept est fig inc ltd co corp
    no nos vol pp jan feb mar apr jun jul aug sep sept oct nov dec mon tue wed thu fri sat
    sun a.m p.m u.s u.k
    """
)
"""Lowercased words (without their final period) whose period does not end a sentence."""
