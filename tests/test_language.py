"""Text for players (shared/engine/language.py): card names by deck, suits, numbers as players
say them, names, lists, the language an answer is in, and sentences filled for one reader."""

from __future__ import annotations

import pytest

from shared.engine.fields import CARD, SEAT, choice
from shared.engine.language import (
    ENGLISH_DECK,
    SPANISH_DECK,
    Message,
    Reader,
    Say,
    Words,
    card_name,
    card_phrase,
    cards_phrase,
    choose_language,
    number,
    player_name,
    render,
    suit_name,
)


@pytest.mark.parametrize(
    ("card", "deck", "es", "en"),
    [
        ("1O", SPANISH_DECK, "As de oros", "Ace of coins"),
        ("3C", SPANISH_DECK, "3 de copas", "3 of cups"),
        ("10B", SPANISH_DECK, "Sota de bastos", "Jack of clubs"),
        ("11E", SPANISH_DECK, "Caballo de espadas", "Knight of swords"),
        ("12C", SPANISH_DECK, "Rey de copas", "King of cups"),
        ("AS", ENGLISH_DECK, "As de picas", "Ace of spades"),
        ("10H", ENGLISH_DECK, "10 de corazones", "10 of hearts"),
        ("JD", ENGLISH_DECK, "Jota de diamantes", "Jack of diamonds"),
        ("QC", ENGLISH_DECK, "Reina de tréboles", "Queen of clubs"),
        ("KH", ENGLISH_DECK, "Rey de corazones", "King of hearts"),
        ("JK", ENGLISH_DECK, "Comodín", "Joker"),
    ],
)
def test_a_card_is_named_as_its_deck_names_it(card, deck, es, en):
    assert (card_name(card, "es", deck), card_name(card, "en", deck)) == (es, en)


def test_the_same_code_names_another_card_in_the_other_deck():
    """2C is the 2 of cups in a Spanish deck and the 2 of clubs in an English one."""
    assert card_name("2C", "en", SPANISH_DECK) == "2 of cups"
    assert card_name("2C", "en", ENGLISH_DECK) == "2 of clubs"
    assert (
        suit_name("C", "es", SPANISH_DECK) == "copas"
        and suit_name("C", "es", ENGLISH_DECK) == "tréboles"
    )


def test_in_a_sentence_a_card_has_its_article_and_a_hidden_one_is_only_counted():
    assert card_phrase("10O", "es", SPANISH_DECK) == "la sota de oros"
    assert card_phrase("QS", "es", ENGLISH_DECK) == "la reina de picas"
    assert card_phrase("3C", "en", SPANISH_DECK) == "the 3 of cups"
    assert card_phrase(None, "es", SPANISH_DECK) == "una carta"
    assert cards_phrase(["1O", "12B"], "es", SPANISH_DECK) == "el as de oros y el rey de bastos"
    assert cards_phrase([None, None, None], "es", SPANISH_DECK) == "3 cartas"
    assert cards_phrase([None, None], "en", SPANISH_DECK) == "2 cards"
    assert cards_phrase([], "en", SPANISH_DECK) == "no cards"


@pytest.mark.parametrize(
    ("value", "es", "en"),
    [(7, "7", "7"), (7.5, "7½", "7½"), (0.5, "½", "½"), (7.0, "7", "7"), (-3, "-3", "-3"),
     (2.25, "2,25", "2.25")],
)  # fmt: skip
def test_numbers_are_said_as_players_say_them(value, es, en):
    assert (number(value, "es"), number(value, "en")) == (es, en)


def test_a_player_without_a_name_is_counted_from_one():
    assert player_name(1, (), "es") == "Jugador 2" and player_name(0, (), "en") == "Player 1"
    assert player_name(1, ["Ana", "Beto"], "es") == "Beto"
    assert player_name(0, [None, "Beto"], "en") == "Player 1"


@pytest.mark.parametrize(
    ("explicit", "header", "chosen"),
    [
        ("es", "en", "es"),
        (None, "es-AR,es;q=0.9,en;q=0.8", "es"),
        (None, "fr-CA, en;q=0.5, es;q=0.7", "es"),
        (None, "de, fr", None),
        (None, "en;q=0.8, es;q=0.8", "en"),  # equal weights: the first listed
        (None, None, None),
        ("fr", None, None),
    ],
)
def test_the_language_is_the_explicit_one_else_the_best_the_header_accepts(
    explicit, header, chosen
):
    assert choose_language(explicit, header) == chosen


def test_a_sentence_says_each_value_by_its_kind_for_its_reader():
    calls = Words({"real-envido": ("real envido", "real envido")})
    kinds = {"seat": SEAT, "card": CARD, "call": choice("real-envido", words=calls)}
    values = {"seat": 1, "card": "12B", "call": "real-envido"}
    template = "{seat} juega {card} y canta {call}"
    ana_beto = Reader("es", ("Ana", "Beto"), SPANISH_DECK)
    assert (
        render(template, values, kinds, ana_beto)
        == "Beto juega el rey de bastos y canta real envido"
    )
    bare = "{card:bare} / {card:cap}"
    assert render(bare, values, kinds, ana_beto) == "rey de bastos / El rey de bastos"


def test_a_number_with_its_word_is_singular_for_one():
    say = Say(es="{points:punto|puntos}", en="{points:point|points}")
    assert [say.text(Reader("es"), points=n) for n in (0, 1, 11)] == [
        "0 puntos",
        "1 punto",
        "11 puntos",
    ]
    assert say.text(Reader("en"), points=1) == "1 point"


def test_spanish_contracts_a_el_and_de_el():
    say = Say(es="Va a {card}; es de {card}", en="")
    assert say.text(Reader("es"), card="1O") == "Va al as de oros; es del as de oros"
    assert say.text(Reader("es"), card="10O") == "Va a la sota de oros; es de la sota de oros"


def test_a_message_is_its_english_text_and_says_itself_in_any_language():
    not_held = Say(es="No tienes {card} en la mano", en="You do not hold {card}")
    message = not_held(card="3C")
    assert isinstance(message, str) and message == "You do not hold the 3 of cups"
    assert message.text(Reader("es")) == "No tienes el 3 de copas en la mano"
    assert message.text(Reader("en", deck=ENGLISH_DECK)) == "You do not hold the 3 of clubs"
    assert isinstance(message, Message) and message.values == {"card": "3C"}


def test_a_placeholder_without_a_value_is_a_defect_of_the_template():
    with pytest.raises(KeyError):
        Say(es="{seat} juega", en="{seat} plays").text(Reader("es"))


def test_a_refusal_reads_its_own_values_when_equal_values_of_other_types_came_before():
    """Refusals' texts are rendered once per sentence and values: ``True == 1`` and hashes
    alike, yet one reads "yes" and the other "1"."""
    say = Say(es="valor {value}", en="value {value}")
    assert say(value=1) == "value 1"
    assert say(value=True) == "value yes"
    assert say(value=1.5) == "value 1½" and say(value=1) == "value 1"
