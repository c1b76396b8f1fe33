"""E-Card (rules/e-card.txt): a two-player sealed duel with ten spades; the rules as
implemented and every decision where the text is silent are in docs/games/e-card.md.

The K (Emperor) beats the citizens (2-9), a citizen beats the A (Slave), and the Slave
beats the Emperor; two citizens draw and the round goes on. Each round the ten cards are
shuffled into two piles of five, one per player; the holder of the K commits first, still
sealed (``kit/sealed.py``), then the other; both cards are revealed together. The first
card to beat the other wins the round; twelve rounds, the most rounds won wins.

Rules version 2 (duplicate deals): every deal's chance is drawn from (seed, deal number,
draw within the deal) (``State.by_deal``), so deal k is the same cards for the same seat at
every table of a duplicate group whatever was played before; each round gathers the ten
cards as play left them and shuffles them from one order (sorted): a fresh shuffle of the
same cards, the same deal distribution.
"""

from __future__ import annotations

from dataclasses import dataclass

from shared.engine import (
    HIDDEN,
    OWNER,
    PUBLIC,
    Action,
    Event,
    Game,
    GameData,
    Option,
    State,
    Variant,
    rank,
    record_round,
    register,
)
from shared.engine.actions import ActionType, Field
from shared.engine.events import EventType
from shared.engine.facts import Fact, FactType
from shared.engine.fields import BOOL, CARD, INT, SEAT, list_of, obj
from shared.engine.fields import CARDS as CARD_LIST
from shared.engine.game import deals_by_number, deals_by_number_change
from shared.engine.kit.dealing import DEALT
from shared.engine.kit.ending import MATCH_FINISHED, end_match, highest
from shared.engine.kit.sealed import POLICIES, RANDOM, Sealed
from shared.engine.kit.table_facts import COMMITTED, MY_CARD, ROUND_OF
from shared.engine.kit.zones import hand, hand_card_action
from shared.engine.language import ENGLISH_DECK, Say, Words

EMPEROR, SLAVE = "KS", "AS"
CARDS = [EMPEROR, SLAVE] + [f"{r}S" for r in range(2, 10)]
PILES = ("pile:0", "pile:1")
SEALED = Sealed("duel", "card_committed")
SIDE_WORDS = Words(
    {"emperor": ("el Emperador", "the Emperor"), "slave": ("el Esclavo", "the Slave")}
)


def beats(card: str, other: str) -> bool:
    """The K beats citizens, citizens beat the A, the A beats the K."""
    if card == EMPEROR:
        return other != SLAVE and other != EMPEROR
    if card == SLAVE:
        return other == EMPEROR
    return other == SLAVE


def holds_both(cards: list[str]) -> bool:
    """A hand with both the K and the A loses the round at once."""
    return EMPEROR in cards and SLAVE in cards


def duel_winner(cards: list[str]) -> int | None:
    """The index of the card that beats the other, or None for a draw (two citizens)."""
    if beats(cards[0], cards[1]):
        return 0
    if beats(cards[1], cards[0]):
        return 1
    return None


@dataclass
class ECardData(GameData):
    chooser: int | None = None  # who picks a pile now (phase "choose")
    emperor: int | None = None  # who holds the K this round: commits first
    first_emperor: int | None = None  # the Kaiji deal: the Emperor of the first block
    last_winner: int | None = None
    draws: int = 0  # draws so far in this round
    last_reveal: dict | None = None  # the last two cards revealed and who won, for views


