"""The game flow and the stand-in rules in the rules reference (issue 13).

``flow_view`` turns game.yaml's ``flow`` into sections of lines for the reference templates: setup,
turn order, the round with its phases (steps and actions), the actions, the end and the scoring.
Effect texts are rendered in English from their AST by the reference's own renderer (``english``),
never copied from the data. ``stand_in_view`` lists every rule or card the data marks
``stand_in`` — such a rule is the project's, not the published game's, and the reference says so
next to it and in a section of its own.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from runtime.standins import walk_marks

STAND_IN_MARK = "‡"


@dataclass
class FlowLine:
    label: str
    marked: str = ""  # English with icon markers (may be empty: the label says it all)
    depth: int = 0
    stand_in: str = ""  # the stand-in note, when this rule is one
    note: str = ""


@dataclass
class FlowSection:
    title: str
    lines: list[FlowLine]


def _title(key: str) -> str:
    return key.replace("_", " ").capitalize()


def _mark(spec) -> dict:
    """A rule's stand-in note and note, as a FlowLine takes them."""
    si = (spec or {}).get("stand_in") if isinstance(spec, dict) else None
    return {"stand_in": si["note"] if isinstance(si, dict) else "", "note": (spec or {}).get("note") or ""}


def _who(step: dict, default: str) -> str:
    return {"each player": "each player", "starting player": "the Starting Player",
            "turn player": "the player whose turn it is"}[step.get("for", default)]


def _quantity(english: Callable[[str, str], str], text: str) -> str:
    # a quantity is compiled as "x is …"; its English reads "X is the …": the reference shows the "the …"
    marked = english(f"x is {text}", "effect")
    return marked[5:].rstrip(".") if marked.startswith("X is ") else marked


def flow_view(data: dict, english: Callable[[str, str], str], card_name: Callable[[str], str],
              zone_name: Callable[[str], str]) -> list[FlowSection]:
    """``english(text, kind)``: the reference's English for an effect ("effect") or a condition.
    Then game.yaml's ``bots`` (any game, with a flow or not): what the bundled bots weigh."""
    flow = data.get("flow")
    bots = data.get("bots") if isinstance(data.get("bots"), dict) else {}
    sections = _flow_sections(data, flow, english, card_name, zone_name) if isinstance(flow, dict) else []
    if bots.get("greedy"):
        sections.append(FlowSection("Bots", [FlowLine(
            "The greedy bot takes the move after which this is highest for its player (and the Monte Carlo "
            "bot judges a playout it cuts short by it): " + _quantity(english, bots["greedy"]), **_mark(bots))]))
    return sections


