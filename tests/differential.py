"""The differential harness (issue 22 item 3): random well-typed effect texts, random states, the
compiled code and the reference interpreter (compiler/interpret.py) side by side.

Shared by tests/test_differential.py (a fixed-seed CI budget) and bench/differential.py (a longer
run). A text is drawn from a generator over the game's vocabulary (verbs × selectors × amounts ×
owners × filters × statements) and kept only when the checker accepts it; each kept text runs on a
random state (2–3 players, random zones and Goods) through ``engine.run`` and through the
interpreter on an identical copy, with the same deterministic agent, and the two final states and
typed event lists must be equal.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from functools import lru_cache

from compiler.build import compile_tree
from compiler.explain import effect_function, explain_effect
from compiler import ir
from compiler.interpret import OutOfScope, interpret, reference_slot_runner
from runtime.agents import FirstLegal, SeededRandom
from runtime.context import ABILITY_USE
from runtime.engine import engine_for, load_from_sources
from runtime.model import GameModel, model_of
from tests.conftest import FIXTURES, ROOT

GAMES = {
    "deckling": ROOT / "tests" / "language" / "games" / "deckling",
    "enginery": ROOT / "tests" / "language" / "games" / "enginery",
    "corsairs": ROOT / "tests" / "language" / "games" / "corsairs",  # abilities, copy, worth (issue 28)
    "truth": FIXTURES / "truth",
    "namesake": ROOT / "tests" / "language" / "games" / "namesake",  # issue 28: names, neighbours, an alias
    # issue 28 (h28b): a deck-builder whose Pedlar has a cost slot ("this costs 2 less per …"), so that
    # every "costing …" and "the cost of" read is compared with a card's own cost change too
    "duskdeck": ROOT / "tests" / "language" / "games" / "duskdeck",
}


@lru_cache(maxsize=None)
def compiled_game(name: str):
    result = compile_tree(GAMES[name])
    assert result.ok, name
    return load_from_sources(result.outputs, name)


@lru_cache(maxsize=None)
def vocabulary(name: str) -> GameModel:
    return model_of(compiled_game(name).vocab)


# --- texts -----------------------------------------------------------------------------------------


class TextGen:
    """Random effect texts over one game's vocabulary. Not every text checks: the checker decides,
    and only accepted texts are compared (a rejected text is counted, never run)."""

    NAMES = ("t", "u", "v", "r")

    def __init__(self, vocab: dict, rng: random.Random):
        self.v = vocab
        self.rng = rng
        goods = vocab.get("goods") or {}
        self.goods = sorted(k.replace("_", " ") for k in goods)  # a key with "_" is written with spaces
        self.groups = sorted(vocab.get("good_groups") or {})
        self.icons = sorted(vocab.get("icons") or {})
        zones = vocab.get("zones") or {}
        self.mine = sorted(z for z, s in zones.items() if (s or {}).get("per", "player") == "player")
        self.shared = sorted(z for z, s in zones.items() if (s or {}).get("per", "player") != "player")
        self.zone_word = {z: ((s or {}).get("aliases") or [z.replace("_", " ")])[0] for z, s in zones.items()}
        self.things = sorted(vocab.get("things") or {})
        self.rules = vocab.get("rules") or {}
        self.has_x = False
        self.scope: list = []
        self.single: list = []
        self.slots = sorted({s for k in (vocab.get("card_kinds") or {}).values() for s in (k.get("slots") or {})})
        self.abilities = False  # drawing an ability text (issue 28): its body may also copy a card
        # slots of kind quantity ("the worth of t", issue 28)
        self.worths = sorted({s for k in (vocab.get("card_kinds") or {}).values()
                              for s, spec in (k.get("slots") or {}).items() if (spec or {}).get("kind") == "quantity"})
        self.aliases = sorted(vocab.get("verb_aliases") or {})  # issue 28: "scrap" for trash

    def pick(self, seq):
        return self.rng.choice(list(seq))

    def chance(self, p: float) -> bool:
        return self.rng.random() < p

    # pieces
    def amount(self, many: bool = True) -> str:
        r = self.rng.random()
        if r < 0.35:
            return "1"
        if r < 0.5:
            return "a"
        if r < 0.65:
            return str(self.rng.randint(2, 3))
        if r < 0.75 and many:
            return f"up to {self.rng.randint(1, 3)}"
        if r < 0.82 and many:
            return "all"
        if r < 0.9 and self.has_x:
            return "x"
        return f"({self.quantity(simple=True, names=self.scope)})"

    def zone_ref(self, names=()) -> str:
        r = self.rng.random()
        if r < 0.15 and self.shared:
            return self.zone_word[self.pick(self.shared)]
        z = self.zone_word[self.pick(self.mine)]
        owners = ["your"] * 5 + ["opponent's", "another player's", "each player's", "any player's", "its owner's"]
        owners += ["left neighbour's", "right neighbour's"]  # issue 28
        owners += [f"{n}'s" for n in names]
        return f"{self.pick(owners)} {z}"

    def filters(self, names=()) -> str:
        out = []
        for _ in range(self.rng.choice([0, 0, 1, 1, 2])):
            if self.chance(0.3 if "n" in names else 0.08):  # issue 28: cards by name ("named n", "with the same name as t")
                if "n" in names and self.chance(0.6):
                    out.append("named n")
                else:
                    out.append("with the same name as " + self.pick(["this card"] + list(self.single)))
                continue
            r = self.rng.random()
            if r < 0.3 and self.icons:
                icons = self.rng.sample(self.icons, self.rng.choice([1, 1, 2]))
                out.append("with icon " + " or ".join(icons))
            elif r < 0.5:
                out.append(self.pick(["costing up to", "costing", "costing at least", "costing more than",
                                      "costing less than"]) + f" {self.rng.randint(0, 5)}")
            elif r < 0.6 and self.icons:
                out.append("not with icon " + self.pick(self.icons))
            elif r < 0.7:
                out.append("other than " + self.pick(["this card"] + list(names)))
            elif r < 0.8 and "i" in names or "i" in names and self.chance(0.3):
                out.append("matching i")
            elif r < 0.9:
                out.append(self.pick(["with", "without"]) + " " + self.pick(self.slots))
            else:
                out.append(f"costing up to ({self.quantity(simple=True)})")
        return " ".join(out)

    def cards(self, names=(), where: str | None = None, many: bool = True) -> str:
        """A card selector: "2 cards with icon action in your hand", "1 of your played cards", a name."""
        self.scope = list(names)
        r = self.rng.random()
        if r < 0.05 and "r" in names:
            return f"{self.pick(['1', 'up to 2', 'all'])} of r"
        if r < 0.15 and names:
            n = self.pick(names)
            return n if not self.chance(0.3) else f"{n} {self.filters(names)}".strip()
        if r < 0.2 and many and self.chance(0.3):  # h28b: "any number of cards in your hand"
            ref = where or f" in {self.zone_ref(names)}"
            return f"any number of cards {self.filters(names)}{ref}".replace("  ", " ")
        amt = self.amount(many)
        noun = "card" if amt in ("1", "a") else "cards"
        if r < 0.3 and self.single and self.chance(0.5):  # "a card costing up to (the cost of t)"
            return f"{amt} {noun} costing up to (the cost of {self.pick(self.single)} + 1) in {self.zone_ref(names)}"
        if r < 0.45 and self.things:
            amt = "1" if amt == "a" else amt
            thing = self.pick(self.things)
            owner = self.pick(["", "your ", "enemy ", "each player's "])
            return f"{amt} of {owner}{thing}s {self.filters(names)}".replace("  ", " ").strip() if self.chance(0.5) \
                else f"{amt} {thing}{'' if noun == 'card' else 's'} {self.filters(names)}".strip()
        ref = where or (f" in {self.zone_ref(names)}" if self.chance(0.7) else "")
        return f"{amt} {noun} {self.filters(names)}{ref}".replace("  ", " ")

    def counted(self, names=()) -> str:
        """A selector without an amount, for "number of …" and "per …"."""
        r = self.rng.random()
        if r < 0.1 and names:
            return self.pick(names)
        if r < 0.4 and self.things:
            return f"{self.pick(['', 'enemy ', 'your '])}{self.pick(self.things)} {self.filters(names)}".strip()
        return f"cards {self.filters(names)} in {self.zone_ref(names)}".replace("  ", " ")

    def goods_phrase(self, names=(), all_ok: bool = False) -> str:
        parts = []
        for _ in range(self.rng.choice([1, 1, 1, 2])):
            r = self.rng.random()
            if r < 0.1 and self.groups:
                parts.append(f"1 {self.pick(self.groups)}")
            elif r < 0.15 and "g" in names:
                parts.append(f"{self.rng.randint(1, 2)} g")
            elif r < 0.2 and "i" in names:
                parts.append("1 goods matching i")
            elif r < 0.3 and all_ok:
                parts.append(f"all {self.pick(self.goods)}")
            else:
                amt = self.pick(["1", "2", "3", "x" if self.has_x else "1", f"({self.quantity(simple=True)})"])
                per = f" per {self.pick(['', '', '2 '])}{self.counted(names)}" if self.chance(0.15) else ""
                parts.append(f"{amt} {self.pick(self.goods)}{per}")
        return ", ".join(parts)

    def quantity(self, simple: bool = False, names=()) -> str:
        if self.single and self.worths and self.chance(0.15):  # a card's worth (issue 28)
            return f"the {self.pick(self.worths)} of {self.pick(self.single)}"
        if self.chance(0.05):  # issue 28: distinct names
            return f"number of differently named {self.counted(() if simple else names)}"
        if self.single and self.chance(0.25):
            return f"the cost of {self.pick(self.single)}"
        r = self.rng.random()
        if r < 0.25:
            return str(self.rng.randint(0, 4))
        if r < 0.35 and self.has_x:
            return "x"
        if r < 0.55:
            return f"number of {self.counted(() if simple else names)}"
        if r < 0.6:
            return f"number of {self.pick(self.goods)}"
        if r < 0.7 and not simple:
            return f"number of cards{(' ' + self.filters()) if self.chance(0.3) else ''} " \
                   f"{self.pick(['you', 'an opponent', 'a player'])} {self.pick(['played', 'drew', 'discarded', 'gained', 'trashed'])} this turn"
        if r < 0.8 and self.single:
            return f"the cost of {self.pick(self.single)}"
        if simple:
            return f"number of cards in {self.zone_ref()}"
        return f"{self.quantity(True, names)} {self.pick(['+', '-', '*', '/'])} {self.quantity(True, names)}"

    def condition(self, names=()) -> str:
        if self.chance(0.12):  # issue 28: "A or B"; the second starts with an amount, as it must
            second = self.pick([f"{self.rng.randint(1, 3)} {self.pick(self.goods)}",
                                f"a card in {self.zone_ref(names)}",
                                f"number of cards in {self.zone_ref(names)} >= {self.rng.randint(0, 3)}"])
            return f"{self.condition(names)} or {second}"
        if self.chance(0.7):
            return f"{self.quantity(names=names)} {self.pick(['=', '!=', '<', '>', '<=', '>='])} {self.quantity(names=names)}"
        if self.chance(0.5):
            return f"{self.rng.randint(1, 3)} {self.pick(self.goods)}"
        return self.cards(names, many=False)

    def action(self, names=(), strict: bool = False) -> str:
        verbs = ["gain", "gain", "gain card", "spend", "lose", "draw", "discard", "give", "put", "move",
                 "trash", "remove", "play", "reveal", "look", "place"]
        verbs += ["pass", "name"] + self.aliases  # issue 28
        verb = self.pick(verbs)
        if self.abilities and self.chance(0.08):  # issue 28: "copy a card …" (drawn only for ability texts)
            where = f" in your {self.zone_word[self.rules.get('hand', 'hand')]}" if self.chance(0.3) else ""
            return f"copy {self.pick(['a', '1'])} card {self.filters(names)}{where}".replace("  ", " ")
        hand = f" from your {self.zone_word[self.rules.get('hand', 'hand')]}"
        if verb == "pass":  # moved when the acting clause around it ends
            to = self.pick(["left neighbour's", "right neighbour's", "opponent's", "your"])
            return f"pass {self.cards(names, where=hand)} to {to} {self.zone_word[self.pick(self.mine)]}"
        if verb == "name":
            names.append("n")
            return "name a card as n"
        if verb in self.aliases:
            return f"{verb} {self.cards(names, where=hand if self.chance(0.6) else None)}"
        if verb == "gain":
            return f"gain {self.goods_phrase(names)}"
        if verb == "gain card":
            into = f" into {self.zone_ref(names)}" if self.chance(0.2) else ""
            return f"gain {self.cards(names, where='')}{into}"
        if verb == "spend":
            return f"spend {self.goods_phrase(names)}"
        if verb == "lose":
            return f"lose {self.goods_phrase(names, all_ok=True)}"
        if verb == "draw":
            src = f" from {self.zone_ref(names)}" if self.chance(0.3) else ""
            amt = self.pick(["1", "2", "a", "up to 2", "x" if self.has_x else "2", "3"])
            bind = ""
            if self.chance(0.2):
                bind = f" as {self.pick(self.NAMES)}"
                names.append(bind[4:])
            return f"draw {amt} {'card' if amt in ('1', 'a') else 'cards'}{src}{bind}"
        if verb in ("discard", "trash", "remove", "play"):
            sel = self.cards(names, where=hand if self.chance(0.6) else None)
            return f"{verb} {sel}" + (" from the game" if verb == "remove" else "")
        if verb == "give":
            to = self.pick(["opponent"] + [n for n in names if n == "p"])
            return f"give {self.cards(names, where=hand)} to {to}"
        if verb in ("put", "move"):
            dest = self.pick(["into", "on top of", "at the bottom of", "onto"])
            return f"{verb} {self.cards(names, where=hand if self.chance(0.7) else None)} {dest} {self.zone_ref(names)}"
        if verb in ("reveal", "look"):
            n = self.rng.randint(1, 3)
            src = f" from {self.zone_ref(names)}" if self.chance(0.3) else ""
            head = "reveal" if verb == "reveal" else "look at"
            names.append("r")
            return f"{head} {n} card{'s' if n > 1 else ''}{src} as r"
        if names:
            return f"place {self.goods_phrase(names)} on {self.pick(names)}"
        return "gain 1 " + self.pick(self.goods)

    def simple(self, names) -> str:
        return self.action(names)

    def body(self, names, depth) -> str:
        if self.chance(0.6) or depth <= 0:
            return " and ".join(self.simple(names) for _ in range(self.rng.choice([1, 1, 2])))
        return "(" + "; ".join(self.statement(names, depth - 1) for _ in range(self.rng.choice([1, 2]))) + ")"

    def statement(self, names: list, depth: int = 2) -> str:
        r = self.rng.random()
        if depth <= 0 or r < 0.35:
            return self.action(names)
        if r < 0.5:
            n = self.pick(self.NAMES)
            what = self.rng.random()
            if what < 0.3:  # one card: "the cost of t", "t's hand", "other than t" read it
                sel = f"1 card{(' ' + self.filters(names)) if self.chance(0.3) else ''} in {self.zone_ref(names)}"
                self.single.append(n)
            elif what < 0.7:
                sel = self.cards(names, many=True)
            elif what < 0.8 and self.icons:
                sel, n = ("1 icon" if not self.single or self.chance(0.5) else f"1 icon of {self.pick(self.single)}"), "i"
            elif what < 0.9:
                sel, n = self.pick(["1 player", "1 opponent"]), "p"
            else:
                sel, n = f"1 {self.pick(self.groups or self.goods)}", "g"
            names.append(n)
            return f"choose {sel} as {n}"
        if r < 0.6:
            n = self.pick(self.NAMES)
            sel = self.cards(names) if self.chance(0.8) else "player"
            if sel == "player":
                n = "p"
            inner = names + [n]
            return f"for each {self.pick(['', 'of '])}{sel} as {n}: {self.body(inner, depth - 1)}".replace("  ", " ")
        if r < 0.7:
            other = f" otherwise: {self.body(names, depth - 1)}" if self.chance(0.4) else ""
            return f"if {self.condition(names)}: {self.body(names, depth - 1)}{other}"
        if r < 0.78:
            pay = self.pick([f"spend {self.goods_phrase(names)}", f"discard {self.cards(names, many=False)}",
                             f"trash {self.cards(names, many=False)}", "draw 2 cards", f"lose {self.goods_phrase(names)}",
                             "trash this card"])
            return f"{pay}: {self.body(names, depth - 1)}"
        if r < 0.85:
            k = self.rng.choice([2, 2, 3])
            count = "two" if k == 3 and self.chance(0.5) else "one"
            return f"choose {count}: " + "; or ".join(self.action(names) for _ in range(k))
        if r < 0.93:
            who = self.pick(["each opponent", "each other player", "each player", "the player to your left",
                             "the player to your right", "target opponent", "target player"])
            return f"{who}: {self.body(names, depth - 1)}"
        if r < 0.97:  # h28b: optional statements, durations, cost changes
            return self.h28b(names, depth)
        return f"until {self.condition(names)}: {self.body(names, depth - 1)}"

    def h28b(self, names: list, depth: int) -> str:
        """Issue 28 (h28b): "you may …", "at the start of your next turn: …", "at the end of this turn:
        …", "this turn, cards … cost N less" (run_case ends the turn and begins the player's next, so
        that durations run on both sides)."""
        r = self.rng.random()
        if r < 0.4:
            return f"you may {self.body(list(names), depth - 1)}"
        if r < 0.75:
            head = self.pick(["at the start of your next turn", "at the end of this turn"])
            return f"{head}: {self.body(list(names), depth - 1)}"
        what = self.pick(["cards", f"cards with icon {self.pick(self.icons)}" if self.icons else "cards",
                          f"{self.pick(self.things)}s" if self.things else "cards"])
        return f"this turn, {what} cost {self.rng.randint(1, 3)} less"

    def text(self) -> str:
        names: list = []
        out = []
        self.has_x = False
        self.single = []  # names bound to one card ("choose 1 card … as t")
        if self.chance(0.1):
            out.append(f"requires {self.condition()}")
        if self.chance(0.2):
            out.append(f"x is {self.quantity(simple=True)}" + (f" (min {self.rng.randint(0, 2)})" if self.chance(0.3) else ""))
            self.has_x = True
        for _ in range(self.rng.choice([1, 1, 2, 2, 3])):
            out.append(self.statement(names))
        return "; ".join(out)


    SUBJECTS = ("you", "an opponent", "a player", "another player")
    EVENTS = ("play", "gain", "trash", "draw", "discard", "put")

    def trigger(self) -> str:
        """A trigger slot's text: "whenever an opponent gains a card costing up to 3: …", "the first
        time each turn you trash this card: …", "at the end of each turn: …" (docs/language.md)."""
        self.has_x = False
        self.single = []
        r = self.rng.random()
        if r < 0.15:
            head = "at the " + self.pick(["start", "end"]) + " of " + self.pick(["your turn", "each turn", "each round"])
        else:
            subject = self.pick(self.SUBJECTS)
            verb = self.pick(self.EVENTS)
            if subject != "you":
                verb += "es" if verb.endswith("sh") else "s"
            r2 = self.rng.random()
            if r2 < 0.3:
                card = "this card"
            elif r2 < 0.5 and self.things:
                card = "a " + self.pick(self.things)
            else:
                card = ("a card " + self.filters()).strip()
            first = self.chance(0.25)
            head = (f"the first time each {self.pick(['turn', 'round'])} " if first
                    else self.pick(["when ", "whenever "])) + f"{subject} {verb} {card}"
        names: list = []
        body = "; ".join(self.statement(names, 1) for _ in range(self.rng.choice([1, 1, 2])))
        if " plays " in head and not head.endswith("this card") and self.chance(0.3):
            body = f"(you are unaffected by it; {body})"  # h28b: a reaction, heard before the card resolves
        elif not head.startswith("at ") and self.chance(0.4):  # h28b: what the event is about
            body = "(" + self.pick([f"they {self.action(list(names))}", "they may gain 1 " + self.pick(self.goods),
                              "you may put it into your " + self.zone_word[self.pick(self.mine)],
                              f"put it on top of {self.zone_ref()}", "they may trash it",
                              f"if number of cards costing up to {self.rng.randint(0, 4)} in your "
                              f"{self.zone_word[self.pick(self.mine)]} > 0: gain 1 {self.pick(self.goods)}"]) \
                + "; " + body + ")"
        return f"{head}: {body}"


    def ability(self) -> str:
        """An ability slot's text (issue 28): "once per turn: …", "once per round while …: …",
        "while …: (trash this card: …)", or a cost on its own ("spend 2 coin: …"); one or two of them."""
        self.has_x = False
        self.single = []
        self.abilities = True
        try:
            out = []
            for _ in range(self.rng.choice([1, 1, 2])):
                names: list = []
                r = self.rng.random()
                pay = self.pick([f"spend {self.goods_phrase(names)}", "trash this card",
                                 f"discard {self.cards(names, many=False)}", f"lose {self.goods_phrase(names)}"])
                if r < 0.35:
                    out.append(f"once per {self.pick(['turn', 'turn', 'round'])}: {self.body(names, 1)}")
                elif r < 0.6:
                    out.append(f"once per turn while {self.condition(names)}: {self.body(names, 1)}")
                elif r < 0.8:
                    out.append(f"while {self.condition(names)}: ({pay}: {self.body(names, 0)})")
                else:
                    out.append(f"{pay}: {self.body(names, 0)}")
            return "; ".join(out)
        finally:
            self.abilities = False


