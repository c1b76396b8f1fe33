"""TRANSITIONAL: the event declarations of the games whose modules do not declare them yet.

Each game declares its events beside its action table (``shared.engine.events``), with their
sentences in Spanish and English; the games below have not been converted yet, so their
events are declared here, as they were found (fields and kinds as the games emit them,
without sentences: a client reads a plain "who: what" for them), with the deck whose card
names they use. ``adopt`` gives each game its entry at import (``shared/games/__init__.py``).

Converting a game moves its declarations into its module (with sentences, view fields and
facts: docs/engine.md, "Converting a game") and deletes its entry here; the last conversion
deletes this module and the call to ``adopt``.
"""

from __future__ import annotations

from typing import Any

from shared.engine.events import MAYBE_PRIVATE, PRIVATE, EventType
from shared.engine.fields import (
    BOOL,
    CARD,
    CARDS,
    INT,
    INTS,
    NUMBER,
    STR,
    Field,
    either,
    list_of,
    map_of,
    obj,
)
from shared.engine.game import Game
from shared.engine.kit import dealing, ending, shedding
from shared.engine.language import ENGLISH_DECK, SPANISH_DECK

UNDECLARED = "(declared as found; its game gives it a meaning and sentences when converted)"


def _event(type: str, **fields: Any) -> EventType:
    """An event type as found: its fields, and ``visibility`` if it is private."""
    return EventType(type, UNDECLARED, **fields)


