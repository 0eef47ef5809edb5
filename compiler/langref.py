"""The language reference, generated from the code: the grammar and the verb registry.

``docs/language.md`` is written by ``cardwright docs`` from three sources only:

- ``CONSTRUCTS`` below: one entry per construct of ``grammar/effects.lark``, each naming the
  grammar rules it documents and an example effect with the game it is checked against;
- the verb registry (``runtime.verbs.REGISTRY``): every verb of every engine with its signature,
  English template, docstring and example;
- ``grammar/effects.lark`` itself, reproduced as an appendix.

``cardwright docs --check`` regenerates in memory and fails when the file differs (like
``compile --check``). A grammar rule that no construct documents is reported as a problem, and so is
an example that does not compile against its game: the reference cannot silently fall behind.
Nothing here prints; cli.py does.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from runtime.context import MAX_HELD
from runtime.model import GameModel
from runtime.refs import CARD, GOOD, ICON, PHASE, PLAYER, THING, VAR, ZONE
from runtime.verbs import (ALL, AMOUNTS, FILTERS, OWNERS, REFS, REGISTRY, UP_TO, Verb, amounts_for, honoured,
                           verbs_for)

from .build import load_game
from .diagnostics import Diagnostics
from .explain import explain_effect
from .grammar import _lark
from .parser import MAX_LITERAL
from .resources import BUNDLED_DATA, GRAMMAR_DIR, RESOURCE_ROOT

# The mini fixture game (tests/fixtures/mini) is the home of the core constructs' examples: it is
# small, uses only core verbs and never changes with the real games. Absent from an installed wheel.
FIXTURE_DATA = RESOURCE_ROOT / "tests" / "fixtures" / "mini"
TRUTH_DATA = RESOURCE_ROOT / "tests" / "fixtures" / "truth"  # a small deck-builder for the newer constructs
# the language corpus's games (tests/language/games): Corsairs holds ability and quantity slots (issue 28)
CORPUS_DATA = RESOURCE_ROOT / "tests" / "language" / "games"

_CATEGORY_WORDS = {GOOD: "good", THING: "thing", ZONE: "zone", PLAYER: "player", PHASE: "phase",
                   ICON: "icon", VAR: "chosen name", CARD: "card"}


# --- the constructs of the grammar -------------------------------------------------------------


@dataclass(frozen=True)
class Construct:
    section: str
    title: str
    syntax: str
    text: str
    examples: tuple[tuple[str, str], ...]  # (effect text, game it compiles against)
    rules: tuple[str, ...]  # grammar rule names and aliases this construct documents


def _c(section, title, syntax, text, examples, rules) -> Construct:
    return Construct(section, title, syntax, text, tuple(examples), tuple(rules))


CONSTRUCTS: tuple[Construct, ...] = (
    _c("Statements", "Statements in order", "STATEMENT; STATEMENT; …",
       "An effect is one or more statements separated by `;`, run in order. A final `;` is allowed. "
       "Every statement does as much as it can (\"draw 2\" from a pile of 1 draws 1), except the "
       "left side of a cost and `requires`, which are all-or-nothing.",
       [("gain 1 fuel; draw 1 card", "mini")], ["start", "stmt"]),
    _c("Statements", "Action", "VERB [OBJECT, OBJECT…] [PHRASE…]",
       "An action is a verb (any word: verbs are not keywords, see *Verbs* below) followed by its "
       "objects, separated by commas when the verb takes several, and its prepositional phrases. The "
       "checker matches the action against the verb's signature. A verb that says so (`draw`, `reveal`, "
       "`look at`) names the cards it acted on with `as NAME`; a revealed set keeps only the cards still "
       "on its pile, so after some are moved it is the rest.",
       [("gain 2 fuel", "mini"), ("spend 1 gun, 1 worker: gain 1 vp", "mini"),
        ("reveal 3 cards from your deck as r; choose 1 of r as k; put k into your hand; put r into your discard pile",
         "truth"), ("draw 2 cards as d; if number of d with icon action >= 1: gain 1 coin", "truth")],
       ["action", "objects"]),
    _c("Statements", "Prepositional phrases", "from|to|onto|into|on|at|on top of|at the bottom of SELECTOR · instead of SELECTOR (a game's own verbs) · "
       "until PHASE",
       "Phrases give an action its source, destination, target or duration. Which phrases a verb takes, "
       "and what they may name, is part of the verb's signature (see *Verbs*); `until` names a phase of "
       "the game.",
       [("draw 1 card from opponent's hand", "mini"), ("give 1 card from your hand to opponent", "mini"),
        ("discard 1 card from your hand", "mini"), ("put 1 card from your hand on top of your deck", "truth"),
        ("put 1 card from your hand at the bottom of your deck", "truth")],
       ["phrase", "prep", "instead_of", "until", "on_top_of", "at_bottom_of"]),
    _c("Statements", "Cost", "ACTION: STATEMENT [and STATEMENT…]",
       "An action before `:` is a cost: it must be done in full, or nothing of the statement happens "
       "(the verb is called *strict* and refuses before changing anything) — and nothing of the "
       "statements after it: the effect is refused from there on (what came before stays done; the "
       "English says so).",
       [("spend 1 gun: gain 1 vp", "mini")], ["cost", "body", "bstmt"]),
    _c("Statements", "Requirement", "requires CONDITION",
       "All-or-nothing: when the condition fails, nothing of the effect happens. It must come before "
       "the effect's actions.",
       [("requires 1 card in your hand; gain 1 vp", "mini"),
        ("requires number of cards in your hand > 0; draw 1 card", "mini")], ["requires"]),
    _c("Statements", "Defining x", "x is [the] QUANTITY [(min N)]",
       "Names a quantity `x` for the rest of the effect. With `(min N)` the effect happens only when x "
       "is at least N (a guard, so it comes before the actions).",
       [("x is number of cards in your hand; gain x fuel", "mini"),
        ("x is the number of locations in your state (min 1); gain x vp", "mini")], ["let", "min_clause"]),
    _c("Statements", "Choosing", "choose SELECTOR as NAME",
       "The acting player chooses; the choice is bound to NAME for the statements after it (as an "
       "object, a phrase target, an owner `NAME's`, or — for a chosen icon — a `matching NAME` filter). "
       "With fewer things to choose than asked, NAME holds what there is, possibly nothing: the "
       "statements after it still run, and one that uses NAME does as much as it can with it.",
       [("choose 1 of your locations as target; place 1 fuel on target", "mini")], ["choose"]),
    _c("Statements", "Repetition", "for each [of] SELECTOR [as NAME]: STATEMENT [and STATEMENT…]",
       "Runs the body once per selected thing, bound to NAME (or `it` without `as`).",
       [("for each of your locations as l: gain 1 fuel", "mini"),
        ("for each location in your state: gain 1 fuel", "mini")], ["foreach"]),
    _c("Statements", "Condition", "if CONDITION: STATEMENT [and STATEMENT…]",
       "Runs the body only when the condition holds; otherwise the statement does nothing and the "
       "effect goes on. A body is simple statements joined by `and`, or a parenthesised block (see "
       "*Nested bodies*).",
       [("if number of cards in your hand >= 2: discard 1 card from your hand and gain 1 vp", "mini")],
       ["if_"]),
    _c("Statements", "Otherwise", "if CONDITION: BODY otherwise: BODY",
       "The second body runs when the condition does not hold.",
       [("if number of cards in your hand >= 3: gain 1 coin otherwise: draw 1 card", "truth")],
       ["otherwise"]),
    _c("Statements", "Nested bodies", "( STATEMENT; STATEMENT… )",
       "A body in parentheses holds any statements separated by `;`, nested `if`s, loops and menus "
       "included. Without parentheses a body is simple statements joined by `and`.",
       [("if number of cards in your hand >= 3: (draw 1 card; if number of cards in your hand >= 5: gain 1 coin)",
         "truth")], ["block"]),
    _c("Statements", "Menu", "choose one|two|three: BODY; or BODY…",
       "The player picks that many distinct options (offered with their English labels); the chosen "
       "options run in the order printed.",
       [("choose one: draw 2 cards; or gain 2 coin", "truth"),
        ("choose two: draw 1 card; or gain 1 coin; or gain 1 ore", "truth")], ["menu", "menu_count"]),
    _c("Statements", "Acting player", "each opponent: BODY · each other player: BODY · each player: BODY · "
       "the player to your left|right: BODY",
       "The body runs once for each such player, in seat order starting after you (`each player` starts "
       "with you); inside it, `you`, `your` and `opponent` are that player's, and that player's agent makes "
       "the choices. Each player's part is their own: a cost one of them cannot pay ends their part "
       "only, and the next player acts.",
       [("each opponent: discard 1 card from your hand", "truth"), ("each player: draw 1 card", "truth"),
        ("the player to your left: gain 1 coin", "truth")], ["acting", "each_acting", "neighbour_acting"]),
    _c("Statements", "Repetition", "until CONDITION: BODY",
       "The body runs again and again until the condition holds; it stops when a round changes nothing "
       "(and after 100 rounds at most).",
       [("until number of cards in your hand >= 4: draw 1 card", "truth")], ["until_"]),
    _c("Statements", "Triggers", "when|whenever SUBJECT VERB CARD: BODY · at the start|end of your|each "
       "turn|round: BODY · the first time each turn|round SUBJECT VERB CARD: BODY",
       "Only in a slot the game declares `kind: trigger` (with `listens_in: [zones]`, or the game's "
       "`rules.in_play`): the card listens while it sits in one of those zones. SUBJECT is `you`, "
       "`an opponent`, `a player` or `another player`; VERB is `play`, `gain`, `trash`, `draw`, `discard` "
       "or `put` (any tense); CARD is `this card` or a card selector with filters. Events are dispatched "
       "after their change, the acting player's cards first, then the others in seat order; a trigger "
       "never re-enters itself; \"the first time\" is kept per card.",
       [("when you play this card: gain 1 vp", "truth"),
        ("whenever an opponent plays a card with icon action: draw 1 card", "truth"),
        ("at the start of your turn: gain 1 ore", "truth"), ("at the end of each round: gain 1 vp", "truth"),
        ("the first time each turn you trash a card: gain 1 coin", "truth")],
       ["trigger", "when_", "at_time", "first_time", "when", "subject", "subject_you", "subject_a",
        "subject_another", "period_owner"]),
    # issue 28: abilities as moves, a card's worth
    _c("Statements", "Abilities", "once per turn|round [while CONDITION]: BODY · while CONDITION: (COST: BODY) · "
       "COST: BODY",
       "Only in a slot the game declares `kind: ability` (with `usable_in: [zones]`, or the game's "
       "`rules.in_play`): abilities the card's player may use when they choose. The game flow offers each "
       "usable ability as a move in the phases that list the slot under `abilities:`, beside the actions, "
       "so a player at the terminal, `simulate` and every bot use them; a scenario step `{card: …, slot: …, "
       "use: N}` uses the Nth ability of the slot (the first by default). Each ability says how often it may "
       "be used: `once per turn` (or `round`) — kept per card, so a second use in the same turn is not a "
       "legal move and it is legal again next turn —, or a cost first in its body (\"trash this card: …\", "
       "\"spend 2 trade: …\"), paid in full or nothing happens, and offered only when it can be paid. "
       "`while CONDITION` makes it usable only while the condition holds (an ally ability: \"while a card "
       "with icon horde other than this card in your play area\"). A base in a zone that stays in play "
       "offers its abilities again on every later turn. An ability without a limit is E310 (it could be "
       "used for ever).",
       [("once per turn: gain 2 combat", "corsairs"),
        ("once per turn while a card with icon horde other than this card in your play area: gain 2 combat",
         "corsairs"),
        ("trash this card: gain 3 trade", "corsairs"),
        ("while a card with icon guild other than this card in your play area: (trash this card: draw 2 cards)",
         "corsairs")],
       ["ability", "once_ability", "while_ability", "ability_while"]),
    _c("Selectors", "Amounts", "N · x · (EXPRESSION) · up to N · all · a/an",
       "How many: a number, `x`, a parenthesised expression, `up to N` (the chooser picks 0 to N), "
       f"`all`, or an article for one. A number is at most {MAX_LITERAL} (a larger one is E320); an amount "
       f"computed in play means at most every card of the game, or {MAX_HELD:,} of one Good.",
       [("draw up to 2 cards", "mini"), ("discard all cards from your hand", "mini"), ("draw a card", "mini"),
        ("draw (3 - number of cards in your hand) cards", "mini")],
       ["amount", "num", "x", "up_to", "all", "one", "article"]),
    _c("Selectors", "Selector", "[AMOUNT] [OWNER] NOUN [FILTERS] [of REF] [in REF] [per REF]",
       "A selector names Goods, cards, things, zones or players by the game's vocabulary (plurals are "
       "derived). `N of …` picks among things: \"1 of your locations\".",
       [("for each location in your state: gain 1 fuel", "mini"),
        ("choose 1 of your locations as target; place 1 fuel on target", "mini")],
       ["selector", "selector_of", "small_amount", "words", "place"]),
    _c("Selectors", "Owners", "your · enemy · opponent's · another player's · any player's · each player's · "
       "its owner's · NAME's",
       "Whose things a selector names. `NAME's` refers to a name bound by `choose` or `for each`.",
       [("draw 2 cards from another player's hand", "mini"),
        ("choose 1 of your locations as target; for each card in target's hand: gain 1 vp", "mini")],
       ["owner", "your", "enemy", "possessive", "qualifier"]),
    _c("Selectors", "Filters", "with icon A or B · with FIELD · without FIELD · matching NAME",
       "Narrow a selection by the cards' icons, by whether a field or effect slot is present, or by "
       "carrying (cards) or matching (Goods) an icon chosen earlier.",
       [("for each of your locations with icon green: gain 1 fuel", "mini"),
        ("for each of your locations without production: gain 1 vp", "mini"),
        ("choose 1 icon as i; for each of your locations matching i: gain 1 fuel", "mini")],
       ["filters", "filter", "with_icon", "with_", "without", "matching"]),
    _c("Selectors", "Number fields", "costing BOUND · with FIELD BOUND · BOUND: N · exactly Q · up to Q · "
       "at least Q (after costing) · more than Q · less than Q · N or more · N or less",
       "Compare a numeric card field (declared `int` in a card kind; `costing` reads `cost`). A card "
       "without the field never matches. Q may be a parenthesised expression or `the FIELD of NAME`; in "
       "arithmetic, `the FIELD of NAME` of a card that has no such field counts 0.",
       [("discard 1 card costing up to 2 from your hand", "truth"),
        ("choose 1 card in your hand as t; discard 1 card costing more than (the cost of t) from your hand", "truth")],
       ["costing", "costing_at_least", "with_field", "bound", "bound_eq", "bound_exactly", "bound_le", "bound_or_less", "bound_ge", "bound_gt",
        "bound_lt", "bare_value", "bound_value", "field_of"]),
    _c("Selectors", "Negative filters", "other than NAME · not FILTER",
       "`other than` leaves out a card by id, this card, or a chosen card; `not` inverts a filter.",
       [("discard 1 card other than this card from your hand", "truth"),
        ("discard 1 card not with icon action from your hand", "truth")], ["other_than", "not_"]),
    _c("Selectors", "References: of, in, per", "of REF · in REF · per REF [FILTERS] [in REF]",
       "`in` names the zone to look in; `of` names what a thing belongs to; `per` multiplies the amount "
       "by how many such things exist.",
       [("gain 1 vp per location in your state", "mini"),
        ("gain 1 fuel per production location in your state", "mini")],
       ["ref", "of_clause", "per"]),
    _c("Quantities and conditions", "Quantities", "N · x · Q + Q · Q - Q · Q * Q · Q / Q · (Q) · "
       "number of SELECTOR · number of SELECTOR SUBJECT VERB this turn|round · the FIELD of NAME",
       "Arithmetic over numbers, `x` and counts of things. Division rounds down (dividing by zero gives 0); "
       "`per N …` counts whole Ns.",
       [("gain (2 * number of locations in your state + 1) fuel", "mini"), ("x is 2; gain x vp", "mini"),
        ("gain (number of cards in your hand / 2) coin", "truth"), ("gain 1 vp per 2 cards in your hand", "truth"),
        ("if number of cards with icon action you played this turn >= 2: gain 1 coin", "truth")],
       ["quantity", "sum", "product", "atom", "add", "sub", "mul", "div", "count", "history"]),
    _c("Quantities and conditions", "Conditions", "QUANTITY (= | != | < | > | <= | >=) QUANTITY · SELECTOR",
       "A comparison, or a selector meaning \"at least that many exist\".",
       [("if number of cards in your hand < 3: draw 1 card", "mini"), ("requires 2 fuel; gain 1 vp", "mini")],
       ["condition", "compare", "exists"]),
    # issue 28: a card's worth (a quantity slot)
    _c("Quantities and conditions", "A card's worth", "the SLOT of NAME",
       "A slot the game declares `kind: quantity` holds a quantity (\"number of bases in your play area\"), "
       "worked out when it is read: `the SLOT of NAME` runs the card's slot for the card's owner (\"you\" in "
       "it is whose card it is, whoever reads it), with the card as `this card` (a card without that slot counts 0; a worth that needs itself is refused). The "
       "game flow's final scoring reads it like a field: \"for each base in your play area as b: gain (the "
       "worth of b) vp\".",
       [("for each base in your play area as b: gain (the worth of b) vp", "corsairs")], []),
    # --- issue 28: players by position and by choice, cards by name, printed wording ---------------
    _c("Statements", "One chosen player", "target opponent: BODY · target player: BODY",
       "The acting player chooses one opponent (nobody is asked when there is one) and that opponent runs "
       "the body as its acting player: inside it `you` and `your` are theirs. The chosen opponent is the "
       "effect's opponent, so `opponent's …` later in the effect is the same player. `target player` "
       "offers every player still in, you first: you may choose yourself.",
       [("target opponent: discard 1 card from your hand", "truth"), ("target player: draw 2 cards", "truth"),
        ("target opponent: discard 1 card from your hand; gain 1 coin per card in opponent's hand", "truth")],
       ["target_acting"]),
    _c("Selectors", "Neighbours", "left neighbour's ZONE · right neighbour's ZONE",
       "Whose by seat: your left neighbour is the next player in turn order still in the game, your right "
       "neighbour the previous one (with two players they are the same player). To have a neighbour act, "
       "write `the player to your left: …` (see *Acting player*).",
       [("gain 1 coin per card in left neighbour's tableau", "truth"),
        ("each player: gain 1 vp per card with icon action in right neighbour's tableau", "truth")], []),
    _c("Statements", "Passing cards, everyone at once", "each player: pass CARDS from your ZONE to left|right "
       "neighbour's ZONE",
       "`pass` moves cards of yours into another zone. Inside an acting clause every player chooses first "
       "(in seat order) and the passed cards move together when the outermost clause ends, so a card passed "
       "to a player is never passed on by them in the same clause; a passed card that its passer's own text "
       "moved elsewhere meanwhile stays there. Outside an acting clause the cards move at once.",
       [("each player: pass 1 card from your hand to left neighbour's hand", "truth"),
        ("each player: pass up to 2 cards from your hand to right neighbour's hand", "truth")], []),
    _c("Selectors", "Cards by name", "name a card as NAME · CARDS named NAME · CARDS with the same name as NAME · "
       "number of differently named CARDS",
       "`name a card as n` has the acting player name one card name of the game (every name its cards "
       "print, offered in alphabetical order: a bot picks among them). `named n` keeps cards printing that "
       "name; `with the same name as t` keeps cards with the name of a chosen card, or of `this card` (a name "
       "holding several cards means any of their names). `number of differently named …` counts the "
       "different names among the cards selected.",
       [("name a card as n; reveal 1 card from your deck as r; if r named n: put r into your hand", "truth"),
        ("gain 1 vp per card with the same name as this card in your tableau", "truth"),
        ("choose 1 card in your hand as t; discard all cards with the same name as t from your hand", "truth"),
        ("x is number of differently named cards in your tableau; gain x vp", "truth")],
       ["named", "same_name", "distinct_names"]),
    _c("Quantities and conditions", "Either condition", "CONDITION or CONDITION [or CONDITION…]",
       "Holds when any of the conditions holds (tested in order). The second and later conditions start "
       "with an amount, an article, `number of`, `the` or an owner (`or a card with icon action in your "
       "hand`, `or 2 coin`): after a bare noun, `or` continues an icon list (`with icon a or b`).",
       [("if 3 coin or a card with icon action in your hand: gain 1 vp", "truth"),
        ("requires 2 coin or 1 ore; gain 1 vp", "truth")], ["either", "cond_one"]),
    _c("Statements", "Verb aliases", "a word of the game's own for a verb (game.yaml `verb_aliases`)",
       "A game prints its own word for a verb by declaring `verb_aliases: {scrap: trash}` in game.yaml: "
       "texts may write `scrap 1 card from your hand`, which is `trash` in every respect, and the English "
       "reads the word as written. An alias must be a new word, and name a verb of the game's engine.",
       [("scrap 1 card from your hand", "truth"), ("scrap this card: gain 2 coin", "truth")], []),
    _c("Selectors", "Goods with an underscore", "a key such as track_tile is written track tile",
       "A Good (zone, thing) whose key has an underscore is written with spaces in effect text (`gain 2 "
       "track tile`); the key itself (`track_tile`) is an unknown name, with the spaced form as its hint. "
       "The English prints the Good's `name:` (\"Gain 2 Track tiles\").",
       [("gain 2 track tile", "age_of_steam")], []),
    # --- h28b (issue 28): optional statements, any number, the event's card and player, durations,
    # cost changes
    _c("Statements", "Optional statements", "you may BODY · they may BODY",
       "The acting player decides whether the body happens: they are asked yes or no (yes is offered "
       "first) before anything of it is done, and no does nothing. `you may` covers the whole body after "
       "it (everything joined by `and`); it may stand at the start of an effect or of any body (\"when …: "
       "you may put it on top of your deck\"). Names chosen inside it end with it, since it may not run. "
       "Not the same as a menu with a do-nothing option: the English says \"you may\", as printed. A "
       "parenthesised body whose statements have heads of their own (`if …`, `for each …`, another `you "
       "may`) reads \"You may choose to do all of this: …\", so that the English says what the choice covers.",
       [("you may trash a card from your hand", "truth"),
        ("you may (discard 1 card from your hand: gain 2 coin)", "truth"),
        ("whenever you gain a card: you may put it on top of your deck", "truth")],
       ["optional", "may_body", "they_may_body", "event_acting_may"]),
    _c("Selectors", "Any number", "any number of NOUN …",
       "The chooser picks how many, from none to every such thing there is: \"discard any number of cards "
       "from your hand\". Only where the verb picks among things that exist (discard, trash, put, move, "
       "give, play, gain cards, `choose`, `for each`), so the choice is bounded by what is there; `draw` "
       "counts cards off a pile and refuses it (write `up to N`).",
       [("discard any number of cards from your hand; gain 1 coin per card in your discard pile", "truth"),
        ("choose any number of cards in your hand as c; put c on top of your deck", "truth")],
       ["any_number"]),
    _c("Statements", "What an event is about: it, they", "(in a trigger's body) … it … · they BODY",
       "In the body of a card-event trigger (`when`/`whenever`/`the first time` … a card), `it` is the "
       "event's card — wherever it is now (\"whenever you gain a card: you may put it on top of your "
       "deck\") — and `they BODY` runs the body as the player who did it (\"when an opponent trashes a "
       "card: they gain 1 coin\"), like `each opponent: …` for that one player. A turn's `at the start|end "
       "of … turn` trigger has a player (the turn's) but no card; a round's has neither: `it` or `they` "
       "there is an error (E201). A card event's trigger may end its head with a comma, as cards print it: "
       "\"whenever you gain a card, you may put it onto your deck\".",
       [("whenever an opponent trashes a card: they gain 1 coin", "truth"),
        ("when an opponent gains a card: they may trash it", "truth"),
        ("whenever you gain a card, you may put it onto your deck", "truth")],
       ["event_acting", "they_body", "trigger_sep"]),
    _c("Statements", "Durations", "at the start of your next turn: BODY · at the end of this turn: BODY",
       "Written on the card itself (any slot, not only a trigger slot): the body is set aside for the "
       "acting player, with this card and every name chosen so far, and runs once at that moment — the "
       "start of that player's next turn (after the turn-start triggers), or the end of the turn under way "
       "(before the turn-end triggers). Each run of the text sets one aside: a card played three times "
       "draws three times at the start of the next turn. It runs wherever the card is by then.",
       [("gain 2 coin; at the start of your next turn: draw 2 cards", "truth"),
        ("at the end of this turn: trash this card", "truth")],
       ["delayed", "delayed_next", "delayed_this"]),
    _c("Statements", "Cost changes", "this turn, SELECTOR cost N less",
       "Until this turn ends, every card the selector names (matched as printed, wherever it lies) costs "
       "N less, never below 0: `costing …` filters and `the cost of NAME` read the lowered cost, so a "
       "flow's buying action honours it. Several changes add up. The game's cards need a `cost: int` field.",
       [("this turn, cards cost 1 less", "truth"), ("this turn, cards with icon action cost 2 less", "truth")],
       ["cost_change"]),
    _c("Statements", "A card's own cost", "this costs N less per REF [FILTERS] [in REF]",
       "The whole text of a slot the game declares `kind: cost` (e.g. `slots: {discount: {kind: cost}}`): "
       "whenever the card's cost is read — `costing …` filters, `the cost of NAME`, a flow's buying — it is "
       "N less per such thing counted for the player reading it (\"your\" is theirs), never below 0; `per "
       "2 …` counts whole pairs. Its filters cannot compare numbers (they could be costs: E306). Anywhere "
       "else it is an error (E310).",
       [("this costs 1 less per card with icon action in your play area", "truth")],
       ["own_cost"]),
    _c("Statements", "Reactions and immunity", "(in a trigger's body) you are unaffected by it",
       "In the body of a trigger on another player's card being played (\"whenever an opponent plays a card "
       "with icon attack: …\"), `you are unaffected by it` makes that trigger a reaction: it is heard as "
       "the card is put into play, before its effect resolves (a card in the hand hears it when the slot "
       "listens there), and while that effect resolves it passes you by: its acting-player clauses (`each "
       "opponent: …`, `each other player: …`, `each player: …`, the player to the left or right, `they …`) "
       "skip you, and its owners (`opponent's hand`, `enemy …`, `any player's …`) and its opponent never "
       "name you (a statement left with no one to act on does nothing). Anywhere else it is an error (E201).",
       [("whenever an opponent plays a card with icon action: you are unaffected by it", "truth"),
        ("whenever an opponent plays a card with icon action: (you are unaffected by it; draw 1 card)", "truth")],
       ["immune", "immune_body"]),
    _c("Statements", "An extra turn", "after this turn, take an extra turn",
       "The acting player is owed a turn right after the one under way; a game flow (game.yaml `flow:`) "
       "gives it, then the round goes on where it would have. Never two extra turns in a row: one earned "
       "during an extra turn is lost, so no text can make turns without end. Outside a flow (a scenario's "
       "`turn:` steps) nothing takes the extra turn.",
       [("gain 1 coin; after this turn, take an extra turn", "truth")], ["extra_turn"]),
)


# --- verbs -------------------------------------------------------------------------------------


def _cats(slot) -> str:
    names = [_CATEGORY_WORDS[c] for c in slot.categories if c != VAR]
    text = " or ".join(names) or "chosen name"
    if VAR in slot.categories and names:
        text += " (or a chosen name)"
    return text


def usage(v: Verb) -> str:
    """A one-line usage: ``draw CARD [from ZONE]``."""
    parts = [v.name]
    sig = v.signature
    if sig.obj is not None:
        main = _cats(sig.obj).split(" (")[0].replace(" or ", "|").upper().replace(" ", "_")
        obj = f"{main}[, {main}…]" if sig.obj.many else main
        parts.append(obj if sig.obj.required else f"[{obj}]")
    for prep, slot in sig.phrases.items():
        target = "PHASE" if prep == "until" else _cats(slot).split(" (")[0].replace(" or ", "|").upper() \
            .replace(" ", "_")
        phrase = f"{prep} {target}"
        parts.append(phrase if slot.required else f"[{phrase}]")
    return " ".join(parts)


@dataclass(frozen=True)
class VerbDoc:
    name: str
    engine: str
    usage: str
    object: dict | None
    phrases: dict
    template: str
    doc: str
    example: str
    overrides_core: bool
    honours: str = ""  # the amount forms beyond a plain number it honours, in words

    def to_json(self) -> dict:
        return {"name": self.name, "engine": self.engine, "usage": self.usage, "object": self.object,
                "phrases": self.phrases, "template": self.template, "doc": self.doc, "example": self.example,
                "overrides_core": self.overrides_core}


def _slot_json(slot) -> dict:
    return {"categories": list(slot.categories), "required": slot.required, "many": slot.many,
            "honours": _honours_json(slot)}


def _honours_json(slot) -> dict:
    """What the verb's implementation honours in this slot, per category (runtime/verbs.py)."""
    out = {}
    for cat in slot.categories:
        owners, filters, refs = honoured(slot, cat)
        out[cat] = {"amounts": [a for a in AMOUNTS if a in amounts_for(slot, cat)],
                    "owners": [o for o in OWNERS if o in owners], "filters": [f for f in FILTERS if f in filters],
                    "refs": [r for r in REFS if r in refs]}
    return out


