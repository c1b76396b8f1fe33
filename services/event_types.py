"""Every event type the games and the lobby emit, with its fields as JSON Schema.

Events are what a match reports after each change (``events`` of an action's answer and
of every log entry). The specs build the ``Event`` union from this table, discriminated
on ``type``; ``tests/test_event_types.py`` plays every game and variant and checks each
event it sees against the table, so a game that adds an event type or a field fails it
until the new shape is declared here. Where an event is private (``visible_to`` names who
may see it), its ``card``/``cards`` are null for everyone else.
"""

from __future__ import annotations

from typing import Any

Schema = dict[str, Any]

INT: Schema = {"type": "integer"}
NUMBER: Schema = {"type": "number"}
BOOL: Schema = {"type": "boolean"}
STR: Schema = {"type": "string"}
CARD: Schema = {"$ref": "#/components/schemas/Card"}
HIDDEN_CARD: Schema = {"$ref": "#/components/schemas/HiddenCard"}
RESULT: Schema = {"$ref": "#/components/schemas/Result"}
INT_OR_INTS: Schema = {"anyOf": [INT, {"type": "array", "items": INT}]}


def array(items: Schema) -> Schema:
    return {"type": "array", "items": items}


def nullable(schema: Schema) -> Schema:
    return {"anyOf": [schema, {"type": "null"}]}


def mapping(values: Schema, description: str) -> Schema:
    """An object keyed by data (suits, ranks), each value of one shape."""
    return {"type": "object", "additionalProperties": values, "description": description}


def obj(properties: dict[str, Schema], required: tuple[str, ...] = ()) -> Schema:
    return {
        "type": "object",
        "properties": properties,
        "required": list(required),
        "additionalProperties": False,
    }


SEAT_PLAYER: Schema = {"type": "string", "description": "the player id"}

# The lobby's own events: the first of each entry that changes seats or starts the match.
LOBBY_EVENTS: dict[str, tuple[dict[str, Schema], tuple[str, ...]]] = {
    "match_created": ({"game": STR, "variant": STR, "players": INT}, ("game", "variant", "players")),
    "seat_joined": ({"seat": INT, "player": SEAT_PLAYER, "name": STR}, ("seat", "player", "name")),
    "seat_left": ({"seat": INT, "player": SEAT_PLAYER}, ("seat", "player")),
    "bot_added": ({"seat": INT, "player": SEAT_PLAYER, "strategy": STR}, ("seat", "player", "strategy")),
    "match_started": ({"seed_sha256": STR, "to_act": array(INT)}, ("seed_sha256", "to_act")),
    "match_ended": ({"reason": STR, "seat": nullable(INT), "winners": array(INT)}, ("reason", "seat", "winners")),
    "rematch_offered": ({"match": STR, "by": SEAT_PLAYER}, ("match", "by")),
}  # fmt: skip