# game id -> (its deck's names, its events)
UNCONVERTED: dict[str, tuple[str, tuple[EventType, ...]]] = {
    "bolsas-de-dinero": (ENGLISH_DECK, (
        _event("bag_filled", bag=INT, face_up=CARD, seat=INT),
        _event("bag_opened", visibility=PRIVATE, bag=INT, card=CARD, seat=INT),
        dealing.DEALT,
        _event("drew", face_up=CARD, pile=INT, seat=INT),
        _event("game_over", cards_in_hand=INTS, empty_bags=INTS, game=INT, numbers=map_of(INTS), points=INTS, reason=STR),
        _event("game_started", dealer=INT, game=INT),
        ending.MATCH_FINISHED.extend(reason=STR),
        _event("pile_refilled", face_up=CARD, pile=INT),
        _event("turn", points=INT, seat=INT),
    )),
    "canasta": (ENGLISH_DECK, (
        _event("added", card=CARD, group=INT, seat=INT),
        _event("black_threes_canasta", seat=INT),
        _event("deal", dealer=INT, first=INT, round=INT),
        dealing.DEALT,
        _event("discard_started", card=CARD),
        _event("discarded", card=CARD, seat=INT),
        _event("drew", visibility=PRIVATE, cards=CARDS, seat=INT),
        ending.MATCH_FINISHED.extend(reason=STR),
        _event("melded", cards=CARDS, group=INT, seat=INT),
        _event("red_three", red_three=CARD, seat=INT),
        _event("replaced", visibility=PRIVATE, cards=CARDS, seat=INT),
        _event("round_scored", round=INT, sides=list_of(obj(canastas=list_of(STR), in_hand=CARDS, points=INT, red_threes=INT, seats=INTS)), went_out=INT.or_null()),
        _event("stock_exhausted"),
        _event("took_pile", visibility=PRIVATE, cards=CARDS, seat=INT, shown=CARDS, top=CARD),
        _event("went_out", visibility=PRIVATE, card=CARD, seat=INT),  # not met in random matches
    )),
    "chinchon": (SPANISH_DECK, (
        _event("closed", visibility=PRIVATE, card=CARD, close=STR, groups=Field("card-groups"), loose=CARDS, seat=INT),
        _event("deal", dealer=INT, first=INT, round=INT),
        dealing.DEALT,
        _event("discard_started", card=CARD),
        _event("discarded", card=CARD, seat=INT),
        _event("done", seat=INT),
        _event("drew", visibility=MAYBE_PRIVATE, card=CARD, seat=INT, source=STR),
        _event("eliminated", seat=INT),
        _event("hand_scored", close=STR.or_null(), closer=INT.or_null(), hands=list_of(obj(groups=Field("card-groups"), loose=CARDS, seat=INT)), points=INTS, round=INT),
        _event("laid_off", card=CARD, group=INT, seat=INT),
        ending.MATCH_FINISHED,
        shedding.RESTOCKED,
        _event("stock_exhausted", restocks=INT),
    )),
    "cinquillo": (SPANISH_DECK, (
        dealing.DEALT,
        _event("eliminated", seat=INT),  # not met in random matches
        _event("extra_play", seat=INT),
        _event("extra_play_lost", seat=INT),
        ending.MATCH_FINISHED,
        _event("passed", extra_play=BOOL, paid=INT, pot=INT, seat=INT),
        _event("played", card=CARD, row=STR, seat=INT, span=INTS),
        _event("round_started", opener=INT, round=INT),
        _event("round_won", cards_left=INTS, last_standing=BOOL, points=INT, pot=INT, round=INT, seat=INT),
        _event("spare_card", visibility=PRIVATE, card=CARD, seat=INT),
    )),
    "ciruela": (ENGLISH_DECK, (
        dealing.DEALT,
        shedding.DREW,
        ending.MATCH_FINISHED.extend(reason=STR),
        _event("passed", seat=INT),  # not met in random matches
        _event("played", card=CARD, seat=INT, suit=STR.or_null()),
        shedding.RESTOCKED,
        _event("turn", seat=INT),
        shedding.TURNED_UP,
    )),
    "coloretto": (ENGLISH_DECK, (
        _event("choose_suits"),
        _event("chose", seat=INT, suit=STR),
        _event("dealt", cards=CARDS, dealer=INT, first=INT),
        _event("drew", card=CARD, seat=INT, stock=INT),
        ending.MATCH_FINISHED.extend(scoring=list_of(obj(counts=obj(C=INT, D=INT, H=INT, S=INT), jokers=INT, points=INT, positive=STR))),
        _event("placed", card=CARD, row=INT, seat=INT),
        _event("round_over", round=INT, stock=INT),
        _event("round_started", first=INT, round=INT),
        _event("sat_out", seat=INT),  # not met in random matches
        _event("took", cards=CARDS, row=INT, seat=INT),
    )),
    "e-card": (ENGLISH_DECK, (
        _event("automatic_loss", round=INT, seat=INT),
        _event("card_committed", visibility=PRIVATE, card=CARD, seat=INT, timeout=BOOL),
        _event("cards_revealed", cards=CARDS, round=INT, winner=INT.or_null()),
        dealing.DEALT,
        _event("duel_open", first=INT, round=INT),
        ending.MATCH_FINISHED,
        _event("pile_chosen", pile=INT, seat=INT),
        _event("piles_formed", chooser=INT, round=INT),
        _event("round_won", round=INT, seat=INT),
        _event("sides_dealt", emperor=INT, round=INT, slave=INT),  # not met in random matches
    )),
    "el-9": (SPANISH_DECK, (
        _event("deal", columns=INT, rows=INT, stock=INT),
        _event("declined", seat=INT),  # not met in random matches
        _event("discarded", card=CARD, move_granted=BOOL, seat=INT),
        ending.MATCH_FINISHED.extend(perfect=BOOL, reason=STR, won=BOOL),
        _event("moved", card=CARD, **{"from": STR}, seat=INT, to=STR),
        _event("paired", cards=CARDS, seat=INT),
        _event("placed", card=CARD, seat=INT, to=STR),
        _event("revealed", card=CARD, seat=INT),
    )),
    "escoba": (SPANISH_DECK, (
        _event("captured", card=CARD, escoba=BOOL, seat=INT, take=CARDS),
        _event("deal", round=INT, starter=INT),
        _event("deal_scored", cards=INT.or_null(), escobas=INTS, oros=INT.or_null(), points=INTS, primera=INT.or_null(), primera_points=INT, primera_sums=list_of(INT.or_null()), round=INT, seven_of_oros=INT.or_null()),
        dealing.DEALT,
        _event("fifteen_in_hand", cards=CARDS, seat=INT),
        _event("fifteen_on_table", cards=CARDS, escobas=INT, seat=INT),
        _event("fifteen_on_table_race", cards=CARDS),  # not met in random matches
        _event("fifteen_on_table_unclaimed"),  # not met in random matches
        ending.MATCH_FINISHED,
        _event("played", card=CARD, seat=INT),
        _event("table_dealt", cards=CARDS),
        _event("took_leftover", cards=CARDS, seat=INT),
    )),
    "exploradores": (ENGLISH_DECK, (
        _event("deal", dealer=INT, first=INT),
        dealing.DEALT,
        _event("discarded", card=CARD, seat=INT),
        _event("drew", visibility=MAYBE_PRIVATE, card=CARD, seat=INT, source=STR),
        _event("expeditions_scored", points=INTS, rows=list_of(map_of(INT))),
        ending.MATCH_FINISHED.extend(reason=STR),
        _event("placed", card=CARD, seat=INT),
    )),
    "gentei-janken": (ENGLISH_DECK, (
        _event("card_committed", visibility=PRIVATE, card=CARD, seat=INT, timeout=BOOL),
        _event("cards_given", visibility=PRIVATE, cards=CARDS, seat=INT, to=INT),  # not met in random matches
        _event("cards_revealed", cards=CARDS, seats=INTS, winner=INT.or_null()),
        _event("challenged", opponent=INT, seat=INT),
        _event("chips_taken", chips=INT, loser=INT, seat=INT),
        dealing.DEALT,
        _event("eliminated", discarded=INT, seat=INT),
        ending.MATCH_FINISHED.extend(reason=STR),
        _event("turn", seat=INT),
    )),
    "la-granja": (SPANISH_DECK, (
        _event("animals_passed", animals=list_of(STR)),
        _event("called", animal=STR, how=STR, order=INT.maybe(), race=BOOL, right=BOOL.maybe(), seat=INT),
        _event("dealt", animals=list_of(STR), hand_size=INT, removed=INT),
        _event("face_off", own_animal=BOOL, rank=INT, seats=INTS, seconds=NUMBER),
        _event("face_off_timeout", late=INTS),
        _event("face_off_undecided", seats=INTS),
        _event("face_off_won", cards=INT, loser=INT, seat=INT),
        ending.MATCH_FINISHED.extend(reason=STR),
        _event("penalised", given=INTS, reason=STR, seat=INT),
        _event("ready", seat=INT),
        _event("renewed", cards=INT, seat=INT),
        _event("reveal_open"),
        _event("reveal_timeout", late=INTS),
        _event("revealed", card=CARD, seat=INT),
    )),
    "ladrones-de-tumbas": (ENGLISH_DECK, (
        _event("deal", dealer=INT, first=INT),
        dealing.DEALT,
        shedding.DREW,
        ending.MATCH_FINISHED,
        _event("missions_dealt", visibility=MAYBE_PRIVATE, cards=CARDS, seat=INT),
        _event("missions_revealed", missions=Field("card-groups"), points=INTS),
        _event("passed", seat=INT),
        _event("played", visibility=MAYBE_PRIVATE, card=CARD, face=STR, seat=INT, tomb=STR),
        _event("tomb_blocked", tomb=STR),
        _event("tombs_revealed", reason=STR, tombs=map_of(obj(cards=CARDS, open=BOOL, others_total=INT, suit_total=INT))),
    )),
    "nervioso": (SPANISH_DECK, (
        _event("dealt", first=INT, hand_size=INT, pile=CARDS),
        ending.MATCH_FINISHED.extend(reason=STR),
        _event("penalty", seat=INT, taken=INTS),
        _event("played", card=CARD, count=INT, match=BOOL, said=either(INT, STR).or_null(), seat=INT),
        _event("slapped", match=BOOL, order=INT.maybe(), seat=INT),
        _event("threw", card=CARD, seat=INT),
        _event("took_pile", reason=STR, seat=INT, taken=INT),
        _event("window_closed", late=INTS),
        _event("window_opened", seat=INT, seconds=NUMBER),
    )),
    "noventa-y-nueve": (ENGLISH_DECK, (
        _event("bust", seat=INT, total=INT),
        _event("deal", first=INT, round=INT),
        dealing.DEALT,
        shedding.DREW,
        _event("eliminated", seat=INT),  # not met in random matches
        ending.MATCH_FINISHED.extend(loser=INT.maybe(), reason=STR),
        _event("played", card=CARD, seat=INT, ten=STR.or_null(), total=INT),
        _event("tokens_lost", seats=INTS),  # not met in random matches
        _event("total", total=INT),
        _event("trio", cards=CARDS, seat=INT),
        shedding.TURNED_UP,
        shedding.RESTOCKED,
    )),
    "palacio": (ENGLISH_DECK, (
        _event("arranged", face_up=CARDS, seat=INT),
        _event("blind_failed", face_up=CARD, seat=INT),
        _event("burned", reason=STR, seat=INT),
        dealing.DEALT,
        shedding.DREW,
        _event("laid", face_up=CARD, seat=INT),
        ending.MATCH_FINISHED.extend(cards_left=INTS.maybe(), reason=STR, winner=INT.maybe()),
        _event("must_follow", seat=INT),
        _event("picked_up", count=INT, seat=INT),
        _event("pile_started", face_up=CARD),
        _event("played", cards=CARDS, seat=INT, source=STR),
        _event("table_dealt", dealer=INT),
        _event("turn", seat=INT),
    )),
    "presidente": (ENGLISH_DECK, (
        _event("capital_fall", seat=INT),
        dealing.DEALT,
        _event("exchanged", visibility=PRIVATE, cards=CARDS, seat=INT, to=INT),
        _event("lead", seat=INT),
        ending.MATCH_FINISHED.extend(president=INT),
        _event("passed", seat=INT),
        _event("pile_cleared", reason=STR, seat=INT),
        _event("played", cards=CARDS, seat=INT, value=STR),
        _event("revolution", on=BOOL),
        _event("round_over", order=INTS, ranks=list_of(STR), round=INT),
        _event("round_started", dealer=INT, round=INT),
        _event("swap_committed", visibility=PRIVATE, cards=CARDS, seat=INT, timeout=BOOL),
        _event("swap_open", count=INT, seats=INTS),
        _event("swapped", visibility=PRIVATE, cards=CARDS, seat=INT, to=INT),
        _event("went_out", place=INT, seat=INT),
    )),
    "siete-y-media": (SPANISH_DECK, (
        _event("antes", stakes=INTS),
        _event("busted", seat=INT),
        dealing.DEALT,
        _event("discarded", card=CARD, face_down_card=BOOL, seat=INT),
        _event("hand_shown", cards=CARDS, seat=INT, total=NUMBER),
        _event("hit", card=CARD, seat=INT),
        _event("house_busted", total=NUMBER),
        _event("house_card", card=CARD, total=NUMBER),
        _event("house_card_face_down"),  # not met in random matches
        _event("house_revealed", card=CARD, total=NUMBER),  # not met in random matches
        _event("house_stood", total=NUMBER),
        _event("kept", phase=STR, seat=INT),
        ending.MATCH_FINISHED,
        _event("phase_started", phase=STR),
        _event("raised", chips=INT, seat=INT, stake=INT),
        _event("round_scored", house=NUMBER, outcomes=list_of(STR.or_null()), points=INTS, round=INT),
        _event("round_started", first=INT, round=INT),
        _event("stood", seat=INT),
    )),
    "solitario-4-ases": (SPANISH_DECK, (
        _event("aces_placed", cards=CARDS),
        _event("deal", stock=INT),
        ending.MATCH_FINISHED.extend(reason=STR, won=BOOL),
        _event("played", card=CARD, seat=INT, to=STR),
        _event("released", card=CARD, seat=INT),
        _event("renewed", seat=INT, shuffled=BOOL, tokens=INT.or_null()),
        _event("reserved", card=CARD, seat=INT),
        _event("revealed", cards=CARDS, seat=INT),
    )),
    "solitario-espanol": (SPANISH_DECK, (
        _event("flipped", card=CARD, column=INT, row=INT, tokens=INT),
        _event("laid_out", columns=INT, rows=INT, tokens=INT),
        ending.MATCH_FINISHED.extend(reason=STR, won=BOOL),
        _event("placed", card=CARD, chain_over=BOOL.maybe(), column=INT, row=INT, took=CARD.maybe()),
        _event("revealed", card=CARD),
        _event("rey_out", card=CARD, reyes=INT),
        _event("stays", card=CARD, column=INT, row=INT),
        _event("turned_up", cells=list_of(obj(card=CARD, column=INT, row=INT))),
    )),
    "solitario-golf": (ENGLISH_DECK, (
        _event("deal", columns=INTS, stock=INT),
        _event("drawn", card=CARD, seat=INT),
        ending.MATCH_FINISHED.extend(cards_left=INT, reason=STR, stock_left=INT, won=BOOL),
        _event("played", card=CARD, column=STR, exposed=CARD.or_null(), seat=INT),
    )),
    "solitario-piramide": (ENGLISH_DECK, (
        _event("deal", layout=INT, stock=INT),
        _event("drawn", card=CARD, seat=INT),
        ending.MATCH_FINISHED.extend(cards_left=INT, reason=STR, won=BOOL),
        _event("removed", cards=CARDS, seat=INT, turned=CARDS),
    )),
    "veneno": (SPANISH_DECK, (
        dealing.DEALT,
        shedding.DREW,
        ending.MATCH_FINISHED,
        _event("played", card=CARD, pile=INT, seat=INT, total=INT),
        _event("round_scored", copas=INTS, full_numbers=list_of(INTS), points=INTS, round=INT, scores=INTS),
        _event("round_started", dealer=INT, first=INT, round=INT),
        _event("took", cards=CARDS, copas=INT, pile=INT, seat=INT, total=INT),
    )),
}  # fmt: skip


def adopt(games: dict[str, Game]) -> None:
    """Give each game listed here its declared events and deck, unless it declares its own."""
    for game_id, (deck, events) in UNCONVERTED.items():
        game = games[game_id]
        cls = type(game)
        if cls.event_table:
            raise TypeError(f"{game_id} declares its events: delete its entry in {__name__}")
        cls.event_table = {e.type: e for e in events}
        cls.deck_kind = deck