def _flow_sections(data: dict, flow: dict, english, card_name, zone_name) -> list[FlowSection]:
    """The flow's own sections, in order: setup, turn order, the round, the actions, the end, the scoring."""
    sections: list[FlowSection] = []
    setup = []
    for step in flow.get("setup") or []:
        if "effect" in step:
            setup.append(FlowLine(f"For {_who(step, 'each player')}", english(step["effect"], "effect"), **_mark(step)))
        elif "shuffle" in step:
            setup.append(FlowLine(f"Shuffle the {zone_name(step['shuffle'])}", **_mark(step)))
        else:
            made = step["create"]
            what = ("every card (as many copies as each card's count)" if made == "all"
                    else ", ".join(f"{n} {card_name(cid)}" for cid, n in made.items()))
            setup.append(FlowLine(f"Put {what} into the {zone_name(step['into'])}", **_mark(step)))
    if setup:
        sections.append(FlowSection("Setup", setup))
    sp = flow.get("starting_player") or {}
    order = [FlowLine("The first Starting Player is " + ("chosen at random" if flow.get("first_player") == "random"
                                                          else "the player in seat 1")),
             FlowLine("The Starting Player " + ("passes to the next player in turn order at the end of each round"
                                                if sp.get("passes") == "each round" else "never changes"), **_mark(sp))]
    sections.append(FlowSection("Turn order", order))
    actions = flow.get("actions") or {}

    def phase_lines(phase: dict, depth: int, in_turn: bool) -> list[FlowLine]:
        out = [FlowLine(phase.get("name") or _title(phase["id"]), depth=depth, **_mark(phase))]
        for step in phase.get("steps") or []:
            out.append(FlowLine(f"For {_who(step, 'turn player' if in_turn else 'each player')}",
                                english(step["effect"], "effect"), depth + 1, **_mark(step)))
        if phase.get("actions"):
            names = ", ".join(actions[a].get("name") or _title(a) for a in phase["actions"] if a in actions)
            how = ("the player whose turn it is takes actions until passing" if in_turn
                   else "one action each in turn order until every player has passed"
                   if phase.get("order", "alternate") == "alternate"
                   else "each player in turn order takes actions until passing")
            out.append(FlowLine(f"Actions: {names} — {how}", depth=depth + 1))
        if phase.get("abilities"):  # issue 28: abilities as moves, beside the actions
            slot_names = {sk: (ss or {}).get("name") or _title(sk) for spec in (data.get("card_kinds") or {}).values()
                          for sk, ss in ((spec or {}).get("slots") or {}).items()}
            names = ", ".join(slot_names.get(sk, _title(sk)) for sk in phase["abilities"])
            out.append(FlowLine(f"Abilities: {names} — beside the actions, the player may use each such ability "
                                "of their cards in play, as often as its limits allow", depth=depth + 1))
        if phase.get("turns"):
            out.append(FlowLine("Each player in turn order, from the Starting Player, takes a turn:", depth=depth + 1))
            for sub in phase["turns"]:
                out += phase_lines(sub, depth + 2, True)
        return out

    rnd = []
    for phase in flow.get("round") or []:
        rnd += phase_lines(phase, 0, False)
    sections.append(FlowSection("Each round", rnd))
    act_lines = []
    for aid, a in actions.items():
        extra = []
        if a.get("cost"):
            goods = data.get("goods") or {}
            extra.append("costs " + ", ".join(f"{n} {(goods.get(g) or {}).get('name') or _title(g)}"
                                              for g, n in a["cost"].items()))
        if a.get("limit"):
            lim = a["limit"]
            extra.append(f"at most {lim['times']} time{'s' if lim['times'] != 1 else ''} per {lim.get('per', 'phase')}"
                         + (" by all players together" if lim.get("by") == "anyone" else ""))
        if a.get("starting_player"):
            extra.append("the player becomes the Starting Player from the next round")
        if a.get("requires"):
            extra.append("only if: " + english(a["requires"], "condition"))
        label = (a.get("name") or _title(aid)) + (f" ({'; '.join(extra)})" if extra else "")
        act_lines.append(FlowLine(label, english(a["effect"], "effect"), **_mark(a)))
    if act_lines:
        act_lines.append(FlowLine("Pass: ends the phase for that player (a player with no action open passes)."))
        sections.append(FlowSection("Actions", act_lines))
    end = flow.get("end") or {}
    end_lines = []
    if end.get("when"):
        check = ("after each turn and at the end of each round" if end.get("check") == "after each turn"
                 else "at the end of each round")
        end_lines.append(FlowLine(f"Checked {check}, for every player: the game ends when",
                                  english(end["when"], "condition"), **_mark(end)))
    if end.get("rounds"):
        end_lines.append(FlowLine(f"The game ends after round {end['rounds']} at the latest",
                                  **(_mark(end) if not end.get("when") else {})))
    if end_lines:
        sections.append(FlowSection("End of the game", end_lines))
    score = flow.get("score") or {}
    score_lines = [FlowLine(f"For {_who(s, 'each player')}", english(s["effect"], "effect"), **_mark(s))
                   for s in score.get("final") or []]
    score_lines.append(FlowLine("The winner has the most of: " + _quantity(english, score["points"]), **_mark(score)))
    for tb in score.get("tie_breaks") or []:
        (how, text), = tb.items()
        score_lines.append(FlowLine(f"A tie goes to the player with the {'most' if how == 'most' else 'fewest'} of: "
                                    + _quantity(english, text), depth=1))
    score_lines.append(FlowLine("A tie left after that is shared.", depth=1))
    sections.append(FlowSection("Scoring and the winner", score_lines))
    return sections


def stand_in_view(game_data: dict, modules: list[tuple[dict, list[dict]]]) -> list[dict]:
    """Every stand-in mark: of game.yaml (``where`` is its path there), then per module its own mark
    and its cards' (``modules``: (module table, card records))."""
    out: list[dict] = []
    walk_marks(game_data, (), out)
    for meta, cards in modules:
        mark = meta.get("stand_in")
        if isinstance(mark, dict) and mark.get("note"):
            out.append({"what": str(meta.get("name") or meta.get("id")), "where": str(meta.get("file", "")),
                        "note": str(mark["note"])})
        for rec in cards:
            mark = rec.get("stand_in")
            if isinstance(mark, dict) and mark.get("note"):
                out.append({"what": str(rec.get("name", rec.get("id"))), "where": str(rec.get("at", "")),
                            "note": str(mark["note"])})
    return out