def honours_text(v: Verb) -> str:
    """One line a designer reads: the amount forms beyond a plain number that the verb honours."""
    parts = []
    for where, slot in ([("object", v.signature.obj)] if v.signature.obj else []) + \
            [(f"'{p} …'", s) for p, s in v.signature.phrases.items()]:
        for cat in slot.categories:
            amounts = amounts_for(slot, cat)
            extra = [a for a in (UP_TO, ALL) if a in amounts]
            label = where if not isinstance(slot.amounts, dict) else f"{where} ({_CATEGORY_WORDS.get(cat, cat)})"
            if amounts == frozenset({UP_TO}):
                parts.append(f"{label}: only 'up to N'")
            elif extra:
                parts.append(f"{label}: also {' and '.join(repr(a) for a in extra)}")
            if not isinstance(slot.amounts, dict):
                break
        parts = list(dict.fromkeys(parts))
    return "; ".join(parts)


def verb_doc(v: Verb) -> VerbDoc:
    sig = v.signature
    return VerbDoc(v.name, v.engine, usage(v), _slot_json(sig.obj) if sig.obj else None,
                   {p: _slot_json(s) for p, s in sig.phrases.items()}, v.template, v.doc, v.example,
                   v.engine != "core" and v.name in REGISTRY["core"], honours_text(v))


