"""Brisca, Tute and Tute en parejas (rules/brisca.txt).

Trick-taking "ace-ten" games with the 40-card Spanish deck: the highest trump takes a
trick, else the highest card of the suit led; players draw from the stock after every
trick, and once it is gone they must follow suit (arrastre). A match is 4 deals whose
card points are summed. Tute adds cantes (rey and caballo of a suit) and the last
trick's ten; Tute en parejas deals every card to two partnerships.

The decisions where the text is silent or ambiguous, each with its option and default,
are in docs/games/brisca.md.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shared.engine import (
    HIDDEN,
    OWNER,
    PUBLIC,
    Action,
    BadSetup,
    Event,
    Game,
    GameData,
    Option,
    RulesChange,
    State,
    Variant,
    event,
    rank,
    record_round,
    register,
    spanish_deck,
    suit,
)
from shared.engine.actions import CARD, ActionType, choice
from shared.engine.cards import CABALLO, REY, SPANISH_SUITS
from shared.engine.kit import tricks, turns
from shared.engine.kit.ending import end_match
from shared.engine.kit.tables import BRISCA_POINTS, BRISCA_STRENGTH
from shared.engine.kit.zones import card_actions, hand, not_in_hand, seat_zone

#: Card points by option ``card_points``: Brisca's, or the Tute seed's (A and 3 worth 10).
CARD_POINTS = {"standard": BRISCA_POINTS, "aces-and-threes": {1: 10, 3: 10}}
TUTE = "tute"  # the "suit" of a sung tute (all four reyes or caballos)
#: Per trump suit, the cards that may be exchanged for the face-up card: its 7 and its 2.
EXCHANGES = {s: (f"7{s}", f"2{s}") for s in SPANISH_SUITS}


@dataclass
class BriscaData(GameData):
    direction: int = 1  # +1 clockwise, -1 counterclockwise (kept in stored states)
    trump: str = ""  # the trump suit of this deal
    trump_card: str = ""  # the card that showed it
    dealer: int = 0
    trick_seats: list[int] = field(default_factory=list)  # who played each card of the trick
    tricks_won: list[int] = field(default_factory=list)  # per seat, this deal
    cantes: list[dict] = field(default_factory=list)  # {"seat", "suit", "points"} this deal
    sung: list[list[str]] = field(default_factory=list)  # per seat, the suits it sang
    may_sing: int | None = None  # the seat that just won a trick and has not led yet
    claimable: list[list[str]] = field(default_factory=list)  # per seat, parejas to claim
    last_trick: int | None = None  # who won the last trick
    exchanged: list[str] = field(default_factory=list)  # the trumps exchanged this deal


class Brisca(Game):
    id = "brisca"
    name = "Brisca"
    rules_file = "brisca.txt"
    players = (2, 4)
    data_type = BriscaData
    options = {
        "hand_size": Option(3, "cards in each hand while the stock lasts", choices=(3, 6, 10)),
        "card_points": Option(
            "standard",
            "A 11, 3 10, R 4, C 3, S 2; or Tute's A and 3 worth 10",
            choices=tuple(CARD_POINTS),
        ),
        "cantes": Option(False, "parejas (R + C of a suit) sing 20, 40 in trumps"),
        "last_trick_bonus": Option(
            0, "points for the last trick (Tute's 'diez de últimas')", minimum=0, maximum=100
        ),
        "partnerships": Option(False, "with 4 players, seats 0+2 against 1+3"),
        "partner_claim": Option(False, "a partner may claim the pareja when R or C is played"),
        "claim_needs_pair": Option(
            True, "a claim needs the pareja's other card in the claimant's hand", since=2
        ),
        "tute_wins_deal": Option(
            False, "holding all four Reyes or Caballos ('tute') takes the deal"
        ),
        "arrastre": Option(
            "follow", "obligation once the stock is gone", choices=("follow", "montar")
        ),
        "three_player_removal": Option(
            "2B", "cards removed for 3 players", choices=("2B", "all-twos")
        ),
        "deals": Option(4, "deals per match", minimum=1, maximum=20),
        "direction": turns.DIRECTION,
    }
    rules_version = 2
    changes = (
        RulesChange(
            2,
            "a partner claims a pareja only holding its other card (before: without it too)",
            before={"claim_needs_pair": False},
        ),
    )
    variants = {
        "base": Variant("base", "Brisca: 3 cards, 4 deals, 120 points a deal."),
        "tute": Variant(
            "tute",
            "Tute: 6 cards, A and 3 worth 10, cantes 20/40, last trick 10.",
            {
                "hand_size": 6,
                "card_points": "aces-and-threes",
                "cantes": True,
                "last_trick_bonus": 10,
            },
        ),
        "tute-parejas": Variant(
            "tute-parejas",
            "Tute en parejas: 4 players in two partnerships, 10 cards each, partner claims.",
            {
                "hand_size": 10,
                "card_points": "aces-and-threes",
                "cantes": True,
                "last_trick_bonus": 10,
                "partnerships": True,
                "partner_claim": True,
            },
            players=(4, 4),
        ),
    }

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        cards = spanish_deck(40)
        if state.players == 3:
            removed = (
                {"2B"}
                if state.options["three_player_removal"] == "2B"
                else {"2O", "2C", "2E", "2B"}
            )
            cards = [c for c in cards if c not in removed]
        return cards

    def setup(self, state: State) -> list[Event]:
        opts = state.options
        if state.players * opts["hand_size"] > len(self.deck(state)):
            raise BadSetup(
                f"{opts['hand_size']} cards for {state.players} players do not fit the deck"
            )
        BriscaData.of(state).direction = turns.direction(state)
        if opts["partnerships"] and state.players == 4:
            state.teams = [[0, 2], [1, 3]]
        dealer = state.rng().randrange(state.players)
        return self._deal(state, turns.next_seat(state, dealer))

    def _deal(self, state: State, leader: int) -> list[Event]:
        n, opts = state.players, state.options
        cards = self.deck(state)
        state.shuffle(cards)
        for s in range(n):
            state.zone(hand(s), s, OWNER)
            state.zone(seat_zone("won", s), s, PUBLIC)
        state.zone("trick", None, PUBLIC)
        stock = state.zone("stock", None, HIDDEN)
        face_up = state.zone("trump", None, PUBLIC)
        events = []
        order = turns.seats_from(state, leader)
        size = opts["hand_size"]
        for s in order:
            state.zones[hand(s)].cards = cards[:size]
            del cards[:size]
        if cards:
            face_up.cards = [cards.pop(0)]
            stock.cards = cards[::-1]  # the top of the stock is the end of the list
            trump_card = face_up.cards[0]
        else:  # everything dealt: the dealer's last card shows the trump
            trump_card = state.cards(hand(order[-1]))[-1]
        data = BriscaData.of(state)
        data.trump = suit(trump_card)
        data.trump_card = trump_card
        data.dealer = turns.next_seat(state, leader, -1)
        data.trick_seats = []
        data.tricks_won = [0] * n
        data.cantes = []
        data.sung = [[] for _ in range(n)]
        data.may_sing = None
        data.claimable = [[] for _ in range(n)]
        data.last_trick = None
        data.exchanged = []
        state.to_act = [leader]
        events.append(event("deal", round=state.round, dealer=data.dealer, leader=leader,
                            trump_card=trump_card))  # fmt: skip
        for s in order:
            events.append(event("dealt", seat=s, cards=list(state.cards(hand(s))), visible_to=[s]))
        return events

    # -- the action table --------------------------------------------------------------
    play = ActionType("play", "play a card of your hand to the trick", phases=("play",), card=CARD)
    exchange = ActionType(
        "exchange",
        "give the 7 of trumps for the face-up card (or the 2 of trumps for a face-up 7)",
        phases=("play",),
        card=CARD,
    )
    sing = ActionType(
        "sing",
        "sing a pareja (rey and caballo of a suit) right after winning a trick, or a tute",
        phases=("play",),
        suit=choice(*SPANISH_SUITS, TUTE, description="the pareja's suit, or tute"),
    )
    claim = ActionType(
        "claim",
        "claim the pareja of the rey or caballo your partner just played",
        phases=("play",),
        suit=choice(*SPANISH_SUITS, description="the suit of the card your partner played"),
    )

    @play.candidates
    def _plays(self, state: State, seat: int) -> list[Action]:
        return card_actions("play", state.cards(hand(seat)))

    @play.enumerate
    def _playable_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly: under arrastre one pass over the hand instead of one per card."""
        zones = state.zones
        cards = zones[hand(seat)].cards
        if zones["trick"].cards and not zones["stock"].cards and not zones["trump"].cards:
            cards = self._playable(state, cards)  # arrastre
        return [{"type": "play", "card": c} for c in cards]

    @play.refusal
    def _play_refused(self, state: State, seat: int, action: Action) -> str | None:
        card, cards = action["card"], state.cards(hand(seat))
        if card not in cards:
            return f"card {card} is not in your hand"
        if self._arrastre(state) and card not in self._playable(state, cards):
            return "the stock is empty: follow the suit led, else play a trump" + (
                ", beating the best card where you can"
                if state.options["arrastre"] == "montar"
                else ""
            )
        return None

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        data, n = BriscaData.of(state), state.players
        state.move(card, hand(seat), "trick")
        data.trick_seats.append(seat)
        data.may_sing = None
        data.claimable[seat] = []
        events = [event("played", seat=seat, card=card)]
        if state.options["partner_claim"] and rank(card) in (CABALLO, REY) and state.teams:
            partner = next(s for s in state.team_of(seat) if s != seat)
            if suit(card) not in data.claimable[partner]:
                data.claimable[partner].append(suit(card))
        trick = state.zones["trick"].cards
        if len(trick) < n:
            state.to_act = [turns.next_seat(state, seat)]
            return events
        winner = data.trick_seats[self._winning_index(trick, data.trump)]
        won = list(trick)
        state.zones[seat_zone("won", winner)].cards.extend(won)
        trick.clear()
        data.trick_seats = []
        data.tricks_won[winner] += 1
        data.last_trick = winner
        events.append(event("trick_won", seat=winner, cards=won, points=self._points(state, won)))
        if not any(state.zones[hand(s)].cards for s in range(n)):
            return events + self._end_deal(state)
        events.extend(self._draw(state, winner))
        state.to_act = [winner]
        if state.options["cantes"]:
            data.may_sing = winner
        return events

    @exchange.enumerate
    def _exchanges_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly: asked every turn, and most turns nothing can be exchanged."""
        zones, data = state.zones, BriscaData.of(state)
        if not zones["trump"].cards or not data.tricks_won[seat]:
            return []
        cards = zones[hand(seat)].cards
        seven, two = EXCHANGES[data.trump]
        if seven not in cards and two not in cards:
            return []
        return self.exchange.filtered(self, state, seat)

    @exchange.candidates
    def _exchanges(self, state: State, seat: int) -> list[Action]:
        if not state.zones["trump"].cards:
            return []  # nothing to check: the refusal says why
        data = BriscaData.of(state)
        if not data.tricks_won[seat]:
            return []
        cards = state.zones[hand(seat)].cards
        seven, two = EXCHANGES[data.trump]
        if seven not in cards and two not in cards:
            return []
        return [{"type": "exchange", "card": c} for c in (seven, two) if c in cards]

    @exchange.refusal
    def _exchange_refused(self, state: State, seat: int, action: Action) -> str | None:
        face_up = state.zones["trump"].cards
        if not face_up:
            return "the face-up trump is no longer on the table"
        if not self._has_won(state, seat):
            return "you must have won a trick before exchanging"
        card, data = action["card"], BriscaData.of(state)
        seven, two = f"7{data.trump}", f"2{data.trump}"
        if missing := not_in_hand(state, seat, card):
            return missing
        if card in data.exchanged or not (card == seven or (card == two and face_up[0] == seven)):
            return (
                "only the 7 of trumps, or the 2 of trumps for a face-up 7, can be exchanged,"
                " each once a deal"
            )
        return None

    @exchange.handler
    def _exchange(self, state: State, seat: int, action: Action) -> list[Event]:
        card = action["card"]
        face_up = state.zones["trump"].cards
        taken = face_up[0]
        cards = state.cards(hand(seat))
        cards[cards.index(card)] = taken
        face_up[0] = card
        BriscaData.of(state).exchanged.append(card)
        return [event("exchanged", seat=seat, gave=card, took=taken)]

    @sing.enumerate
    def _sings_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly: only the winner of the last trick may sing, before leading."""
        options = state.options
        if not options["cantes"] or BriscaData.of(state).may_sing != seat:
            return []
        cards, sung = state.zones[hand(seat)].cards, self._team_sung(state, seat)
        actions: list[Action] = [
            {"type": "sing", "suit": s}
            for s in SPANISH_SUITS
            if s not in sung and f"{REY}{s}" in cards and f"{CABALLO}{s}" in cards
        ]
        if options["tute_wins_deal"] and self._tute(cards):
            actions.append({"type": "sing", "suit": TUTE})
        return actions

    @sing.candidates
    def _sings(self, state: State, seat: int) -> list[Action]:
        if not state.options["cantes"] or BriscaData.of(state).may_sing != seat:
            return []  # nothing to check: the refusal says why
        cards = state.cards(hand(seat))
        held = [s for s in SPANISH_SUITS if f"{REY}{s}" in cards and f"{CABALLO}{s}" in cards]
        return [{"type": "sing", "suit": s} for s in (*held, TUTE)]

    @sing.refusal
    def _sing_refused(self, state: State, seat: int, action: Action) -> str | None:
        opts, which = state.options, action["suit"]
        if not opts["cantes"]:
            return "this match is played without cantes (option cantes is off)"
        if BriscaData.of(state).may_sing != seat:
            return "a pareja is sung only right after winning a trick, before leading the next"
        cards = state.cards(hand(seat))
        if which == TUTE:
            if not opts["tute_wins_deal"]:
                return "a tute takes the deal only with option tute_wins_deal"
            return None if self._tute(cards) else "a tute needs all four reyes or caballos"
        if which in self._team_sung(state, seat):
            return f"the pareja of {which} was already sung this deal"
        if f"{REY}{which}" not in cards or f"{CABALLO}{which}" not in cards:
            return f"singing {which} needs the rey and the caballo of {which} in your hand"
        return None

    @sing.handler
    def _sing(self, state: State, seat: int, action: Action) -> list[Event]:
        which, data = action["suit"], BriscaData.of(state)
        data.may_sing = None
        if which == TUTE:
            return self._end_deal(state, tute=seat)
        points = 40 if which == data.trump else 20
        data.sung[seat].append(which)
        data.cantes.append({"seat": seat, "suit": which, "points": points})
        shown = [f"{REY}{which}", f"{CABALLO}{which}"]
        return [event("sang", seat=seat, suit=which, points=points, shown=shown)]

    @claim.enumerate
    def _claims_now(self, state: State, seat: int) -> list[Action]:
        """Listed directly: a claim is open only right after the partner's rey or caballo."""
        if not state.options["partner_claim"] or not BriscaData.of(state).claimable[seat]:
            return []
        return self.claim.filtered(self, state, seat)

    @claim.candidates
    def _claims(self, state: State, seat: int) -> list[Action]:
        if not state.options["partner_claim"]:
            return []  # nobody can claim: the refusal says why
        suits = BriscaData.of(state).claimable[seat]
        if suits and self.option(state, "claim_needs_pair"):
            cards = state.zones[hand(seat)].cards
            suits = [s for s in suits if f"{REY}{s}" in cards or f"{CABALLO}{s}" in cards]
        return [{"type": "claim", "suit": s} for s in suits]

    @claim.refusal
    def _claim_refused(self, state: State, seat: int, action: Action) -> str | None:
        which = action["suit"]
        if which not in BriscaData.of(state).claimable[seat]:
            return (
                "a pareja is claimed on your next turn after your partner plays its rey or caballo"
            )
        if which in self._team_sung(state, seat):
            return f"the pareja of {which} was already sung this deal"
        cards = state.cards(hand(seat))
        if self.option(state, "claim_needs_pair") and not (
            f"{REY}{which}" in cards or f"{CABALLO}{which}" in cards
        ):
            # The partner played one of the two; the other must be in the claimant's hand.
            return f"claiming {which} needs the pareja's other card (rey or caballo) in your hand"
        return None

    @claim.handler
    def _claim(self, state: State, seat: int, action: Action) -> list[Event]:
        which, data = action["suit"], BriscaData.of(state)
        data.claimable[seat].remove(which)
        points = 40 if which == data.trump else 20
        data.sung[seat].append(which)
        data.cantes.append({"seat": seat, "suit": which, "points": points})
        return [event("claimed", seat=seat, suit=which, points=points)]

    # -- drawing and the end of a deal ----------------------------------------------------
    def _draw(self, state: State, first: int) -> list[Event]:
        stock, face_up = state.zones["stock"].cards, state.zones["trump"].cards
        events = []
        for i in range(state.players):
            if not stock and not face_up:
                break
            s = turns.next_seat(state, first, i)
            if stock:
                card = stock.pop()
                events.append(event("drew", seat=s, card=card, visible_to=[s]))
            else:
                card = face_up.pop()
                events.append(event("drew", seat=s, card=card))
            state.zones[hand(s)].cards.append(card)
        return events

    def _end_deal(self, state: State, tute: int | None = None) -> list[Event]:
        data, n = BriscaData.of(state), state.players
        if tute is not None:  # a sung "tute" takes every point of the deal
            every = self._points(state, self.deck(state)) + state.options["last_trick_bonus"]
            every += sum(c["points"] for c in data.cantes)
            seat_points = [every if s in state.team_of(tute) else 0 for s in range(n)]
            pile = state.zones[seat_zone("won", tute)].cards
            for s in range(n):  # the deal stops here: gather the cards back on the winner's pile
                for name in (hand(s), "trick", "stock", "trump"):
                    pile.extend(state.zones[name].cards)
                    state.zones[name].cards.clear()
            data.last_trick = tute
        else:
            seat_points = [self._points(state, state.cards(seat_zone("won", s))) for s in range(n)]
            for c in data.cantes:
                seat_points[c["seat"]] += c["points"]
            assert data.last_trick is not None
            seat_points[data.last_trick] += state.options["last_trick_bonus"]
        points = [sum(seat_points[m] for m in state.team_of(s)) for s in range(n)]
        record_round(state, points)
        events = [event("deal_ended", round=state.round, points=points, tute=tute)]
        if len(state.rounds) >= state.options["deals"]:
            best = max(state.scores)
            winners = [s for s in range(n) if state.scores[s] == best]
            if len(winners) > 1:  # tie-break: the higher score in the last deal
                last = max(points[s] for s in winners)
                winners = [s for s in winners if points[s] == last]
            return events + end_match(state, winners)
        state.round += 1
        assert data.last_trick is not None
        return events + self._deal(state, data.last_trick)

    # -- rules as questions -------------------------------------------------------------
    @staticmethod
    def _arrastre(state: State) -> bool:
        """Whether suit is obligatory now: a trick is led and stock and face-up trump are gone."""
        zones = state.zones
        return bool(zones["trick"].cards) and not zones["stock"].cards and not zones["trump"].cards

    @staticmethod
    def _playable(state: State, cards: list[str]) -> list[str]:
        """The cards of a hand that may follow the trick under arrastre."""
        head = state.options["arrastre"] == "montar"
        trick, trump = state.zones["trick"].cards, BriscaData.of(state).trump
        return tricks.playable(cards, trick, BRISCA_STRENGTH, trump, head=head)

    @staticmethod
    def _winning_index(trick: list[str], trump: str) -> int:
        winner = tricks.trick_winner(trick, BRISCA_STRENGTH, trump)
        assert winner is not None
        return winner

    @staticmethod
    def _points(state: State, cards: list[str]) -> int:
        table = CARD_POINTS[state.options["card_points"]]
        return sum(table.get(rank(c), 0) for c in cards)

    @staticmethod
    def _has_won(state: State, seat: int) -> bool:
        return BriscaData.of(state).tricks_won[seat] > 0

    @staticmethod
    def _team_sung(state: State, seat: int) -> set[str]:
        sung = BriscaData.of(state).sung
        return {s for m in state.team_of(seat) for s in sung[m]}

    @staticmethod
    def _tute(cards: list[str]) -> bool:
        return (
            sum(rank(c) == REY for c in cards) == 4 or sum(rank(c) == CABALLO for c in cards) == 4
        )

    # -- views -------------------------------------------------------------------------
    def data_from_view(self, view: dict, data: BriscaData) -> BriscaData:
        """The songs sung, and the seat's own song and claims, from the view (see engine.sampling)."""
        data.sung = [
            [c["suit"] for c in view["cantes"] if c["seat"] == s] for s in range(view["players"])
        ]
        offered = view["legal_actions"]
        if any(a["type"] == "sing" for a in offered):
            data.may_sing = view["seat"]
        seat, face_up = view["seat"], view["zones"]["trump"]["cards"]
        if seat is None:
            return data
        if data.claimable:
            data.claimable[seat] = [a["suit"] for a in offered if a["type"] == "claim"]
        # A 7 or 2 of trumps the seat could exchange now but is not offered was exchanged.
        seven, two = f"7{data.trump}", f"2{data.trump}"
        hand = view["zones"][f"hand:{seat}"]["cards"]
        can = face_up and view["tricks_won"][seat] > 0 and seat in view["to_act"]
        exchangeable = [seven, two] if face_up and face_up[0] == seven else [seven]
        offered_cards = {a["card"] for a in offered if a["type"] == "exchange"}
        data.exchanged = [c for c in face_up if c in (seven, two)] + [
            c for c in exchangeable if can and c in hand and c not in offered_cards
        ]
        return data

    def public_fields(self, state: State) -> dict:
        data = BriscaData.of(state)
        return {
            "trump": data.trump,
            "trump_card": data.trump_card,
            "dealer": data.dealer,
            "trick_seats": list(data.trick_seats),
            "tricks_won": list(data.tricks_won),
            "cantes": list(data.cantes),
            "deal_points": [
                self._points(state, state.cards(seat_zone("won", s))) for s in range(state.players)
            ],
        }


register(Brisca())
