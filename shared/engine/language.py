"""Text for players, in Spanish and English: sentences, card names, suits, numbers, names.

Everything the engine says to a person is a ``Say``: one sentence in both languages,
written side by side where it is used, with ``{placeholders}`` filled at the last moment
for one reader (``Reader``: a language, the players' names and the game's deck)::

    NOT_HELD = Say(es="No tienes {card} en la mano", en="You do not hold {card}")
    NOT_HELD(card="3C").text(Reader("es", deck=SPANISH_DECK))  # 'No tienes el 3 de copas en la mano'

How a placeholder is said depends on what its value is: an event's or a fact's declared
field kind (``shared.engine.fields``), or, for the values a refusal binds, its name
(``card``, ``cards``, ``seat``, ``seats``, ``suit``) and else its type:

* a seat: the player's name, or "Jugador 2" / "Player 2" (seat 1) without names;
* a card: "el 3 de copas" / "the 3 of cups" in running text (``{card:bare}``: "3 de
  copas"); a hidden card (null after redaction): "una carta" / "a card";
* cards: "el as de oros y la sota de bastos"; hidden: "3 cartas" / "3 cards";
* a suit: "espadas" / "swords" (Spanish deck), "picas" / "spades" (English deck);
* a number as players say it: 7.5 is "7½"; a ``Say`` in the reader's language; a list of
  values joined with "y" / "and"; a string with ``Words`` its word, else as it is.

Two format specs: ``{points:punto|puntos}`` says a number with its word, singular for 1
("1 punto", "11 puntos"); ``{card:cap}`` starts the value with a capital ("El 3 de copas").

Templates are written as they read (a capital where the sentence starts with a word);
Spanish contracts "a el" and "de el" where a card's article meets them.
"""

from __future__ import annotations

import functools
import re
import string
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .cards import JOKER, rank, suit

if TYPE_CHECKING:
    from .fields import Field

LANGUAGES = ("en", "es")
#: The language of an answer that asks for none: English, which every client and bot of the
#: platform read before there was a choice (the web client's interface, the generated
#: clients, the lobby passing refusals on), so they read what they read before.
DEFAULT_LANGUAGE = "en"

SPANISH_DECK, ENGLISH_DECK = "spanish", "english"
DECKS = (SPANISH_DECK, ENGLISH_DECK)


class Say:
    """One sentence in Spanish and English, with ``{placeholders}``; calling it binds values."""

    __slots__ = ("en", "es")

    def __init__(self, es: str, en: str) -> None:
        self.es, self.en = es, en

    def __repr__(self) -> str:
        return f"Say(es={self.es!r}, en={self.en!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Say) and (self.es, self.en) == (other.es, other.en)

    def __hash__(self) -> int:
        return hash((self.es, self.en))

    def __call__(self, **values: Any) -> Message:
        return Message(self, values)

    def template(self, lang: str) -> str:
        return self.es if lang == "es" else self.en

    def text(self, reader: Reader | None = None, **values: Any) -> str:
        return render(self.template((reader or Reader()).lang), values, {}, reader or Reader())


class Message(str):
    """A ``Say`` with its values: a refusal, an error. It is its English text (so a game's
    refusal is a string wherever one is expected, and reads as it always did); ``text`` says
    it in any language, with the players' names and the game's card names."""

    say: Say
    values: Mapping[str, Any]
    kinds: Mapping[str, Any]

    def __new__(
        cls, say: Say, values: Mapping[str, Any], kinds: Mapping[str, Field] | None = None
    ) -> Message:
        kinds = kinds or {}
        message = super().__new__(cls, english(say, values, kinds))
        message.say, message.values, message.kinds = say, values, kinds
        return message

    def text(self, reader: Reader | None = None) -> str:
        reader = reader or Reader()
        return render(self.say.template(reader.lang), self.values, self.kinds, reader)

    def __repr__(self) -> str:
        return f"Message({self.say!r}, {dict(self.values)!r})"


#: The English text of recent (sentence, values) pairs. Listing legal actions builds a refusal
#: for every candidate it filters out, mostly the same few sentences with the same values,
#: so each is rendered once; values that cannot be hashed (lists) are rendered each time.
#: The key holds each value's type too: ``True == 1`` but they read "yes" and "1"; and the
#: values' declared kinds, where given.
_ENGLISH: dict[tuple, str] = {}
_ENGLISH_SIZE = 8192


def english(say: Say, values: Mapping[str, Any], kinds: Mapping[str, Field]) -> str:
    """``say`` with ``values`` in English for no one in particular (a ``Message``'s own text)."""
    try:  # kinds are frozen fields, the same object for the same kind (hashed by identity)
        key = (say.en, *values.items(), *map(type, values.values()), *kinds.items())
        text = _ENGLISH.get(key)
    except TypeError:  # an unhashable value
        return render(say.en, values, kinds, ENGLISH_READER)
    if text is None:
        if len(_ENGLISH) >= _ENGLISH_SIZE:
            _ENGLISH.clear()
        text = _ENGLISH[key] = render(say.en, values, kinds, ENGLISH_READER)
    return text