def verb_docs(engine: str | None = None) -> list[VerbDoc]:
    """Every verb a game on ``engine`` may use (sorted by name); with no engine, every registered verb."""
    verbs_for("core")  # importing the engines registers their verbs
    if engine is not None:
        return [verb_doc(v) for _, v in sorted(verbs_for(engine).items())]
    out = []
    for eng in engine_names():
        out += [verb_doc(v) for _, v in sorted(REGISTRY.get(eng, {}).items())]
    return out


def engine_names() -> list[str]:
    verbs_for("core")
    from runtime.engine import ENGINES

    return ["core"] + sorted((set(REGISTRY) | set(ENGINES)) - {"core"})


# --- example games -------------------------------------------------------------------------------


def example_games() -> dict[str, Path]:
    """game id -> game.yaml for every game an example may be checked against (bundled + fixture)."""
    out: dict[str, Path] = {}
    for root in (FIXTURE_DATA, TRUTH_DATA, BUNDLED_DATA, CORPUS_DATA):
        if not root.is_dir():
            continue
        for p in sorted(root.iterdir()):
            if (p / "game.yaml").is_file():
                out.setdefault(p.name, p / "game.yaml")
    return out


@lru_cache(maxsize=None)
def _vocab(path: str) -> GameModel | None:
    return load_game(Path(path), Diagnostics())[1]