class ECard(Game):
    id = "e-card"
    name = "E-Card"
    rules_file = "e-card.txt"
    players = (2, 2)
    data_type = ECardData
    options = {
        "rounds": Option(12, "rounds in a match", minimum=1, maximum=99),
        "deal": Option(
            "random",
            "random piles chosen by the last round's winner, or the Kaiji deal (K + 4 citizens"
            " against A + 4 citizens, sides swapping every 3 rounds)",
            choices=("random", "kaiji"),
        ),
        "commit_seconds": Option(
            60.0, "seconds to commit a card before the timeout", minimum=1.0, maximum=3600.0
        ),
        "timeout_play": Option(
            RANDOM, "the card committed for a seat that did not commit in time", choices=POLICIES
        ),
        **deals_by_number(since=2),
    }
    rules_version = 2
    changes = (deals_by_number_change(2),)
    variants = {"base": Variant("base", "E-Card: Emperor, citizens and Slave, twelve rounds.")}

    deck_kind = ENGLISH_DECK

    # -- the events ------------------------------------------------------------------
    piles_formed = EventType(
        "piles_formed",
        "the ten cards shuffled into two face-down piles of five; one seat chooses",
        round=INT,
        chooser=SEAT.about("who chooses a pile"),
        says=Say(
            es="Ronda {round}: {chooser} elige uno de los dos montones",
            en="Round {round}: {chooser} chooses one of the two piles",
        ),
    )
    pile_chosen = EventType(
        "pile_chosen",
        "a pile taken; the other goes to the other seat",
        seat=SEAT,
        pile=INT.about("0 or 1"),
        says=Say(es="{seat} se queda el montón {pile}", en="{seat} takes pile {pile}"),
    )
    sides_dealt = EventType(
        "sides_dealt",
        "the Kaiji deal: the K and four citizens against the A and four citizens",
        round=INT,
        emperor=SEAT.about("who holds the K"),
        slave=SEAT.about("who holds the A"),
        says=Say(
            es="Ronda {round}: {emperor} es el Emperador y {slave} el Esclavo",
            en="Round {round}: {emperor} is the Emperor, {slave} the Slave",
        ),
    )
    dealt = DEALT
    automatic_loss = EventType(
        "automatic_loss",
        "a hand with both the K and the A loses the round at once",
        seat=SEAT,
        round=INT,
        says=Say(
            es="{seat} tiene el Emperador y el Esclavo: pierde la ronda {round}",
            en="{seat} holds both the Emperor and the Slave: round {round} lost",
        ),
    )
    duel_open = EventType(
        "duel_open",
        "a duel: the holder of the K commits first, then the other",
        round=INT,
        first=SEAT.about("who commits first: the holder of the K"),
        says=Say(es="{first} pone carta primero", en="{first} commits first"),
    )
    card_committed = SEALED.commit_event
    cards_revealed = EventType(
        "cards_revealed",
        "both cards shown at once, by seat, and whose beat the other (null: two citizens draw)",
        round=INT,
        cards=CARD_LIST.about("each seat's card, in seat order"),
        winner=SEAT.or_null(),
    )
    round_won = EventType(
        "round_won",
        "a round won",
        round=INT,
        seat=SEAT,
        says=Say(es="{seat} gana la ronda {round}", en="{seat} wins round {round}"),
    )
    match_finished = MATCH_FINISHED

    @cards_revealed.sentence
    def _revealed_said(self, event: Event) -> Say:
        if event["winner"] is None:
            return Say(es="Se descubren {cards}: empate", en="{cards:cap} are shown: a draw")
        return Say(
            es="Se descubren {cards}: gana {winner}", en="{cards:cap} are shown: {winner} wins"
        )

    # -- the view ----------------------------------------------------------------------
    public_view = {
        "chooser": SEAT.or_null("in phase choose: who chooses a pile"),
        "emperor": SEAT.or_null("who holds the K this round: commits first"),
        "committed": list_of(BOOL, "per seat, whether it has committed its card"),
        "draws": INT.about("draws so far in this round"),
        "last_reveal": obj(
            "the last two cards revealed, by seat, and whose won (null: a draw)",
            cards=CARD_LIST,
            winner=SEAT.or_null(),
        ).or_null(),
        "rounds_total": INT.about("rounds in the match"),
    }
    private_view = {"my_card": CARD.or_null("the card you committed, sealed until the reveal")}

    # -- the facts ---------------------------------------------------------------------
    round_number = ROUND_OF
    draws = FactType(
        "draws",
        "duels drawn in this round (two citizens)",
        INT,
        label=Say(es="Empates", en="Draws"),
        says=Say(es="Empates en esta ronda: {value}", en="Draws this round: {value}"),
    )
    chooser = FactType(
        "chooser",
        "who chooses one of the two piles",
        BOOL,
        per_seat=True,
        label=Say(es="Elige montón", en="Chooses a pile"),
        says=Say(es="{seat} elige montón", en="{seat} chooses a pile"),
    )
    side = FactType(
        "side",
        "which side a seat plays this round: the Emperor (the K) or the Slave (the A)",
        Field("str", choices=("emperor", "slave"), words=SIDE_WORDS),
        per_seat=True,
        label=Say(es="Bando", en="Side"),
        says=Say(es="{seat} es {value}", en="{seat} is {value}"),
    )
    committed = COMMITTED
    my_card = MY_CARD
    score = FactType(
        "score",
        "rounds a seat has won",
        INT,
        per_seat=True,
        label=Say(es="Rondas ganadas", en="Rounds won"),
        says=Say(
            es="{seat}: {value:ronda ganada|rondas ganadas}", en="{seat}: {value:round|rounds} won"
        ),
    )

    def facts(self, state: State, seat: int | None) -> list[Fact]:
        data = ECardData.of(state)
        total = state.options["rounds"]
        facts = [self.round_number({"number": min(state.round, total), "of": total})]
        if state.phase == "play" and not state.finished:
            facts.append(self.draws(data.draws))
        if state.phase == "choose" and data.chooser is not None and not state.finished:
            facts.append(self.chooser(True, data.chooser))
        if data.emperor is not None and not state.finished:
            facts.append(self.side("emperor", data.emperor))
            facts.append(self.side("slave", 1 - data.emperor))
            facts.extend(self.committed(True, s) for s in range(2) if SEALED.committed(state, s))
        if seat is not None and (mine := SEALED.card_of(state, seat)) is not None:
            facts.append(self.my_card(mine, seat))
        facts.extend(self.score(state.scores[s], s) for s in range(2))
        return facts

    # -- setup -----------------------------------------------------------------------
    def deck(self, state: State) -> list[str]:
        return list(CARDS)

    def setup(self, state: State) -> list[Event]:
        for s in range(2):
            state.zone(hand(s), s, OWNER)
        for name in PILES:
            state.zone(name, None, HIDDEN)
        SEALED.create(state)
        state.zone("played", None, PUBLIC)
        state.zones[PILES[0]].cards = list(CARDS)
        first = state.rng().randrange(2)
        data = ECardData.of(state)
        if state.options["deal"] == "kaiji":
            data.first_emperor = first
        else:
            data.chooser = first
        return self._start_round(state)

    def _start_round(self, state: State) -> list[Event]:
        """Gather the ten cards, shuffle them and form two piles (or deal the Kaiji sides)."""
        state.new_deal()
        data = ECardData.of(state)
        cards = [c for name in (*PILES, hand(0), hand(1), "played") for c in state.cards(name)]
        for name in (*PILES, hand(0), hand(1), "played"):
            state.zones[name].cards = []
        state.shuffle(cards)
        data.draws, data.emperor = 0, None
        if state.options["deal"] == "kaiji":
            return self._kaiji_deal(state, cards)
        state.zones[PILES[0]].cards = cards[:5]
        state.zones[PILES[1]].cards = cards[5:]
        chooser = data.chooser if data.last_winner is None else data.last_winner
        assert chooser is not None  # drawn at setup, then the last round's winner
        data.chooser = chooser
        state.phase = "choose"
        state.to_act = [chooser]
        return [self.piles_formed(round=state.round, chooser=chooser)]

    def _kaiji_deal(self, state: State, cards: list[str]) -> list[Event]:
        data = ECardData.of(state)
        assert data.first_emperor is not None
        block = (state.round - 1) // 3
        emperor = (data.first_emperor + block) % 2
        citizens = [c for c in cards if c not in (EMPEROR, SLAVE)]
        state.zones[hand(emperor)].cards = [EMPEROR] + citizens[:4]
        state.zones[hand(1 - emperor)].cards = [SLAVE] + citizens[4:]
        events = [self.sides_dealt(round=state.round, emperor=emperor, slave=1 - emperor)]
        return events + self._dealt(state) + self._open_duel(state)

    def _dealt(self, state: State) -> list[Event]:
        return [
            self.dealt(seat=s, cards=list(state.cards(hand(s))), visible_to=[s]) for s in range(2)
        ]

    def _open_duel(self, state: State) -> list[Event]:
        """The holder of the K commits first; the other commits once it has."""
        data = ECardData.of(state)
        data.emperor = 0 if EMPEROR in state.cards(hand(0)) else 1
        state.phase = "play"
        SEALED.open(state, [data.emperor], state.options["commit_seconds"])
        return [self.duel_open(round=state.round, first=data.emperor)]

    # -- the action table --------------------------------------------------------------
    choose = ActionType(
        "choose",
        "take one of the two face-down piles; the other player takes the other",
        phases=("choose",),
        pile=Field("int", "which pile: 0 or 1", choices=(0, 1)),
    )
    play = hand_card_action("play", "commit one card of your hand, face down", ("play",))

    @choose.candidates
    def _choices(self, state: State, seat: int) -> list[Action]:
        return [{"type": "choose", "pile": p} for p in (0, 1)]

    @choose.handler
    def _choose(self, state: State, seat: int, action: Action) -> list[Event]:
        data = ECardData.of(state)
        pile = action["pile"]
        state.zones[hand(seat)].cards = sorted(state.cards(PILES[pile]), key=rank)
        state.zones[hand(1 - seat)].cards = sorted(state.cards(PILES[1 - pile]), key=rank)
        for name in PILES:
            state.zones[name].cards = []
        data.chooser = None
        events = [self.pile_chosen(seat=seat, pile=pile)] + self._dealt(state)
        for s in range(2):
            if holds_both(state.cards(hand(s))):
                events.append(self.automatic_loss(seat=s, round=state.round))
                return events + self._end_round(state, 1 - s)
        return events + self._open_duel(state)

    @play.handler
    def _play(self, state: State, seat: int, action: Action) -> list[Event]:
        events = SEALED.commit(state, seat, action["card"], hand(seat), then=1 - seat)
        return events + (self._resolve(state) if SEALED.complete(state, (0, 1)) else [])

    def on_timeout(self, state: State) -> list[Event]:
        """The commit window closed: the seat to commit commits its default card."""
        then = 1 - state.to_act[0]
        hands = {s: hand(s) for s in range(2)}
        events = SEALED.commit_defaults(state, hands, state.options["timeout_play"], then=then)
        return events + (self._resolve(state) if SEALED.complete(state, (0, 1)) else [])

    def _resolve(self, state: State) -> list[Event]:
        """Reveal both cards at once; a draw goes on, otherwise the round is won."""
        data = ECardData.of(state)
        cards = SEALED.reveal(state, (0, 1), "played")
        winner = duel_winner(cards)
        data.last_reveal = {"cards": cards, "winner": winner}
        events = [self.cards_revealed(round=state.round, cards=cards, winner=winner)]
        if winner is None:
            data.draws += 1
            return events + self._open_duel(state)
        return events + self._end_round(state, winner)

    def _end_round(self, state: State, winner: int) -> list[Event]:
        data = ECardData.of(state)
        data.last_winner = winner
        points = [0, 0]
        points[winner] = 1
        record_round(state, points)
        events = [self.round_won(round=state.round, seat=winner)]
        if len(state.rounds) >= state.options["rounds"]:
            data.emperor = None
            return events + end_match(state, highest(state.scores))
        state.round += 1
        return events + self._start_round(state)

    # -- views -------------------------------------------------------------------------
    def public_fields(self, state: State) -> dict:
        data = ECardData.of(state)
        return {
            "chooser": data.chooser if state.phase == "choose" else None,
            "emperor": data.emperor,
            "committed": SEALED.flags(state),
            "draws": data.draws,
            "last_reveal": dict(data.last_reveal) if data.last_reveal else None,
            "rounds_total": state.options["rounds"],
        }

    def private_fields(self, state: State, seat: int) -> dict:
        return {"my_card": SEALED.card_of(state, seat)}


register(ECard())