# --- states ----------------------------------------------------------------------------------------


def random_state(compiled, rng: random.Random, agent: str, seed: int):
    """A game of 2–3 players with random cards in every zone (no setup) and random Goods."""
    engine = engine_for(compiled)
    n = rng.choice([2, 2, 3])
    names = ["Ann", "Bob", "Cid"][:n]
    agents = {p: (FirstLegal() if agent == "first" else SeededRandom()) for p in range(n)}
    game = engine.new_game(compiled, names, seed=seed, setup=False, agents=agents)
    ids = sorted(compiled.cards)
    zones = compiled.vocab.get("zones") or {}
    signed = {k for k, s in (compiled.vocab.get("goods") or {}).items() if (s or {}).get("signed")}
    for key in sorted(game.zones, key=str):
        spec = zones.get(key[0]) or {}
        if spec.get("piles") == "card":  # a supply: a few of each card, some piles empty
            for cid in ids:
                for _ in range(rng.choice([0, 1, 2, 3])):
                    game.create(cid, key)
            continue
        for _ in range(rng.choice([0, 0, 1, 2, 3, 4, 5])):
            game.create(rng.choice(ids), key, owner=key[1])
    for p in game.players:
        for good in sorted(compiled.vocab.get("goods") or {}):
            p.goods[good] = rng.choice([0, 0, 1, 2, 3, 5]) - (rng.choice([0, 0, 2]) if good in signed else 0)
    if n == 3 and rng.random() < 0.15:  # a player who went out: no acting clause or owner names them
        game.players[2].out = True
    if rng.random() < 0.3:  # a turn begun, so "this turn" counts from a TurnStarted
        engine.begin_turn(game, rng.randrange(n))
    return engine, game