def vocabulary_of(game: str) -> GameModel | None:
    path = example_games().get(game)
    return _vocab(str(path)) if path else None


def check_example(text: str, game: str) -> list[str]:
    """Problems compiling ``text`` against ``game`` (empty when it compiles)."""
    vocab = vocabulary_of(game)
    if vocab is None:
        return [f"no game '{game}' to check the example against"]
    ex = explain_effect(text, vocab, where=f"<example for {game}>")
    return [f"{d.code} {d.message}" + (f" ({d.hint})" if d.hint else "") for d in ex.diags.errors]


def example_game_for(v: Verb) -> str | None:
    """The first game (fixture first, then bundled, by name) on which the verb's example compiles."""
    games = example_games()
    for game in games:
        vocab = vocabulary_of(game)
        if vocab is None:
            continue
        if v.engine != "core" and vocab.engine != v.engine:
            continue
        if verbs_for(vocab.engine).get(v.name) is not v:
            continue  # the game's engine overrides this verb
        if not check_example(v.example, game):
            return game
    return None


# --- grammar coverage ---------------------------------------------------------------------------


def grammar_rules() -> set[str]:
    """Every rule name and alias of the effect grammar (what a construct must document)."""
    names = set()
    for rule in _lark().rules:
        origin = str(rule.origin.name)
        if origin.startswith("__"):  # Lark's own helper rules for `*` and `+`
            continue
        names.add(origin.lstrip("_?"))
        if rule.alias:
            names.add(str(rule.alias))
    return {n for n in names if not n.startswith("__")}