# The games' events: each type's fields (besides ``type``) and the ones it always has.
GAME_EVENTS: dict[str, tuple[dict[str, Schema], tuple[str, ...]]] = {
    "aces_placed": ({"cards": array(CARD)}, ("cards",)),
    "added": ({"card": CARD, "group": INT, "seat": INT}, ("card", "group", "seat")),
    "animals_passed": ({"animals": array(STR)}, ("animals",)),
    "antes": ({"stakes": array(INT)}, ("stakes",)),
    "arranged": ({"face_up": array(CARD), "seat": INT}, ("face_up", "seat")),
    "automatic_loss": ({"round": INT, "seat": INT}, ("round", "seat")),
    "bag_filled": ({"bag": INT, "face_up": CARD, "seat": INT}, ("bag", "face_up", "seat")),
    "bag_opened": ({"bag": INT, "card": HIDDEN_CARD, "seat": INT, "visible_to": array(INT)}, ("bag", "card", "seat", "visible_to")),
    "baza": ({"number": INT, "parda": BOOL, "seat": nullable(INT)}, ("number", "parda", "seat")),
    "bid_committed": ({"card": HIDDEN_CARD, "seat": INT, "timeout": BOOL, "visible_to": array(INT)}, ("card", "seat", "timeout", "visible_to")),
    "bids_open": ({"prize": INT, "round": INT}, ("prize", "round")),
    "bids_revealed": ({"bids": array(CARD), "round": INT}, ("bids", "round")),
    "black_threes_canasta": ({"seat": INT}, ("seat",)),
    "blind_failed": ({"face_up": CARD, "seat": INT}, ("face_up", "seat")),
    "burned": ({"reason": STR, "seat": INT}, ("reason", "seat")),
    "bust": ({"seat": INT, "total": INT}, ("seat", "total")),
    "busted": ({"seat": INT}, ("seat",)),
    "called": ({"animal": STR, "call": STR, "how": STR, "order": INT, "race": BOOL, "right": BOOL, "seat": INT}, ("seat",)),
    "capital_fall": ({"seat": INT}, ("seat",)),
    "captured": ({"card": CARD, "escoba": BOOL, "seat": INT, "take": array(CARD)}, ("card", "escoba", "seat", "take")),
    "card_committed": ({"card": HIDDEN_CARD, "seat": INT, "timeout": BOOL, "visible_to": array(INT)}, ("card", "seat", "timeout", "visible_to")),
    "cards_revealed": ({"cards": array(CARD), "round": INT, "seats": array(INT), "winner": nullable(INT)}, ("cards", "winner")),
    "challenged": ({"opponent": INT, "seat": INT}, ("opponent", "seat")),
    "chips_taken": ({"chips": INT, "loser": INT, "seat": INT}, ("chips", "loser", "seat")),
    "choose_suits": ({}, ()),
    "chose": ({"seat": INT, "suit": STR}, ("seat", "suit")),
    "claimed": ({"points": INT, "seat": INT, "suit": STR}, ("points", "seat", "suit")),
    "closed": ({"card": HIDDEN_CARD, "close": STR, "groups": array(array(CARD)), "loose": array(CARD), "seat": INT, "visible_to": array(INT)}, ("card", "close", "groups", "loose", "seat", "visible_to")),
    "deal": ({"columns": INT_OR_INTS, "dealer": INT, "first": INT, "layout": INT, "leader": INT, "round": INT, "rows": INT, "starter": INT, "stock": INT, "trump_card": CARD}, ()),
    "deal_ended": ({"points": array(INT), "round": INT, "tute": nullable(INT)}, ("points", "round", "tute")),
    "deal_scored": ({"cards": nullable(INT), "escobas": array(INT), "oros": nullable(INT), "points": array(INT), "primera": nullable(INT), "primera_points": INT, "primera_sums": array(nullable(INT)), "round": INT, "seven_of_oros": INT}, ("cards", "escobas", "oros", "points", "primera", "primera_points", "primera_sums", "round", "seven_of_oros")),
    "dealt": ({"animals": array(STR), "cards": array(HIDDEN_CARD), "dealer": INT, "first": INT, "hand_size": INT, "pile": array(CARD), "removed": INT, "seat": INT, "visible_to": array(INT)}, ()),
    "dice_forced": ({"dice": array(INT), "die": INT, "prize": INT, "seat": INT}, ("dice", "die", "prize", "seat")),
    "dice_rolled": ({"dice": array(INT), "die": INT, "prize": INT, "seat": nullable(INT)}, ("dice", "prize", "seat")),
    "discard_started": ({"card": CARD}, ("card",)),
    "discarded": ({"card": CARD, "face_down_card": BOOL, "move_granted": BOOL, "seat": INT}, ("card", "seat")),
    "done": ({"seat": INT}, ("seat",)),
    "drawn": ({"card": CARD, "seat": INT}, ("card", "seat")),
    "drew": ({"card": HIDDEN_CARD, "cards": array(HIDDEN_CARD), "face_up": CARD, "pile": INT, "seat": INT, "source": STR, "stock": INT, "visible_to": array(INT)}, ("seat",)),
    "duel_open": ({"first": INT, "round": INT}, ("first", "round")),
    "eliminated": ({"discarded": INT, "seat": INT}, ("seat",)),
    "envido_won": ({"declared": array(nullable(INT)), "points": INT, "seat": INT}, ("declared", "points", "seat")),
    "exchanged": ({"cards": array(HIDDEN_CARD), "gave": CARD, "seat": INT, "to": INT, "took": CARD, "visible_to": array(INT)}, ("seat",)),
    "expeditions_scored": ({"points": array(INT), "rows": array(obj({"C": INT, "D": INT, "H": INT, "S": INT}, required=("C", "D", "H", "S")))}, ("points", "rows")),
    "extra_play": ({"seat": INT}, ("seat",)),
    "extra_play_lost": ({"seat": INT}, ("seat",)),
    "face_off": ({"own_animal": BOOL, "rank": INT, "seats": array(INT), "seconds": NUMBER}, ("own_animal", "rank", "seats", "seconds")),
    "face_off_timeout": ({"late": array(INT)}, ("late",)),
    "face_off_undecided": ({"seats": array(INT)}, ("seats",)),
    "face_off_won": ({"cards": INT, "loser": INT, "seat": INT}, ("cards", "loser", "seat")),
    "fifteen_in_hand": ({"cards": array(CARD), "seat": INT}, ("cards", "seat")),
    "fifteen_on_table": ({"cards": array(CARD), "escobas": INT, "seat": INT}, ("cards", "escobas", "seat")),
    "flipped": ({"card": CARD, "column": INT, "row": INT, "tokens": INT}, ("card", "column", "row", "tokens")),
    "flor": ({"seat": INT}, ("seat",)),
    "flor_won": ({"declared": array(nullable(INT)), "points": INT, "seat": INT}, ("declared", "points", "seat")),
    "game_over": ({"cards_in_hand": array(INT), "empty_bags": array(INT), "game": INT, "numbers": mapping(array(INT), "per card rank"), "points": array(INT), "reason": STR}, ("cards_in_hand", "empty_bags", "game", "numbers", "points", "reason")),
    "game_started": ({"dealer": INT, "game": INT}, ("dealer", "game")),
    "hand_ended": ({"points": array(INT), "round": INT, "seat": INT, "won": INT}, ("points", "round", "seat", "won")),
    "hand_scored": ({"close": nullable(STR), "closer": nullable(INT), "hands": array(obj({"groups": array(array(CARD)), "loose": array(CARD), "seat": INT}, required=("groups", "loose", "seat"))), "points": array(INT), "round": INT}, ("close", "closer", "hands", "points", "round")),
    "hand_shown": ({"cards": array(CARD), "seat": INT, "total": NUMBER}, ("cards", "seat", "total")),
    "hand_started": ({"dealer": INT, "mano": INT, "round": INT}, ("dealer", "mano", "round")),
    "hit": ({"card": CARD, "seat": INT}, ("card", "seat")),
    "house_busted": ({"total": NUMBER}, ("total",)),
    "house_card": ({"card": CARD, "total": NUMBER}, ("card", "total")),
    "house_stood": ({"total": NUMBER}, ("total",)),
    "kept": ({"phase": STR, "seat": INT}, ("phase", "seat")),
    "laid": ({"face_up": CARD, "seat": INT}, ("face_up", "seat")),
    "laid_off": ({"card": CARD, "group": INT, "seat": INT}, ("card", "group", "seat")),
    "laid_out": ({"columns": INT, "rows": INT, "tokens": INT}, ("columns", "rows", "tokens")),
    "lead": ({"seat": INT}, ("seat",)),
    "match_finished": ({"cards_left": INT_OR_INTS, "loser": INT, "perfect": BOOL, "president": INT, "reason": STR, "result": RESULT, "scoring": array(obj({"counts": obj({"C": INT, "D": INT, "H": INT, "S": INT}, required=("C", "D", "H", "S")), "jokers": INT, "points": INT, "positive": STR}, required=("counts", "jokers", "points", "positive"))), "stock_left": INT, "winner": INT, "won": BOOL}, ("result",)),
    "melded": ({"cards": array(CARD), "group": INT, "seat": INT}, ("cards", "group", "seat")),
    "missions_dealt": ({"cards": array(HIDDEN_CARD), "seat": INT, "visible_to": array(INT)}, ("cards", "seat")),
    "missions_revealed": ({"missions": array(array(CARD)), "points": array(INT)}, ("missions", "points")),
    "moved": ({"card": CARD, "from": STR, "seat": INT, "to": STR}, ("card", "from", "seat", "to")),
    "must_follow": ({"seat": INT}, ("seat",)),
    "no_quiero": ({"call": STR, "seat": INT}, ("call", "seat")),
    "paired": ({"cards": array(CARD), "seat": INT}, ("cards", "seat")),
    "passed": ({"extra_play": BOOL, "paid": INT, "pot": INT, "seat": INT}, ("seat",)),
    "penalised": ({"given": array(INT), "reason": STR, "seat": INT}, ("given", "reason", "seat")),
    "penalty": ({"seat": INT, "taken": array(INT)}, ("seat", "taken")),
    "phase_started": ({"phase": STR}, ("phase",)),
    "picked_up": ({"count": INT, "seat": INT}, ("count", "seat")),
    "pile_chosen": ({"pile": INT, "seat": INT}, ("pile", "seat")),
    "pile_cleared": ({"reason": STR, "seat": INT}, ("reason", "seat")),
    "pile_refilled": ({"face_up": CARD, "pile": INT}, ("face_up", "pile")),
    "pile_started": ({"face_up": CARD}, ("face_up",)),
    "piles_formed": ({"chooser": INT, "round": INT}, ("chooser", "round")),
    "placed": ({"card": CARD, "chain_over": BOOL, "column": INT, "row": INT, "seat": INT, "to": STR, "took": CARD}, ("card",)),
    "played": ({"card": HIDDEN_CARD, "cards": array(HIDDEN_CARD), "column": STR, "count": INT, "exposed": nullable(CARD), "face": STR, "match": BOOL, "pile": INT, "row": STR, "said": nullable(INT), "seat": INT, "source": STR, "span": array(INT), "suit": nullable(STR), "ten": nullable(STR), "to": STR, "tomb": STR, "total": INT, "value": STR, "visible_to": array(INT)}, ("seat",)),
    "prize_carried": ({"prize": INT}, ("prize",)),
    "prize_revealed": ({"prize": INT, "prize_card": INT}, ("prize", "prize_card")),
    "quiero": ({"call": STR, "seat": INT}, ("call", "seat")),
    "raised": ({"chips": INT, "seat": INT, "stake": INT}, ("chips", "seat", "stake")),
    "ready": ({"seat": INT}, ("seat",)),
    "red_three": ({"red_three": CARD, "seat": INT}, ("red_three", "seat")),
    "released": ({"card": CARD, "seat": INT}, ("card", "seat")),
    "removed": ({"cards": array(CARD), "count": INT, "seat": INT, "turned": array(CARD)}, ("seat",)),
    "renewed": ({"cards": INT, "seat": INT, "shuffled": BOOL, "tokens": nullable(INT)}, ("seat",)),
    "replaced": ({"cards": array(HIDDEN_CARD), "seat": INT, "visible_to": array(INT)}, ("cards", "seat", "visible_to")),
    "reserved": ({"card": CARD, "seat": INT}, ("card", "seat")),
    "restocked": ({"count": INT}, ("count",)),
    "reveal_open": ({}, ()),
    "reveal_timeout": ({"late": array(INT)}, ("late",)),
    "revealed": ({"card": CARD, "cards": array(CARD), "seat": INT}, ()),
    "revolution": ({"on": BOOL}, ("on",)),
    "rey_out": ({"card": CARD, "reyes": INT}, ("card", "reyes")),
    "round_over": ({"order": array(INT), "ranks": array(STR), "round": INT, "stock": INT}, ("round",)),
    "round_scored": ({"copas": array(INT), "full_numbers": array(array(INT)), "house": NUMBER, "outcomes": array(nullable(STR)), "points": array(INT), "round": INT, "scores": array(INT), "sides": array(obj({"canastas": array(STR), "in_hand": array(CARD), "points": INT, "red_threes": INT, "seats": array(INT)}, required=("canastas", "in_hand", "points", "red_threes", "seats"))), "went_out": nullable(INT)}, ("round",)),
    "round_started": ({"dealer": INT, "first": INT, "opener": INT, "round": INT}, ("round",)),
    "round_won": ({"cards_left": array(INT), "last_standing": BOOL, "points": INT, "pot": INT, "prize": INT, "round": INT, "seat": INT}, ("seat",)),
    "sang": ({"points": INT, "seat": INT, "shown": array(CARD), "suit": STR}, ("points", "seat", "shown", "suit")),
    "slapped": ({"match": BOOL, "order": INT, "seat": INT}, ("match", "seat")),
    "stays": ({"card": CARD, "column": INT, "row": INT}, ("card", "column", "row")),
    "stock_exhausted": ({"restocks": INT}, ()),
    "stood": ({"seat": INT}, ("seat",)),
    "swap_committed": ({"cards": array(HIDDEN_CARD), "seat": INT, "timeout": BOOL, "visible_to": array(INT)}, ("cards", "seat", "timeout", "visible_to")),
    "swap_open": ({"count": INT, "seats": array(INT)}, ("count", "seats")),
    "swapped": ({"cards": array(HIDDEN_CARD), "seat": INT, "to": INT, "visible_to": array(INT)}, ("cards", "seat", "to", "visible_to")),
    "table_dealt": ({"cards": array(CARD), "dealer": INT}, ()),
    "threw": ({"card": CARD, "seat": INT}, ("card", "seat")),
    "tomb_blocked": ({"tomb": STR}, ("tomb",)),
    "tombs_revealed": ({"reason": STR, "tombs": mapping(obj({"cards": array(CARD), "open": BOOL, "others_total": INT, "suit_total": INT}, required=("cards", "open", "others_total", "suit_total")), "each suit's tomb")}, ("reason", "tombs")),
    "took": ({"cards": array(CARD), "copas": INT, "pile": INT, "row": INT, "seat": INT, "total": INT}, ("cards", "seat")),
    "took_leftover": ({"cards": array(CARD), "seat": INT}, ("cards", "seat")),
    "took_pile": ({"cards": array(HIDDEN_CARD), "reason": STR, "seat": INT, "shown": array(CARD), "taken": INT, "top": CARD, "visible_to": array(INT)}, ("seat",)),
    "total": ({"total": INT}, ("total",)),
    "trick_won": ({"cards": array(CARD), "points": INT, "seat": INT}, ("cards", "points", "seat")),
    "trio": ({"cards": array(CARD), "seat": INT}, ("cards", "seat")),
    "turn": ({"points": INT, "seat": INT}, ("seat",)),
    "turned_up": ({"card": CARD, "cells": array(obj({"card": CARD, "column": INT, "row": INT}, required=("card", "column", "row")))}, ()),
    "went_out": ({"place": INT, "seat": INT}, ("place", "seat")),
    "window_closed": ({"late": array(INT)}, ("late",)),
    "window_opened": ({"seat": INT, "seconds": NUMBER}, ("seat", "seconds")),
}  # fmt: skip