def picture(game, outcome_status: str) -> dict:
    """Everything a run can change, to compare: zones with order, where each card is, players'
    Goods, cards' Goods, owners, faces and props (GameState.snapshot), the typed events, the RNG
    (the same choices asked of a seeded agent, the same shuffles) and how the effect ended."""
    return {"status": outcome_status, "state": game.snapshot(), "where": dict(sorted(game.where.items())),
            "events": list(game.events), "rng": game.rng.getstate(),
            "uses": sorted(((k, v) for k, v in game.fired.items() if len(k) == 3), key=repr)}  # abilities' uses


@dataclass
class Case:
    game: str
    text: str
    seed: int
    agent: str
    player: int = 0
    card: int | None = None
    opponent: int | None = None
    trigger: str | None = None  # a trigger slot's text, on a card put where its slot listens
    use: int | None = None  # an ability slot's text: the ability used, twice in a row (issue 28)


TRIGGER_CARD = "differential_trigger"
ABILITY_SLOT = "ability"  # the slot an ability text is used from (its uses are kept under this name)
# the share of drawn texts that are an ability slot's text (issue 28)
ABILITY_SHARE = 0.12


def trigger_slot(compiled) -> tuple[str, str, tuple[str, ...]] | None:
    """(card kind, slot, the zones it listens in) of the game's first trigger slot, or None."""
    model = model_of(compiled.vocab)
    for kind in model.kinds.values():
        for slot in kind.slots:
            if slot.kind == "trigger":
                return kind.key, slot.key, slot.listens_in or model.rules.in_play
    return None