# --- the document ---------------------------------------------------------------------------------


@dataclass
class Reference:
    text: str
    problems: list[str] = field(default_factory=list)


HEADER = ("<!-- GENERATED by `cardwright docs` from grammar/effects.lark and the verb registry "
          "(runtime/verbs.py, runtime/games/*.py). Do not edit: change the code and run "
          "`python cli.py docs`. CI fails when this file is stale (`cardwright docs --check`). -->\n")


def _example_block(text: str, game: str) -> list[str]:
    return [f"```effect game={game}", text, "```", ""]


def render_language_reference() -> Reference:
    """docs/language.md as text, plus the problems found while writing it."""
    problems: list[str] = []
    out = [HEADER, "# The effect language", "",
           "Card effects are written in one small language, shared by every game. It reads like the "
           "printed card, in lower case. Names (Goods, zones, card kinds, phases, icons) come from the "
           "game's vocabulary in `data/<game>/game.yaml`; verbs come from the runtime's registry, so a "
           "game may add its own. Every example below is compiled by the tests against the game named on "
           "its code fence (`mini` is the small test game in `tests/fixtures/mini`).", "",
           "Try any effect with `cardwright explain \"EFFECT\" --game GAME`; list a game's verbs with "
           "`cardwright verbs --game GAME`.", ""]
    documented: set[str] = set()
    section = None
    # one heading per section, in the order sections first appear; constructs keep their listed order
    # within it (constructs added later are listed at the end of CONSTRUCTS, by whoever added them)
    first = {}
    for c in CONSTRUCTS:
        first.setdefault(c.section, len(first))
    for c in sorted(CONSTRUCTS, key=lambda c: first[c.section]):
        if c.section != section:
            section = c.section
            out += [f"## {section}", ""]
        out += [f"### {c.title}", "", f"`{c.syntax}`", "", c.text, ""]
        for text, game in c.examples:
            for p in check_example(text, game):
                problems.append(f"construct '{c.title}': example {text!r} does not compile for {game}: {p}")
            out += _example_block(text, game)
        documented |= set(c.rules)
    missing = sorted(grammar_rules() - documented)
    for name in missing:
        problems.append(f"grammar rule '{name}' is not documented by any construct in compiler/langref.py")
    out += ["## Verbs", "",
            "A verb is one Python function registered with `@verb(...)` (see docs/architecture.md). Its "
            "signature says what its object and each phrase may name; the checker rejects anything else. "
            "`core` verbs serve every game; an engine's verbs serve only games on that engine, and replace "
            "a core verb of the same name there.", "",
            "Usage notation: `[…]` is optional, `A|B` either, `…` more of the same; `GOOD`, `CARD`, `THING`, "
            "`ZONE`, `PLAYER` are nouns of the game's vocabulary, and wherever a thing is named a chosen "
            "name (`choose … as NAME`) may stand instead.", ""]
    games = example_games()
    for eng in engine_names():
        verbs = REGISTRY.get(eng, {})
        users = sorted(g for g in games if (vocabulary_of(g) and vocabulary_of(g).engine == eng))
        title = "Core verbs (every game)" if eng == "core" else f"Engine `{eng}`"
        out += [f"### {title}", ""]
        if eng != "core":
            out += [f"Games on this engine: {', '.join(users) or 'none yet'}.", ""]
        if not verbs:
            out += ["This engine adds no verbs of its own.", ""]
            continue
        for name, v in sorted(verbs.items()):
            d = verb_doc(v)
            out += [f"#### `{name}`" + (" (replaces the core verb)" if d.overrides_core else ""), "",
                    f"`{d.usage}`", ""]
            if d.doc:
                out += [" ".join(d.doc.split()), ""]
            out += [f"English template: `{d.template}`", ""]
            if honours_text(v):
                out += [f"Honours {honours_text(v)}. Any other amount, owner, filter or reference a text "
                        "gives this verb is an error (E306).", ""]
            game = example_game_for(v)
            if game is None:
                problems.append(f"verb '{name}' ({eng}): example {v.example!r} does not compile against any "
                                f"game on engine {eng}")
                out += [f"Example (not checked: no game compiles it yet): `{v.example}`", ""]
            else:
                out += _example_block(v.example, game)
    grammar = (GRAMMAR_DIR / "effects.lark").read_text(encoding="utf-8").rstrip("\n")
    out += ["## Appendix: the grammar", "", "`grammar/effects.lark`, verbatim (Lark, LALR):", "",
            "```lark", grammar, "```", ""]
    return Reference("\n".join(out), problems)


def language_md_path() -> Path:
    return RESOURCE_ROOT / "docs" / "language.md"
