"""Brisca, Tute and Tute en parejas (rules/brisca.txt, RULINGS.md 2.10).

Trick-taking "ace-ten" games with a 40-card Spanish deck. Card strength
1 > 3 > R > C > S > 7 > 6 > 5 > 4 > 2; the highest trump wins a trick, else the
highest card of the suit led. Each player holds 3 cards (Tute: 6; Tute en
parejas: all 10) and, while the stock lasts, draws one after every trick, the
trick winner first and the face-up trump last. A match is 4 deals; their points
are summed.

Decisions where the text is silent or ambiguous (each an option where RULINGS names alternatives):
* 3 players: the 2 de bastos is removed (39 cards, 13 tricks, still 120 points);
  option ``three_player_removal`` = ``all-twos`` removes every 2 (36 cards).
* 4 players play individually; ``partnerships`` makes teams [0, 2] and [1, 3]
  (always on in Tute en parejas). Team members share their team's points.
* Arrastre (once stock and face-up trump are gone): follow suit if able, else
  trump if able, else anything. ``arrastre = "montar"`` also demands beating the
  best card where able.
* Exchanges: the trump 7 takes the face-up card; the trump 2 takes the 7 once the
  7 is face up. Only on one's own turn, after having won a trick this deal, while
  the face-up card is still on the table. Each of the two exchanges happens at most once a
  deal (otherwise a 7 and a 2 could swap back and forth for ever).
* Play is clockwise (seat + 1); ``direction`` = ``counterclockwise`` for the
  traditional Spanish order. The first dealer is drawn by chance; each later deal
  is led by the winner of the previous deal's last trick.
* Won tricks lie face up (public): every card in them was seen when played.
* Tute (seed): A and 3 are worth 10, everything else 0; a pareja (R + C of a
  suit) sings 20, 40 in trumps, only by the winner of the trick just won, before
  leading, one cante per trick and each suit once per deal; the last trick is
  worth 10. ``tute_wins_deal`` adds the standard "tute": holding all four Reyes
  or Caballos, sung at the same moment, takes every point of the deal.
* Tute en parejas: 10 cards each (13 is impossible with 40 cards); the trump is
  the dealer's last card, shown to all; arrastre from the first trick. When a
  player plays a R or C, their partner may claim the pareja (holding the other
  card) on their next turn, before playing; the claim scores as a cante.
* Final tie: the higher score in the last deal wins, else the win is shared.
"""

from __future__ import annotations

from shared.engine import (
    HIDDEN,
    OWNER,
    PUBLIC,
    Action,
    Event,
    Game,
    Option,
    State,
    Variant,
    event,
    finish,
    rank,
    record_round,
    register,
    spanish_deck,
    suit,
)

STRENGTH = {1: 10, 3: 9, 12: 8, 11: 7, 10: 6, 7: 5, 6: 4, 5: 3, 4: 2, 2: 1}
CARD_POINTS = {
    "standard": {1: 11, 3: 10, 12: 4, 11: 3, 10: 2},
    "aces-and-threes": {1: 10, 3: 10},
}
CABALLO, REY = 11, 12


