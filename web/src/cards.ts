/** Cards drawn as SVG by the app itself: the Spanish deck (oros, copas, espadas, bastos;
 * 1..12) and the English deck (spades, hearts, diamonds, clubs; A..K, joker). Card codes
 * are the engine's (shared/engine/cards.py): rank then suit letter, e.g. 12B, 10H, QS, JK. */

import { lang, t, type Lang } from "./i18n";

export type Deck = "spanish" | "english";

/** Each suit's colour, by the deck's suit letters. */
const SPANISH_COLOURS: Record<string, string> = { O: "#c9961a", C: "#c0392b", E: "#2c5aa0", B: "#2e7d32" };
const ENGLISH_COLOURS: Record<string, string> = { S: "#1b1b1b", H: "#c62828", D: "#c62828", C: "#1b1b1b" };
/** Each deck's names in each language: a rank's and a suit's words, by code. */
const NAMES: Record<Deck, Record<Lang, { ranks: Record<string, string>; suits: Record<string, string>; of: string; joker: string }>> = {
  spanish: {
    es: { ranks: { "1": "As", "10": "Sota", "11": "Caballo", "12": "Rey" }, suits: { O: "oros", C: "copas", E: "espadas", B: "bastos" }, of: "de", joker: "Comodín" },
    en: { ranks: { "1": "Ace", "10": "Jack", "11": "Knight", "12": "King" }, suits: { O: "coins", C: "cups", E: "swords", B: "clubs" }, of: "of", joker: "Joker" },
  },
  english: {
    es: { ranks: { A: "As", J: "Jota", Q: "Reina", K: "Rey" }, suits: { S: "picas", H: "corazones", D: "diamantes", C: "tréboles" }, of: "de", joker: "Comodín" },
    en: { ranks: { A: "Ace", J: "Jack", Q: "Queen", K: "King" }, suits: { S: "spades", H: "hearts", D: "diamonds", C: "clubs" }, of: "of", joker: "Joker" },
  },
};
/** The word printed on a figure (the deck's own, whatever the UI's language). */
const FIGURE_WORDS: Record<string, string> = { "10": "Sota", "11": "Caballo", "12": "Rey", J: "Jack", Q: "Queen", K: "King" };
const CARD_RE = /^(?:(?:[1-9]|1[0-2])[OCEB]|(?:[2-9]|10|[AJQK])[SHDC]|JK)$/;

export function isCard(value: unknown): value is string {
  return typeof value === "string" && CARD_RE.test(value);
}

/** Which deck a set of codes comes from: a suit or rank only one deck has decides it
 * (2C..10C are both copas and clubs); Spanish when nothing does. */
export function deckOf(codes: Iterable<string>): Deck {
  for (const code of codes) {
    if (code === "JK") continue;
    const rank = code.slice(0, -1);
    const suitLetter = code.slice(-1);
    if ("SHD".includes(suitLetter) || "AJQK".includes(rank)) return "english";
    if ("OEB".includes(suitLetter) || ["1", "11", "12"].includes(rank)) return "spanish";
  }
  return "spanish";
}

function parts(code: string, deck: Deck): { rank: string; suit: string; color: string } {
  const rank = code.slice(0, -1);
  const letter = code.slice(-1);
  const spanish = deck === "spanish" && !"SHD".includes(letter) && !"AJQK".includes(rank);
  const color = (spanish ? SPANISH_COLOURS : ENGLISH_COLOURS)[letter] ?? "#333";
  return { rank, suit: letter, color };
}

/** A person's name for a card, as its deck names it in the UI's language: "As de oros",
 * "Sota de bastos", "Caballo de copas" (the Spanish deck), "Ace of spades" (the English
 * deck); in English the Spanish deck's "3 of cups", in Spanish the English deck's "Reina
 * de picas". A face-down card is "a face-down card". */
export function cardName(code: string | null, deck: Deck, language: Lang = lang()): string {
  if (code === null) return t("face_down_card");
  if (code === "JK") return NAMES[deck][language].joker;
  const rank = code.slice(0, -1);
  const letter = code.slice(-1);
  // a code only the other deck has (a diamond in a Spanish view) is named by that deck
  const own = deck === "spanish" && ("SHD".includes(letter) || "AJQK".includes(rank)) ? "english" : deck;
  const names = NAMES[own][language];
  return `${names.ranks[rank] ?? rank} ${names.of} ${names.suits[letter] ?? letter}`;
}