def text_of(message: str | Say, reader: Reader | None = None) -> str:
    """A refusal or an error as ``reader`` reads it (a plain string is the same in both)."""
    if isinstance(message, Message | Say):
        return message.text(reader)
    return message


class Words:
    """The words of a string field's values, in both languages: ``Words({"real-envido":
    ("real envido", "real envido")})``. A value it does not list is said as it is."""

    __slots__ = ("words",)

    def __init__(self, words: Mapping[Any, tuple[str, str]]) -> None:
        self.words = {value: Say(es, en) for value, (es, en) in words.items()}

    def __getitem__(self, value: Any) -> Say:
        return self.words[value]

    def __contains__(self, value: object) -> bool:
        return value in self.words

    def say(self, value: Any, lang: str) -> str:
        word = self.words.get(value)
        return str(value) if word is None else word.template(lang)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Words) and self.words == other.words

    def __hash__(self) -> int:
        return hash(tuple(self.words))


@dataclass(frozen=True)
class Reader:
    """Who reads: their language, the players' names by seat (a missing or empty name: "Jugador
    2" / "Player 2"), and the deck whose names the game's cards have."""

    lang: str = DEFAULT_LANGUAGE
    names: Sequence[str | None] = ()
    deck: str = SPANISH_DECK

    def name(self, seat: int) -> str:
        return player_name(seat, self.names, self.lang)


#: The reader of a ``Message``'s own text: English, no names, the Spanish deck's card names.
ENGLISH_READER = Reader()


def player_name(seat: int, names: Sequence[str | None] = (), lang: str = DEFAULT_LANGUAGE) -> str:
    """The name of the player at ``seat``: the one given, else "Jugador N" / "Player N"
    (seats count from 0, players from 1, as people count them)."""
    if 0 <= seat < len(names) and names[seat]:
        return str(names[seat])
    return f"{'Jugador' if lang == 'es' else 'Player'} {seat + 1}"


def choose_language(explicit: str | None = None, accept: str | None = None) -> str | None:
    """The language an answer is in: ``explicit`` (a ``lang`` parameter, checked by the caller)
    first, else the best of ``accept`` (an ``Accept-Language`` header) this engine speaks,
    else None (the caller's default). ``es-AR;q=0.8`` counts as ``es``."""
    if explicit:
        return explicit if explicit in LANGUAGES else None
    if not accept:
        return None
    best, best_q = None, 0.0
    for position, part in enumerate(accept.split(",")):
        tag, _, params = part.strip().partition(";")
        lang = tag.strip().lower().split("-")[0]
        q = 1.0
        for param in params.split(";"):
            key, _, value = param.strip().partition("=")
            if key == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        q -= position * 1e-6  # equal weights: the first listed wins
        if lang in LANGUAGES and q > best_q:
            best, best_q = lang, q
    return best


# -- cards, suits, numbers -----------------------------------------------------------------
# rank -> (Spanish word, its article, English word); ranks not listed are said as digits.
_SPANISH_DECK_RANKS = {1: ("as", "el", "ace"), 10: ("sota", "la", "jack"),
                       11: ("caballo", "el", "knight"), 12: ("rey", "el", "king")}  # fmt: skip
_ENGLISH_DECK_RANKS = {1: ("as", "el", "ace"), 11: ("jota", "la", "jack"),
                       12: ("reina", "la", "queen"), 13: ("rey", "el", "king")}  # fmt: skip
SUIT_NAMES = {
    SPANISH_DECK: {"O": ("oros", "coins"), "C": ("copas", "cups"), "E": ("espadas", "swords"),
                   "B": ("bastos", "clubs")},
    ENGLISH_DECK: {"S": ("picas", "spades"), "H": ("corazones", "hearts"),
                   "D": ("diamantes", "diamonds"), "C": ("tréboles", "clubs")},
}  # fmt: skip


def suit_name(code: str, lang: str, deck: str = SPANISH_DECK) -> str:
    """A suit letter's name: "espadas" / "swords"; a letter the deck has not, as it is."""
    names = SUIT_NAMES[deck].get(code)
    return code if names is None else names[lang == "en"]


@functools.cache
def _card_words(card: str, lang: str, deck: str) -> tuple[str, str]:
    """(article, words) of a card: ("el", "3 de copas"), ("the", "jack of clubs")."""
    if card == JOKER:
        return ("el", "comodín") if lang == "es" else ("the", "joker")
    r, s = rank(card), suit(card)
    table = _SPANISH_DECK_RANKS if deck == SPANISH_DECK else _ENGLISH_DECK_RANKS
    word, article, english = table.get(r, (str(r), "el", str(r)))
    if lang == "es":
        return article, f"{word} de {suit_name(s, lang, deck)}"
    return "the", f"{english} of {suit_name(s, lang, deck)}"


def card_name(card: str, lang: str = DEFAULT_LANGUAGE, deck: str = SPANISH_DECK) -> str:
    """A card's name on its own: "As de oros", "Sota de bastos", "Ace of spades", "Joker"."""
    words = _card_words(card, lang, deck)[1]
    return words[0].upper() + words[1:]


