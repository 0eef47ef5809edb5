"""Issue 11: a fuzz test over every bundled effect text, so the next class of hostile input is found
by the suite, not by a user.

Each text is mutated under a fixed seed — a token deleted, inserted, swapped, duplicated, a number
changed (to 0, to the limit, past it, to thousands of digits), a Unicode character put in — and
every mutation must either

- be rejected with diagnostics that carry a stable code and are located inside the text, or
- be accepted, compile, and then run on a real state of its game raising nothing but the
  runtime's own refusals (``Refused``/``Unmet``, which ``Engine.run`` turns into outcomes).

A second test draws texts from the grammar itself (Hypothesis's Lark strategy) under a fixed seed.
"""
from __future__ import annotations

import random
import re
import time

import pytest
from hypothesis import HealthCheck, given, seed, settings
from hypothesis.extra.lark import from_lark
from lark import Lark

from compiler.build import compile_tree
from compiler.diagnostics import CODES
from compiler.explain import effect_function, explain_effect
from compiler.parser import MAX_LITERAL
from compiler.resources import BUNDLED_DATA, GRAMMAR_DIR
from runtime.engine import engine_for, load_compiled
from runtime.model import GameModel, model_of

SEED = 11
PER_TEXT = 40  # mutations of each distinct bundled text (86 today: about 3,400 mutations)
TOKEN = re.compile(r"\d+|[a-z_']+|[^\sa-z_'\d]")
NUMBERS = ["0", "1", "7", str(MAX_LITERAL), str(MAX_LITERAL + 1), "2147483648", "9" * 4301]
UNICODE = ["é", "\u00a0", "\u3000", "\u202e", "\u200b", "ﬁ", "𝔘", "☃", "ß", "İ", "\u0301", "\t", "\n", "'s",
           '"', "\\", "{", "}", "#", ":", ";", "(", ")", "*", "-", "+", "/", "<=", "!="]
PLAYERS = {"fifty_first_state": ["Ann", "Bob"], "age_of_steam": ["Ann", "Bob", "Cid"],
           "infernal_contraption": ["Ann", "Bob", "Cid"]}


def bundled_texts() -> list[tuple[str, str, str]]:
    """(game, slot kind, text) of every effect text of the bundled games, in a stable order."""
    result = compile_tree(BUNDLED_DATA)
    assert result.ok
    out = set()
    for game, gb in result.games.items():
        for slot_kind, text, *_ in gb.checked:  # (slot kind, text, in a card?)
            out.add((game, slot_kind, text))
    return sorted(out)


def mutate(text: str, rng: random.Random, pool: list[str]) -> str:
    tokens = TOKEN.findall(text)
    if not tokens:
        return text + rng.choice(pool)
    i = rng.randrange(len(tokens))
    op = rng.choice(["delete", "insert", "swap", "duplicate", "number", "unicode"])
    if op == "delete":
        del tokens[i]
    elif op == "insert":
        tokens.insert(i, rng.choice(pool))
    elif op == "swap" and len(tokens) > 1:
        j = min(i + 1, len(tokens) - 1) if i + 1 < len(tokens) else i - 1
        tokens[i], tokens[j] = tokens[j], tokens[i]
    elif op == "duplicate":
        tokens.insert(i, tokens[i])
    elif op == "number":
        nums = [k for k, t in enumerate(tokens) if t.isdigit()] or [i]
        tokens[rng.choice(nums)] = rng.choice(NUMBERS)
    else:
        tokens.insert(i, rng.choice(UNICODE))
    glue = rng.choice([" ", " ", " ", ""])
    return glue.join(tokens) if glue else " ".join(tokens).replace(" ;", ";")


class Games:
    """One real state per game, renewed every few effects and whenever a game is over."""

    def __init__(self):
        self.compiled = {}
        self.games = {}
        self.used = {}

    def vocab(self, game: str) -> GameModel:
        return model_of(self.get_compiled(game).vocab)

    def get_compiled(self, game: str):
        if game not in self.compiled:
            self.compiled[game] = load_compiled(game)
        return self.compiled[game]

    def state(self, game: str, n: int):
        g = self.games.get(game)
        if g is None or self.used[game] >= 15 or getattr(g, "over", False) or g.players[0].out:
            compiled = self.get_compiled(game)
            g = engine_for(compiled).new_game(compiled, PLAYERS[game], seed=n)
            self.games[game], self.used[game] = g, 0
        self.used[game] += 1
        return g