def with_trigger_card(game, compiled, text: str, fn, rng: random.Random) -> None:
    """Give ``game`` a card whose trigger slot holds ``text`` (compiled as ``fn``), in a zone where
    the slot listens, of a random player: both sides then hear the effect's events through it."""
    kind, slot, zones = trigger_slot(compiled)
    game.cards = {**game.cards, TRIGGER_CARD: {"id": TRIGGER_CARD, "kind": kind, "name": "Trigger card",
                                               "slots": {slot: fn}, "texts": {slot: text}, "faces": {}}}
    zone = game.zone_key(rng.choice(sorted(zones)), rng.randrange(len(game.players)))
    game.create(TRIGGER_CARD, zone)


@dataclass
class Tally:
    drawn: int = 0
    accepted: int = 0
    runs: int = 0
    agree: int = 0
    out_of_scope: int = 0
    changed: int = 0  # runs whose state or events the effect changed (the comparison is not vacuous)
    triggers: int = 0  # accepted texts that ran beside a random trigger card
    fired: int = 0     # runs in which a trigger card's slot fired on the compiled side
    abilities: int = 0  # accepted ability texts (issue 28), each used twice in a row per run
    crashes: list = field(default_factory=list)  # (case, status): an accepted text that raised in play
    disagreements: list = field(default_factory=list)  # (case, class, compiled picture, reference picture)