class Brisca(Game):
    id = "brisca"
    name = "Brisca"
    rules_file = "brisca.txt"
    players = (2, 4)
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
        "direction": Option(
            "clockwise", "direction of play", choices=("clockwise", "counterclockwise")
        ),
    }
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
            from shared.engine import BadSetup

            raise BadSetup(
                f"{opts['hand_size']} cards for {state.players} players do not fit the deck"
            )
        state.data["direction"] = 1 if opts["direction"] == "clockwise" else -1
        if opts["partnerships"] and state.players == 4:
            state.teams = [[0, 2], [1, 3]]
        dealer = state.rng().randrange(state.players)
        return self._deal(state, state.next_seat(dealer))

    def _deal(self, state: State, leader: int) -> list[Event]:
        n, opts = state.players, state.options
        cards = self.deck(state)
        state.shuffle(cards)
        for s in range(n):
            state.zone(f"hand:{s}", s, OWNER)
            state.zone(f"won:{s}", s, PUBLIC)
        state.zone("trick", None, PUBLIC)
        stock = state.zone("stock", None, HIDDEN)
        face_up = state.zone("trump", None, PUBLIC)
        events = []
        order = [state.next_seat(leader, i) for i in range(n)]
        size = opts["hand_size"]
        for s in order:
            state.zones[f"hand:{s}"].cards = cards[:size]
            del cards[:size]
        if cards:
            face_up.cards = [cards.pop(0)]
            stock.cards = cards[::-1]  # the top of the stock is the end of the list
            trump_card = face_up.cards[0]
        else:  # everything dealt: the dealer's last card shows the trump
            trump_card = state.cards(f"hand:{order[-1]}")[-1]
        state.data.update(
            trump=suit(trump_card),
            trump_card=trump_card,
            dealer=state.next_seat(leader, -1),
            trick_seats=[],
            tricks_won=[0] * n,
            cantes=[],
            sung=[[] for _ in range(n)],
            may_sing=None,
            claimable=[[] for _ in range(n)],
            last_trick=None,
            exchanged=[],
        )
        state.to_act = [leader]
        events.append(event("deal", round=state.round, dealer=state.data["dealer"], leader=leader,
                            trump_card=trump_card))  # fmt: skip
        for s in order:
            events.append(
                event("dealt", seat=s, cards=list(state.cards(f"hand:{s}")), visible_to=[s])
            )
        return events

    # -- legal actions -----------------------------------------------------------------
    def legal_actions(self, state: State, seat: int) -> list[Action]:
        hand = state.zones[f"hand:{seat}"].cards
        actions: list[Action] = [{"type": "play", "card": c} for c in self._playable(state, hand)]
        data, opts = state.data, state.options
        trump = data["trump"]
        face_up = state.zones["trump"].cards
        if face_up and self._has_won(state, seat):
            seven, two = f"7{trump}", f"2{trump}"
            done = data["exchanged"]
            if seven in hand and seven not in done:
                actions.append({"type": "exchange", "card": seven})
            if two in hand and two not in done and face_up[0] == seven:
                actions.append({"type": "exchange", "card": two})
        if opts["cantes"] and data["may_sing"] == seat:
            sung = self._team_sung(state, seat)
            for s in "OCEB":
                if s not in sung and f"{REY}{s}" in hand and f"{CABALLO}{s}" in hand:
                    actions.append({"type": "sing", "suit": s})
            if opts["tute_wins_deal"] and self._tute(hand):
                actions.append({"type": "sing", "suit": "tute"})
        for s in data["claimable"][seat]:
            if s not in self._team_sung(state, seat):
                actions.append({"type": "claim", "suit": s})
        return actions

    def _playable(self, state: State, hand: list[str]) -> list[str]:
        trick = state.zones["trick"].cards
        if not trick or state.zones["stock"].cards or state.zones["trump"].cards:
            return list(hand)
        trump, led = state.data["trump"], suit(trick[0])
        best = self._winning_index(trick, trump)
        follow = [c for c in hand if suit(c) == led]
        if follow:
            if state.options["arrastre"] == "montar" and suit(trick[best]) == led:
                over = [c for c in follow if STRENGTH[rank(c)] > STRENGTH[rank(trick[best])]]
                return over or follow
            return follow
        trumps = [c for c in hand if suit(c) == trump]
        if trumps:
            if state.options["arrastre"] == "montar" and suit(trick[best]) == trump:
                over = [c for c in trumps if STRENGTH[rank(c)] > STRENGTH[rank(trick[best])]]
                return over or trumps
            return trumps
        return list(hand)

    def why_illegal(self, state: State, seat: int, action: Action) -> str:
        kind, hand = action.get("type"), state.cards(f"hand:{seat}")
        card = action.get("card")
        if kind == "play":
            if card not in hand:
                return f"card {card} is not in your hand"
            return "the stock is empty: follow the suit led, else play a trump" + (
                ", beating the best card where you can"
                if state.options["arrastre"] == "montar"
                else ""
            )
        if kind == "exchange":
            if not state.zones["trump"].cards:
                return "the face-up trump is no longer on the table"
            if not self._has_won(state, seat):
                return "you must have won a trick before exchanging"
            return (
                "only the 7 of trumps, or the 2 of trumps for a face-up 7, can be exchanged,"
                " each once a deal"
            )
        if kind in ("sing", "claim"):
            return "a pareja is sung right after winning a trick (or claimed on your partner's R or C), once a suit"
        return f"unknown action type {kind!r}; actions: play, exchange, sing, claim"

    # -- applying ----------------------------------------------------------------------
    def apply(self, state: State, seat: int | None, action: Action) -> list[Event]:
        assert seat is not None
        kind = action["type"]
        if kind == "play":
            return self._play(state, seat, action["card"])
        if kind == "exchange":
            return self._exchange(state, seat, action["card"])
        if kind == "sing":
            return self._sing(state, seat, action["suit"])
        return self._claim(state, seat, action["suit"])

    def _exchange(self, state: State, seat: int, card: str) -> list[Event]:
        face_up = state.zones["trump"].cards
        taken = face_up[0]
        hand = state.cards(f"hand:{seat}")
        hand[hand.index(card)] = taken
        face_up[0] = card
        state.data["exchanged"].append(card)
        return [event("exchanged", seat=seat, gave=card, took=taken)]

    def _sing(self, state: State, seat: int, which: str) -> list[Event]:
        data = state.data
        data["may_sing"] = None
        if which == "tute":
            return self._end_deal(state, tute=seat)
        points = 40 if which == data["trump"] else 20
        data["sung"][seat].append(which)
        data["cantes"].append({"seat": seat, "suit": which, "points": points})
        return [
            event(
                "sang",
                seat=seat,
                suit=which,
                points=points,
                shown=[f"{REY}{which}", f"{CABALLO}{which}"],
            )
        ]

    def _claim(self, state: State, seat: int, which: str) -> list[Event]:
        data = state.data
        data["claimable"][seat].remove(which)
        points = 40 if which == data["trump"] else 20
        data["sung"][seat].append(which)
        data["cantes"].append({"seat": seat, "suit": which, "points": points})
        return [event("claimed", seat=seat, suit=which, points=points)]

    def _play(self, state: State, seat: int, card: str) -> list[Event]:
        data, n = state.data, state.players
        state.move(card, f"hand:{seat}", "trick")
        data["trick_seats"].append(seat)
        data["may_sing"] = None
        data["claimable"][seat] = []
        events = [event("played", seat=seat, card=card)]
        if state.options["partner_claim"] and rank(card) in (CABALLO, REY) and state.teams:
            partner = next(s for s in state.team_of(seat) if s != seat)
            if suit(card) not in data["claimable"][partner]:
                data["claimable"][partner].append(suit(card))
        trick = state.zones["trick"].cards
        if len(trick) < n:
            state.to_act = [state.next_seat(seat)]
            return events
        winner = data["trick_seats"][self._winning_index(trick, data["trump"])]
        won = list(trick)
        state.zones[f"won:{winner}"].cards.extend(won)
        trick.clear()
        data["trick_seats"] = []
        data["tricks_won"][winner] += 1
        data["last_trick"] = winner
        events.append(event("trick_won", seat=winner, cards=won, points=self._points(state, won)))
        if not any(state.zones[f"hand:{s}"].cards for s in range(n)):
            return events + self._end_deal(state)
        events.extend(self._draw(state, winner))
        state.to_act = [winner]
        if state.options["cantes"]:
            data["may_sing"] = winner
        return events

    def _draw(self, state: State, first: int) -> list[Event]:
        stock, face_up = state.zones["stock"].cards, state.zones["trump"].cards
        events = []
        for i in range(state.players):
            s = state.next_seat(first, i)
            if stock:
                card = stock.pop()
                events.append(event("drew", seat=s, card=card, visible_to=[s]))
            elif face_up:
                card = face_up.pop()
                events.append(event("drew", seat=s, card=card))
            else:
                break
            state.zones[f"hand:{s}"].cards.append(card)
        return events

    def _end_deal(self, state: State, tute: int | None = None) -> list[Event]:
        data, n = state.data, state.players
        if tute is not None:  # a sung "tute" takes every point of the deal
            every = self._points(state, self.deck(state)) + state.options["last_trick_bonus"]
            every += sum(c["points"] for c in data["cantes"])
            seat_points = [every if s in state.team_of(tute) else 0 for s in range(n)]
            for s in range(n):  # the deal stops here: gather the cards back on the winner's pile
                for name in (f"hand:{s}", "trick", "stock", "trump"):
                    state.zones[f"won:{tute}"].cards.extend(state.zones[name].cards)
                    state.zones[name].cards.clear()
            data["last_trick"] = tute
        else:
            seat_points = [self._points(state, state.cards(f"won:{s}")) for s in range(n)]
            for c in data["cantes"]:
                seat_points[c["seat"]] += c["points"]
            seat_points[data["last_trick"]] += state.options["last_trick_bonus"]
        points = [sum(seat_points[m] for m in state.team_of(s)) for s in range(n)]
        record_round(state, points)
        events = [event("deal_ended", round=state.round, points=points, tute=tute)]
        if len(state.rounds) >= state.options["deals"]:
            best = max(state.scores)
            winners = [s for s in range(n) if state.scores[s] == best]
            if len(winners) > 1:  # tie-break: the higher score in the last deal
                last = max(points[s] for s in winners)
                winners = [s for s in winners if points[s] == last]
            finish(state, winners)
            return events + [event("match_finished", result=state.result)]
        state.round += 1
        return events + self._deal(state, data["last_trick"])

    # -- rules as questions -------------------------------------------------------------
    @staticmethod
    def _winning_index(trick: list[str], trump: str) -> int:
        led = suit(trick[0])
        best = 0
        for i in range(1, len(trick)):
            c, b = trick[i], trick[best]
            cs, bs = suit(c), suit(b)
            if (
                (cs == bs and STRENGTH[rank(c)] > STRENGTH[rank(b)])
                or (cs == trump != bs)
                or (cs == led and bs not in (led, trump))
            ):
                best = i
        return best

    @staticmethod
    def _points(state: State, cards: list[str]) -> int:
        table = CARD_POINTS[state.options["card_points"]]
        return sum(table.get(rank(c), 0) for c in cards)

    @staticmethod
    def _has_won(state: State, seat: int) -> bool:
        return state.data["tricks_won"][seat] > 0

    @staticmethod
    def _team_sung(state: State, seat: int) -> set[str]:
        return {s for m in state.team_of(seat) for s in state.data["sung"][m]}

    @staticmethod
    def _tute(hand: list[str]) -> bool:
        return sum(rank(c) == REY for c in hand) == 4 or sum(rank(c) == CABALLO for c in hand) == 4

    def view_fields(self, state: State, seat: int | None) -> dict:
        data = state.data
        return {
            "trump": data["trump"],
            "trump_card": data["trump_card"],
            "dealer": data["dealer"],
            "trick_seats": list(data["trick_seats"]),
            "tricks_won": list(data["tricks_won"]),
            "cantes": list(data["cantes"]),
            "deal_points": [
                self._points(state, state.cards(f"won:{s}")) for s in range(state.players)
            ],
        }


register(Brisca())