def card_phrase(card: str | None, lang: str, deck: str, article: bool = True) -> str:
    """A card in running text: "el 3 de copas" / "the 3 of cups"; a hidden card: "una carta"."""
    if card is None:
        return "una carta" if lang == "es" else "a card"
    art, words = _card_words(card, lang, deck)
    return f"{art} {words}" if article else words


def cards_phrase(cards: Sequence[str | None], lang: str, deck: str, article: bool = True) -> str:
    """Cards in running text; hidden ones are counted: "3 cartas" / "3 cards"."""
    if not cards:
        return "ninguna carta" if lang == "es" else "no cards"
    if any(c is None for c in cards):
        n = len(cards)
        if n == 1:
            return card_phrase(None, lang, deck)
        return f"{n} cartas" if lang == "es" else f"{n} cards"
    return join([card_phrase(c, lang, deck, article) for c in cards], lang)


def join(items: Iterable[str], lang: str) -> str:
    """ "A, B y C" / "A, B and C"."""
    items = list(items)
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {'y' if lang == 'es' else 'and'} {items[-1]}"


def number(value: float, lang: str = DEFAULT_LANGUAGE) -> str:
    """A number as players say it: 7, 7½, ½, -3; other fractions with the language's mark."""
    if isinstance(value, bool):
        raise TypeError("a boolean is no number")
    if isinstance(value, int) or value.is_integer():
        return str(int(value))
    whole = int(value)
    if abs(value - whole) == 0.5:
        return f"{'-' if value < 0 and whole == 0 else ''}{whole if whole else ''}½"
    shown = f"{value:g}"
    return shown.replace(".", ",") if lang == "es" else shown


# -- rendering -----------------------------------------------------------------------------
@functools.lru_cache(maxsize=4096)
def _parsed(template: str) -> tuple[tuple[str, str | None, str], ...]:
    return tuple(
        (literal, name, spec or "") for literal, name, spec, _ in string.Formatter().parse(template)
    )


#: The kind a refusal's value has by its placeholder's name (events and facts declare theirs).
NAMED_KINDS = {"card": "card", "cards": "cards", "seat": "seat", "seats": "seats", "suit": "suit"}
_CONTRACTED = re.compile(r"\b(a|de) el\b")


def render(
    template: str, values: Mapping[str, Any], kinds: Mapping[str, Any], reader: Reader
) -> str:
    """``template`` with each placeholder said for ``reader`` (see the module's docstring).
    A placeholder without a value is a defect of the template: ``KeyError``."""
    out: list[str] = []
    for literal, name, spec in _parsed(template):
        out.append(literal)
        if name is None:
            continue
        head, _, rest = name.partition(".")
        value, kind = values[head], kinds.get(head)
        for key in rest.split(".") if rest else ():
            value = value[key]
            properties = getattr(kind, "properties", None)
            kind = properties.get(key) if properties else None
        if "|" in spec:
            one, many = spec.split("|", 1)
            out.append(f"{say_value(value, kind, head, '', reader)} {one if value == 1 else many}")
            continue
        said = say_value(value, kind, head, spec, reader)
        out.append(said[:1].upper() + said[1:] if spec == "cap" else said)
    text = "".join(out)
    if reader.lang == "es" and " el " in f" {text} ":
        text = _CONTRACTED.sub(lambda m: "al" if m.group(1) == "a" else "del", text)
    return text


def _kind_name(kind: Any, name: str, value: Any) -> str | None:
    if kind is not None:
        return str(kind.kind)
    return NAMED_KINDS.get(name)


def say_value(value: Any, kind: Any, name: str, spec: str, reader: Reader) -> str:
    """One value in running text: by its declared ``kind`` (a ``Field``), else by ``name``
    (``NAMED_KINDS``), else by its type. ``spec`` ``bare``: a card without its article."""
    lang, deck = reader.lang, reader.deck
    words = getattr(kind, "words", None)
    kind_name = _kind_name(kind, name, value)
    if kind_name == "list" and kind is not None and kind.items is not None:
        return join((say_value(v, kind.items, "", spec, reader) for v in value), lang)
    if value is None and kind_name not in ("card",):
        return "—"
    if words is not None:
        if isinstance(value, list):
            return join((words.say(v, lang) for v in value), lang)
        return words.say(value, lang)
    if kind_name == "seat":
        return reader.name(value)
    if kind_name == "seats":
        return join((reader.name(s) for s in value), lang)
    if kind_name == "card":
        return card_phrase(value, lang, deck, article=spec != "bare")
    if kind_name == "cards":
        return cards_phrase(value, lang, deck, article=spec != "bare")
    if kind_name == "suit":
        return suit_name(value, lang, deck)
    if isinstance(value, Message):
        return value.text(reader)
    if isinstance(value, Say):
        return value.template(lang)
    if isinstance(value, bool):
        return ("sí" if value else "no") if lang == "es" else ("yes" if value else "no")
    if isinstance(value, int | float):
        return number(value, lang)
    if isinstance(value, list):
        return join((say_value(v, None, "", spec, reader) for v in value), lang)
    return str(value)