def differ(a: dict, b: dict) -> str:
    """Which part of two pictures differs first (a disagreement's class)."""
    for key in ("status", "events", "state", "where", "rng", "uses"):  # "before" is the starting state
        if a[key] != b[key]:
            return key
    return ""


def explained(game: str, text: str):
    """(compiled function, IR) of a text that checks (an ability slot's text when it starts with one)."""
    ex = explain_effect(text, vocabulary(game))
    assert not ex.diags.errors, (text, [d.message for d in ex.diags.errors])
    return effect_function(ex), ex.ir


def run_case(case: Case, fn=None, effect=None) -> tuple[dict, dict] | None:
    """The compiled code's picture and the interpreter's, on two copies of one random state; None
    when the interpreter declares the text out of scope. With a trigger, the compiled side hears
    events through the trigger's compiled function and the reference side through the interpreter."""
    compiled = compiled_game(case.game)
    if fn is None or effect is None:
        fn, effect = explained(case.game, case.text)
    rng = random.Random(case.seed)
    engine, base = random_state(compiled, rng, case.agent, case.seed)
    if case.trigger is not None:
        with_trigger_card(base, compiled, case.trigger, explained(case.game, case.trigger)[0], rng)
    card = case.card
    if card == -1:  # "this card": a card of the player's, wherever it lies (in play, or already trashed)
        mine = sorted(u for u, c in base.instances.items() if c.owner == case.player) or [None]
        card = rng.choice(mine)
    fast, ref = base.copy(), base.copy()
    ref.slot_runner = reference_slot_runner(vocabulary(case.game))
    before = base.snapshot()
    # an ability is used twice in a row, so that its limits are compared too (issue 28): a "once per
    # turn" ability's second use is unmet on both sides, a cost that trashed the card is not paid again
    times = 1 if case.use is None else 2
    bindings = None if case.use is None else {ABILITY_USE: (ABILITY_SLOT, case.use, None)}
    use = None if case.use is None else (ABILITY_SLOT, case.use)
    try:
        status = "/".join(engine.run(fast, fn, case.player, card, case.opponent, bindings=bindings).status
                          for _ in range(times))
    except Exception as exc:  # noqa: BLE001 - a crash is an outcome: the checker accepted the text
        status = f"crash: {type(exc).__name__}: {exc}"
    try:
        res = "/".join(interpret(ref, effect, case.player, card, case.opponent, use=use).status
                       for _ in range(times))
    except OutOfScope:
        return None
    except Exception as exc:  # noqa: BLE001
        res = f"crash: {type(exc).__name__}: {exc}"
    if fast.pending or ref.pending or fast.cost_changes or ref.cost_changes:
        # h28b: durations and cost changes act later: end the turn and begin the player's next one on both
        # sides, so that what was set aside runs (or the cost change ends) and is compared too
        for side in (fast, ref):
            try:
                engine.end_turn(side)
                engine.begin_turn(side, case.player)
            except OutOfScope:
                return None
            except Exception as exc:  # noqa: BLE001
                status = res = f"crash: {type(exc).__name__}: {exc}"
    a, b = picture(fast, status), picture(ref, res)
    b["before"] = before
    b["fired"] = ref.slot_runner.fired
    return a, b