def judge(game: str, slot_kind: str, text: str, games: Games, vocabs: dict, n: int) -> str:
    """'rejected' or 'ran'; any other outcome fails the test with the text that caused it."""
    prefix = "requires " if slot_kind == "condition" else ""
    ex = explain_effect(prefix + text, vocabs[game])
    if ex.diags.errors:
        for d in ex.diags.errors:
            assert d.code in CODES, (text, d.render())
            assert d.line == 1 and 1 <= d.column <= len(prefix + text) + 1, (text, d.render())
        return "rejected"
    fn = effect_function(ex)
    state = games.state(game, n)
    engine = engine_for(games.get_compiled(game))
    others = state.others(0) if hasattr(state, "others") else []
    # a condition runs as "requires …": unmet is an outcome, like a refusal
    engine.run(state, fn, 0, opponent=others[0] if others else None)
    return "ran"


def test_mutated_effect_texts_are_refused_where_they_are_wrong_or_run_cleanly():
    start = time.perf_counter()
    texts = bundled_texts()
    assert len(texts) > 80  # distinct texts (131 effects, some sharing a text)
    rng = random.Random(SEED)
    games = Games()
    vocabs = {g: games.vocab(g) for g in {t[0] for t in texts}}
    pool = sorted({tok for _, _, text in texts for tok in TOKEN.findall(text)})
    counts = {"rejected": 0, "ran": 0}
    n = 0
    for game, slot_kind, text in texts:
        for _ in range(PER_TEXT):
            mutated = mutate(text, rng, pool)
            n += 1
            try:
                counts[judge(game, slot_kind, mutated, games, vocabs, n)] += 1
            except AssertionError:
                raise
            except Exception as exc:  # noqa: BLE001 - the very thing this test looks for
                pytest.fail(f"{game} {slot_kind} {mutated!r} (from {text!r}) raised "
                            f"{type(exc).__name__}: {exc}")
    print(f"fuzz: {n} mutations, {counts}, {time.perf_counter() - start:.1f} s")
    assert counts["rejected"] > 100 and counts["ran"] > 100, counts  # both halves really exercised
    # how long it took is printed, not asserted: a shared machine's clock says little (bench/ measures)


def test_texts_drawn_from_the_grammar_are_refused_or_run():
    """Grammar-drawn texts are long (up to ~1,000 characters) and slow to draw (~0.2 s each), so a
    score, on the game with the widest vocabulary, keep the suite's fuzzing well under a minute. With
    the grammar's abilities (issue 28) most draws of this seed grow past Hypothesis's size limit; those
    are discarded (``data_too_large`` suppressed) and the 20 examples are drawn among the rest."""
    game = "fifty_first_state"
    games = Games()
    vocabs = {game: games.vocab(game)}
    grammar = Lark((GRAMMAR_DIR / "effects.lark").read_text(encoding="utf-8"), parser="lalr")
    seen = {"n": 0}

    @seed(SEED)
    @settings(max_examples=20, deadline=None, database=None,
              suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much, HealthCheck.data_too_large])
    @given(from_lark(grammar, explicit={"NAME": _names(vocabs[game])}))
    def check(text):
        seen["n"] += 1
        try:
            judge(game, "effect", text, games, vocabs, seen["n"])
        except AssertionError:
            raise
        except Exception as exc:  # noqa: BLE001
            raise AssertionError(f"{text!r} raised {type(exc).__name__}: {exc}") from exc

    check()
    assert seen["n"] >= 20


def _names(vocab: GameModel):
    """Words the grammar's NAME terminal stands for: the game's nouns, its verbs, and a stranger."""
    from hypothesis import strategies as st

    from runtime.verbs import verbs_for

    words = sorted({w for phrase in vocab.nouns for w in phrase.split(" ") if re.fullmatch(r"[a-z_]+", w)}
                   | set(verbs_for(vocab.engine)) | {"zork"})
    return st.sampled_from(words)
