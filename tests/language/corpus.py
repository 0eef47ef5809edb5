"""The language corpus: effect texts of small test games, each with a scenario and its outcome.

A corpus file (``corpus/<game>.yaml``) lists entries; each entry is one effect text with the state
it runs in and what must be true afterwards. Nothing here plays the game: every entry becomes a
card of the real game folder (``games/<game>``) and a scenario file, and both go through the real
pipeline — ``compile_tree`` (load, schema, parse, check, emit), the rules reference's English
(``game_view``) and ``load_scenario``/``Scenario.run`` (schema, the compiled card's slot run by
the engine, the expectations checked by the scenario runner).

Entry fields:
  id          unique, lower-case; the card is ``k_<id>``
  text        the effect text, as a designer writes it on a card
  constructs  which language constructs it exercises (counted by the tests)
  kind, slot  the card kind and slot holding the text (defaults: the file's ``defaults``)
  fields      the card's other fields (cost — default 3 —, icons, power…)
  at          the zone the card sits in while it runs (default ``defaults.at``, the first player's;
              ``Bob:ZONE`` for another player's, ``game:ZONE`` for a shared zone; ``none``: nowhere)
  state       as a scenario's ``state`` (player name or ``game`` -> goods and zones)
  answers     as a scenario's ``answers`` (player -> scripted choices)
  steps       as a scenario's ``steps``; default: run the card's slot once as the first player (an
              ability slot: use its first ability; ``{card: this, slot: …, use: N}`` the Nth; a
              ``move`` step plays the game's flow, abilities offered as moves)
  outcome     the step's expected status: done (default), refused or unmet
  expect      player name or ``game`` -> goods / zones expected afterwards (must not be empty)
  log         strings the trace must contain
  issue       the runtime does not do what the English says (today): the entry asserts what the
              English says and is a strict xfail, so it turns red the day it is fixed
  rejected_today  the checker refuses the text today although it should not: compiling and running
              are strict xfails, for the same reason

A file's ``rejected`` list holds texts the checker must refuse: ``code`` and the words ``at`` the
caret, and what the text did when it was accepted (``was``). They are not counted as corpus texts.
"""
from __future__ import annotations

import shutil
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

HERE = Path(__file__).resolve().parent
GAMES = HERE / "games"
CORPUS = HERE / "corpus"

ENTRY_KEYS = {"id", "text", "constructs", "kind", "slot", "at", "name", "state", "answers", "steps",
              "outcome", "expect", "log", "issue", "note", "players", "fields", "rejected_today"}
REJECTED_KEYS = {"text", "code", "at", "was", "note", "hint", "says"}  # says: words the message or hint holds


@dataclass
class Entry:
    game: str
    id: str
    text: str
    constructs: list[str]
    kind: str
    slot: str
    at: str | None
    raw: dict = field(repr=False, default_factory=dict)

    @property
    def card(self) -> str:
        return f"k_{self.id}"

    @property
    def name(self) -> str:
        return self.raw.get("name") or self.id.replace("_", " ").title()

    @property
    def issue(self) -> str | None:
        return self.raw.get("issue")

    @property
    def rejected_today(self) -> str | None:
        return self.raw.get("rejected_today")

    def card_record(self) -> dict:
        rec: dict[str, Any] = {"id": self.card, "kind": self.kind, "name": self.name, "source": "example",
                               "cost": 3}
        rec.update(self.raw.get("fields") or {})
        rec[self.slot] = self.text
        return rec

    def scenario(self, players: list[str]) -> dict:
        """The scenario document of this entry: its state plus the card itself, its steps, its expect."""
        players = list(self.raw.get("players") or players)
        state = _copy(self.raw.get("state") or {})
        if self.at is not None:
            holder, zone = self.at.split(":", 1) if ":" in self.at else (players[0], self.at)
            zones = state.setdefault(holder, {}).setdefault("zones", {})
            zones.setdefault(zone, []).append({"card": self.card, "as": "this"})
        steps = _copy(self.raw.get("steps")) or [{"card": "this" if self.at else self.card, "slot": self.slot,
                                                  "player": players[0]}]
        if "outcome" in self.raw:
            steps[-1]["expect"] = self.raw["outcome"]
        else:
            for s in steps:
                s.setdefault("expect", "done")
        expect: dict[str, Any] = {}
        for holder, spec in (self.raw.get("expect") or {}).items():
            if holder == "game":
                expect["game"] = _copy(spec)
            else:
                expect.setdefault("players", {})[holder] = _copy(spec)
        if self.raw.get("log"):
            expect["log_contains"] = list(self.raw["log"])
        doc = {"scenario": self.id, "description": self.text, "game": self.game, "players": players,
               "state": state, "steps": steps, "expect": expect}
        if self.raw.get("answers"):
            doc["answers"] = _copy(self.raw["answers"])
        return doc


@dataclass
class Rejected:
    game: str
    text: str
    code: str
    at: str
    raw: dict = field(repr=False, default_factory=dict)


@dataclass
class CorpusFile:
    game: str
    players: list[str]
    entries: list[Entry]
    path: Path
    rejected: list[Rejected] = field(default_factory=list)


def _copy(value):
    return yaml.safe_load(yaml.safe_dump(value)) if value is not None else None


def load_corpus() -> list[CorpusFile]:
    out = []
    for path in sorted(CORPUS.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        d = data.get("defaults") or {}
        entries = []
        for raw in data.get("entries") or []:
            unknown = set(raw) - ENTRY_KEYS
            if unknown:
                raise ValueError(f"{path.name}: entry {raw.get('id')!r} has unknown keys {sorted(unknown)}")
            at = raw.get("at", d.get("at"))
            entries.append(Entry(data["game"], raw["id"], raw["text"], list(raw.get("constructs") or []),
                                 raw.get("kind", d.get("kind")), raw.get("slot", d.get("slot")),
                                 None if at in (None, "none") else at, raw))
        rejected = []
        for raw in data.get("rejected") or []:
            unknown = set(raw) - REJECTED_KEYS
            if unknown:
                raise ValueError(f"{path.name}: rejected text {raw.get('text')!r} has unknown keys {sorted(unknown)}")
            rejected.append(Rejected(data["game"], raw["text"], raw["code"], raw["at"], raw))
        out.append(CorpusFile(data["game"], list(data.get("players") or ["Ann", "Bob"]), entries, path, rejected))
    return out


class _NoAliases(yaml.SafeDumper):
    """The loader refuses YAML anchors and aliases (DESIGN §2): never write any."""

    def ignore_aliases(self, data):
        return True


def dump(data) -> str:
    return yaml.dump(data, Dumper=_NoAliases, sort_keys=False, allow_unicode=True)


def write_game(root: Path, corpus: CorpusFile, entries: list[Entry]) -> Path:
    """A data folder holding the game as it is plus a module with one card per corpus entry."""
    data = root / "data"
    gdir = data / corpus.game
    if gdir.exists():
        shutil.rmtree(gdir)
    shutil.copytree(GAMES / corpus.game, gdir)
    module = {"name": f"{corpus.game} language corpus", "source": "example",
              "note": "One card per effect text of tests/language/corpus; generated by the tests.",
              "cards": [e.card_record() for e in entries]}
    (gdir / "corpus.yaml").write_text(dump(module), encoding="utf-8")
    return data