# the share of accepted texts that run beside a random trigger card (the rest run with none, so that
# the effect's own behaviour is compared without a trigger's interference)
TRIGGER_SHARE = 0.35


def accepted_trigger(gen: TextGen, game: str, tries: int = 20) -> str | None:
    """A random trigger text the checker accepts (None after ``tries`` refused ones)."""
    for _ in range(tries):
        text = gen.trigger()
        ex = explain_effect(text, vocabulary(game))
        if not ex.diags.errors and ex.ir is not None:
            return text
    return None


def explore(budget: int, seed: int, games=tuple(GAMES), runs_per_text: int = 2, tally: Tally | None = None) -> Tally:
    """Draw texts until ``budget`` of them are accepted; run each ``runs_per_text`` times (random
    states, both agents) through both sides."""
    tally = tally or Tally()
    rng = random.Random(seed)
    gens = {g: TextGen(compiled_game(g).vocab, random.Random(rng.random())) for g in games}
    while tally.accepted < budget:
        game = rng.choice(games)
        ability = rng.random() < ABILITY_SHARE
        text = gens[game].ability() if ability else gens[game].text()
        tally.drawn += 1
        ex = explain_effect(text, vocabulary(game), kind="ability" if ability else None)
        if ex.diags.errors or ex.ir is None:
            continue
        tally.accepted += 1
        abilities = [st.index for st in ex.ir.statements if isinstance(st, ir.Ability)]
        tally.abilities += bool(abilities)
        fn = effect_function(ex)
        trigger = None
        if trigger_slot(compiled_game(game)) is not None and rng.random() < TRIGGER_SHARE:
            trigger = accepted_trigger(gens[game], game)
            tally.triggers += trigger is not None
        for k in range(runs_per_text):
            s = rng.randrange(1 << 30)
            case = Case(game, text, s, "first" if k % 2 == 0 else "random", player=rng.randrange(2),
                        card=rng.choice([None, -1]), opponent=rng.choice([None, None, 1]), trigger=trigger,
                        use=rng.choice(abilities) if abilities else None)
            if case.opponent == case.player:
                case.opponent = None
            got = run_case(case, fn, ex.ir)
            tally.runs += 1
            if got is None:
                tally.out_of_scope += 1
                continue
            a, b = got
            if a["status"].startswith("crash") or b["status"].startswith("crash"):
                tally.crashes.append((case, a["status"], b["status"]))
            if a["events"] or a["state"] != b.get("before"):
                tally.changed += 1
            tally.fired += b["fired"] > 0
            kind = differ(a, b)
            if kind:
                tally.disagreements.append((case, kind, a, b))
            else:
                tally.agree += 1
    return tally