/** The suit's symbol as SVG shapes in a 20×20 box centred on (0, 0). */
function suitShape(letter: string, spanish: boolean, color: string): string {
  if (spanish) {
    switch (letter) {
      case "O": // a gold coin
        return `<circle r="8" fill="${color}" stroke="#7a5a00" stroke-width="1.2"/><circle r="4.5" fill="none" stroke="#fff3c4" stroke-width="1.2"/>`;
      case "C": // a cup
        return `<path d="M-7,-8 H7 Q7,1 1.5,2.5 V5.5 H5 V8 H-5 V5.5 H-1.5 V2.5 Q-7,1 -7,-8 Z" fill="${color}"/>`;
      case "E": // a sword
        return `<path d="M0,-9 L2,-6 V4 H-2 V-6 Z" fill="${color}"/><rect x="-5.5" y="4" width="11" height="2" fill="#7a5a00"/><rect x="-1" y="6" width="2" height="3.5" fill="#7a5a00"/>`;
      default: // a club of wood
        return `<path d="M-2.5,9 L-1,-6 Q0,-10 1,-6 L2.5,9 Z" fill="${color}"/><circle cx="-2.5" cy="-2" r="1.4" fill="#a5d6a7"/><circle cx="2" cy="2" r="1.4" fill="#a5d6a7"/>`;
    }
  }
  switch (letter) {
    case "H":
      return `<path d="M0,8 C-9,1 -8,-7 -3.5,-7 C-1.5,-7 0,-5 0,-3.5 C0,-5 1.5,-7 3.5,-7 C8,-7 9,1 0,8 Z" fill="${color}"/>`;
    case "D":
      return `<path d="M0,-9 L6.5,0 L0,9 L-6.5,0 Z" fill="${color}"/>`;
    case "S":
      return `<path d="M0,-9 C-9,-1 -8,6 -3.5,6 C-2,6 -1,5 -0.5,4 L-2,9 H2 L0.5,4 C1,5 2,6 3.5,6 C8,6 9,-1 0,-9 Z" fill="${color}"/>`;
    default:
      return `<circle cx="0" cy="-4.5" r="3.6" fill="${color}"/><circle cx="-4.2" cy="1.5" r="3.6" fill="${color}"/><circle cx="4.2" cy="1.5" r="3.6" fill="${color}"/><path d="M-1,1 L-2.5,9 H2.5 L1,1 Z" fill="${color}"/>`;
  }
}

/** The SVG of one card, face up (a code) or its back (null). */
export function cardSvg(code: string | null, deck: Deck): string {
  const open = `<svg viewBox="0 0 60 90" xmlns="http://www.w3.org/2000/svg" aria-hidden="true" focusable="false">`;
  if (code === null) {
    const back = deck === "spanish" ? "#8e2430" : "#1f3f8a";
    return `${open}<rect x="1" y="1" width="58" height="88" rx="6" fill="#fff" stroke="#555"/><rect x="5" y="5" width="50" height="80" rx="4" fill="${back}"/><path d="M5,15 L45,85 M15,5 L55,75 M5,45 L27,85 M33,5 L55,45 M5,75 L45,5 M15,85 L55,15 M5,45 L27,5 M33,85 L55,45" stroke="#ffffff55" stroke-width="2"/></svg>`;
  }
  if (code === "JK") {
    return `${open}<rect x="1" y="1" width="58" height="88" rx="6" fill="#fff" stroke="#555"/><path d="M30,22 L35,38 L52,38 L38,48 L43,64 L30,54 L17,64 L22,48 L8,38 L25,38 Z" fill="#6a1b9a"/><text x="30" y="82" font-size="11" text-anchor="middle" fill="#6a1b9a" font-family="sans-serif" font-weight="bold">JOKER</text></svg>`;
  }
  const { rank, suit, color } = parts(code, deck);
  const spanish = deck === "spanish" && !"SHD".includes(suit) && !"AJQK".includes(rank);
  const shape = suitShape(suit, spanish, color);
  const figure = spanish ? ["10", "11", "12"].includes(rank) : ["J", "Q", "K"].includes(rank);
  const middle = figure
    ? `<rect x="14" y="22" width="32" height="46" rx="3" fill="${color}22" stroke="${color}"/><g transform="translate(30 45) scale(1.3)">${shape}</g><text x="30" y="64" font-size="9" text-anchor="middle" fill="${color}" font-family="sans-serif">${FIGURE_WORDS[rank] ?? ""}</text>`
    : `<g transform="translate(30 47) scale(1.6)">${shape}</g>`;
  const corner = (x: number, y: number, rotate: string) =>
    `<g transform="translate(${x} ${y}) ${rotate}"><text x="0" y="0" font-size="13" font-weight="bold" text-anchor="middle" fill="${color}" font-family="sans-serif">${rank}</text><g transform="translate(0 9) scale(0.45)">${shape}</g></g>`;
  const stripes = spanish ? `<rect x="4" y="4" width="52" height="82" rx="4" fill="none" stroke="${color}" stroke-width="0.8" stroke-dasharray="${"OCEB".indexOf(suit) + 1} 3"/>` : "";
  return `${open}<rect x="1" y="1" width="58" height="88" rx="6" fill="#fffdf7" stroke="#555"/>${stripes}${middle}${corner(10, 15, "")}${corner(50, 75, "rotate(180)")}</svg>`;
}

const RANK_ORDER: Record<string, number> = { A: 1, J: 11, Q: 12, K: 13 };

/** Cards sorted for a hand: by suit, then rank; face-down cards and jokers last. */
export function sortHand(cards: (string | null)[]): (string | null)[] {
  const key = (code: string | null): [number, number] => {
    if (code === null) return [99, 0];
    if (code === "JK") return [98, 0];
    const rank = code.slice(0, -1);
    return ["OCEBSHDC".indexOf(code.slice(-1)), RANK_ORDER[rank] ?? Number(rank)];
  };
  return [...cards].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    return x[0] - y[0] || x[1] - y[1];
  });
}
