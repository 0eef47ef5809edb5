"""Issue 26, item 6: `cardwright play` shows what a player at the table sees — your hand (card text on
request), what lies in front of every player, the shared board (the Moon's hex map, the Machines),
everyone's Goods — in printed names, with stable option numbers, no default on an empty Enter, real
help, and correct grammar. Plain unit tests of the view and its rendering, and one run in a real
terminal (tmux)."""
from __future__ import annotations

import io
import os
import re
import shutil
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest
from rich.console import Console

from runtime.engine import engine_for, load_compiled
from runtime.protocol import Result
from runtime.tableview import card_text, table_view
from runtime.terminal import HELP, Option, Stopped, TerminalAgent, game_over, render_table

from .conftest import ROOT


def _console(width: int = 100) -> tuple[Console, io.StringIO]:
    out = io.StringIO()
    return Console(file=out, width=width, color_system=None, highlight=False), out


def _match(game: str, players: list[str], seed: int = 0):
    compiled = load_compiled(game)
    return engine_for(compiled).new_match(compiled, players, seed=seed)


class _Keys:
    """Typed answers, one per prompt; the prompts asked are kept."""

    def __init__(self, *answers: str):
        self.answers, self.prompts = list(answers), []

    def __call__(self, prompt: str) -> str:
        self.prompts.append(prompt)
        if not self.answers:
            raise EOFError
        return self.answers.pop(0)


def _agent(game, *answers: str, seat: int = 0):
    console, out = _console()
    keys = _Keys(*answers)
    agent = TerminalAgent(seat, console=console, read=keys)
    return agent, keys, out


# --- the view ---------------------------------------------------------------------------------------------


@pytest.mark.rule("I10")
def test_infernal_contraption_shows_each_machine_and_never_counts_a_parts_pile():
    m = _match("infernal_contraption", ["Ann", "Bob"], seed=3)
    g = m.game
    view = table_view(g, 0, m.to_act())
    ann, bob = view.seats
    assert ann.you and not bob.you and ann.hand == len(view.hand) == 7
    machine = next(s for s in ann.sections if s.title == "Machine")
    assert machine.grid == (("Power Core",),)  # the main line, no plugs yet (I01)
    pile = next(s for s in ann.sections if s.title == "Parts pile")
    assert pile.lines == ("face down",)  # nobody may count it (I10): no number anywhere
    scrap = next(s for s in view.board if s.title == "Scrap pile")
    assert not re.search(r"[0-9]", " ".join(scrap.lines))
    assert [c.name for c in view.hand] == [g.record(u)["name"] for u in g.zones[("hand", 0)]]


@pytest.mark.rule("I01")
def test_a_machine_is_drawn_as_it_lies_main_line_with_plugs_above_and_below():
    m = _match("infernal_contraption", ["Ann", "Bob"], seed=3)
    g = m.game
    eng = g.engine
    machine = g.machines[0]
    core = machine.main[0]
    a, b, c = g.zones[("hand", 0)][:3]
    # lay three cards out by hand, as a finished attach step would have: one on each side, one above
    for uid in (a, b, c):
        g.move(uid, ("machine", 0))
    machine.main[:] = [a, core, b]
    machine.top[core] = c
    machine.base[c] = (core, "top")
    sec = next(s for s in eng.seat_sections(g, 0, 0) if s.title == "Machine")
    name = lambda u: eng.name_of(g, u)  # noqa: E731
    assert sec.grid == (("", name(c), ""), (name(a), "Power Core", name(b)))


def test_the_moon_map_puts_every_hex_once_where_its_neighbours_are():
    m = _match("age_of_steam", ["Ann", "Bob", "Cid"])
    g = m.game
    sec = next(s for s in g.engine.board_sections(g, 0) if s.title == "The Moon")
    hexes = g.moon.map.hexes
    names = [ln for ln in sec.lines[:-4:2]]  # the first line of each row of hexes
    cells = [c for line in names for c in re.findall(r"\[[A-Z]{3}\]|\([a-z]{3}\)|<LND>|-?[0-9]+,-?[0-9]+", line)]
    assert len(cells) == len(hexes) == 61
    assert cells.count("<LND>") == 1 and "[TYC]" in cells and "(had)" in cells
    # two hexes side by side are one cell apart; the row below starts half a cell further right
    row, below = sec.lines[0], sec.lines[2]
    middle = lambda line, text: line.index(text) + len(text) / 2  # noqa: E731 - a cell's text is centred
    # (centring 4 characters in 5 leaves half a character over)
    assert abs(middle(row, "1,-4") - middle(row, "(des)") - 6) <= 0.5
    assert abs(middle(below, "0,-3") - middle(row, "(des)") - 3) <= 0.5  # (0,-3) is south-east of (0,-4)
    assert "Day: the top right side" in "\n".join(sec.lines)
    console, out = _console()
    console.print(render_table(table_view(g, 0)))
    assert "The Moon" in out.getvalue() and "hand" not in out.getvalue()  # the Moon deals no hands


def test_track_appears_on_the_moon_map_under_its_hex():
    m = _match("age_of_steam", ["Ann", "Bob", "Cid"])
    while True:
        labels = [mv.label for mv in m.legal_moves()]
        build = [i for i, lb in enumerate(labels) if lb.startswith("Build track from Landing hex to 1,0")]
        if build:
            m.apply(m.legal_moves()[build[0]])
            break
        m.apply(m.legal_moves()[1 if len(labels) > 1 and m.to_act() == 0 else 0])
    g = m.game
    lines = next(s for s in g.engine.board_sections(g, 0) if s.title == "The Moon").lines
    top = next(i for i, ln in enumerate(lines) if "<LND>" in ln)
    at = re.search(r"(?<![-0-9])1,0(?![0-9])", lines[top]).start()
    assert lines[top + 1][at - 1:at + 4].strip() == "=1="


def test_fifty_first_state_shows_the_state_by_rows_and_goods_in_printed_names():
    m = _match("fifty_first_state", ["Ann", "Bob"])
    g = m.game
    uid = g.zones[("hand", 0)][0]
    g.engine.place_in_state(g, uid, 0)
    view = table_view(g, 0)
    state = next(s for s in view.seats[0].sections if s.title == "State")
    row = g.instances[uid].props.get("row")
    assert state.lines == (f"{row}: {g.engine.name_of(g, uid)}",)
    assert view.seats[0].goods == "1 Brick, 1 Fuel, 1 Gun, 1 Iron, 2 Workers"  # counted: "2 Workers"


def test_card_text_is_what_the_card_says_with_the_slots_printed_names():
    g = _match("fifty_first_state", ["Ann", "Bob"]).game
    text = card_text(g, "brick_supplier")
    assert text[0] == "Brick Supplier — Location"
    assert "Production: gain 1 brick" in text and "Deal: gain 1 brick" in text
    assert not any(line.startswith(("at:", "source:", "provisional")) for line in text)


# --- the rendering ----------------------------------------------------------------------------------------


def test_the_table_renders_every_player_the_board_and_your_hand():
    m = _match("infernal_contraption", ["Ann", "Bob"], seed=3)
    console, out = _console()
    console.print(render_table(table_view(m.game, 0, m.to_act())))
    text = out.getvalue()
    for needle in ("Ann (you)", "Bob", "your side", "Bob's side", "Scrap pile", "your hand", "Power Core"):
        assert needle in text
    assert "parts_pile" not in text and "play_area" not in text


def test_a_card_name_from_the_data_is_never_read_as_markup():
    m = _match("infernal_contraption", ["Ann", "Bob"], seed=3)
    g = m.game
    uid = g.zones[("hand", 0)][0]
    g.cards = dict(g.cards)  # this game's own table: the compiled game's is shared by every later test
    g.cards[g.instances[uid].card_id] = dict(g.record(uid), name="[bold red]Boom[/bold red]")
    console, out = _console()
    console.print(render_table(table_view(g, 0)))
    assert "[bold red]Boom[/bold red]" in out.getvalue()


# --- answering ----------------------------------------------------------------------------------------------


def test_numbers_stay_fixed_while_a_question_is_asked_and_enter_takes_nothing():
    g = _match("infernal_contraption", ["Ann", "Bob"], seed=3).game
    hand = list(g.zones[("hand", 0)])
    agent, keys, out = _agent(g, "", "3", "3", "1")
    picks = agent.ask(g, agent.options_for(g, hand), "scrap", k=2)
    assert picks == [hand[2], hand[0]]  # "3" then "1": the numbers of the first listing, never shifted
    text = out.getvalue()
    assert "type a number from 1 to 7" in text  # the empty Enter chose nothing
    assert "is chosen already" in text
    assert text.count("1.") == 1  # listed once: nothing was renumbered
    assert keys.prompts[0].startswith("scrap (1 of 2) [1-7")


def test_several_numbers_at_once_and_an_up_to_question_ends_with_done():
    g = _match("infernal_contraption", ["Ann", "Bob"], seed=3).game
    hand = list(g.zones[("hand", 0)])
    agent, keys, out = _agent(g, "2, 4", "8")
    assert agent.ask(g, agent.options_for(g, hand), "scrap", k=7, low=0) == [hand[1], hand[3]]
    assert "8.  done (choose no more)" in out.getvalue()
    assert "up to 7" in keys.prompts[0]


def test_help_card_text_and_q():
    g = _match("infernal_contraption", ["Ann", "Bob"], seed=3).game
    hand = list(g.zones[("hand", 0)])
    agent, _, out = _agent(g, "?", "c 2", "h", "q")
    with pytest.raises(Stopped):
        agent.ask(g, agent.options_for(g, hand), "your move")
    text = out.getvalue()
    assert HELP.splitlines()[1] in text and "Now: your move." in text
    second = card_text(g, g.instances[hand[1]].card_id)
    assert all(line[:30] in text for line in second[:1])
    assert text.count(second[0]) >= 2  # once for `c 2`, once more in the hand `h` shows


def test_the_input_ending_stops_the_game():
    g = _match("infernal_contraption", ["Ann", "Bob"], seed=3).game
    agent, _, _ = _agent(g)
    with pytest.raises(Stopped):
        agent.ask(g, [Option("a", 1), Option("b", 2)], "your move")


def test_the_end_is_said_with_the_grammar_of_you():
    g = _match("infernal_contraption", ["You", "Bot 2"], seed=3).game
    assert game_over(g, Result((12, 9), (0,), "You has 12 points"), 0) == \
        "Game over: You win with 12 points (scores: you 12, Bot 2 9)."
    assert game_over(g, Result((2, 3), (1,), "Bot 2 has 3 points"), 0) == \
        "Game over: Bot 2 wins with 3 points; you have 2 (scores: you 2, Bot 2 3)."
    assert game_over(g, Result((), (1,), "last player left"), 0) == "Game over: Bot 2 wins."
    three = _match("age_of_steam", ["You", "Bot 2", "Bot 3"]).game
    assert game_over(three, Result((0, 4, 4), (1, 2), "tie"), 0) == \
        "Game over: Bot 2 and Bot 3 share the win with 4 points; you have 0 (scores: you 0, Bot 2 4, Bot 3 4)."


def test_the_trace_names_zones_and_choices_in_printed_words(runner):
    from cli import main

    res = runner.invoke(main, ["play", "infernal_contraption", "--seed", "1"], input="8\nq\n")
    assert "You: draws 7 cards from their Parts pile" in res.output
    assert "parts_pile" not in res.output and "(I14)" not in res.output
    assert not re.search(r"chooses .* as \w+$", res.output, re.M)


# --- a real terminal ---------------------------------------------------------------------------------------


def _tmux(*args: str) -> str:
    return subprocess.run(["tmux", *args], capture_output=True, text=True, timeout=30).stdout


@pytest.mark.skipif(shutil.which("tmux") is None, reason="tmux is not installed (.ci/run installs it)")
def test_play_in_a_real_terminal(tmp_path):
    """The real program in a tmux pane 100 columns wide: the table is drawn with box characters, the
    numbers are answered by keys, `?` helps, q stops."""
    exe = Path(sys.executable).with_name("cardwright")
    cmd = f"{exe} play infernal_contraption --seed 1" if exe.is_file() else \
        f"{sys.executable} {ROOT / 'cli.py'} play infernal_contraption --seed 1"
    session = f"cw-{uuid.uuid4().hex[:8]}"
    env = {k: v for k, v in os.environ.items() if k != "TMUX"}
    subprocess.run(["tmux", "-L", session, "new-session", "-d", "-s", session, "-x", "100", "-y", "60",
                    f"cd {tmp_path} && {cmd}; sleep 30"], check=True, env=env, timeout=30)

    def screen() -> str:
        return _tmux("-L", session, "capture-pane", "-p", "-t", session, "-S", "-300")

    def wait_for(text: str) -> str:
        for _ in range(300):
            shown = screen()
            if text in shown:
                return shown
            time.sleep(0.1)
        raise AssertionError(f"{text!r} never appeared:\n{screen()}")

    try:
        wait_for("done (choose no more)")
        _tmux("-L", session, "send-keys", "-t", session, "8", "Enter")
        shown = wait_for("your move [")
        assert "┏" in shown and "your side" in shown and "Scrap pile" in shown
        assert "Power Core" in shown
        _tmux("-L", session, "send-keys", "-t", session, "?", "Enter")
        wait_for("How to answer:")
        _tmux("-L", session, "send-keys", "-t", session, "q", "Enter")
        wait_for("stopped.")
    finally:
        subprocess.run(["tmux", "-L", session, "kill-server"], capture_output=True, timeout=30)


def test_the_result_of_a_player_named_you_has_the_grammar_of_you(tmp_path):
    """The flow's result names the winner: "You have 14 points" when the person is called You (it
    said "You has"), and "1 round has been played"."""
    from commands.common import GameLoader
    from runtime.words import has

    assert (has("You"), has("Ann"), has("Ann and Bob", many=True)) == ("have", "has", "have")
    shutil.copytree(ROOT / "tests/fixtures/flow", tmp_path / "data")
    game_yaml = tmp_path / "data" / "deckbuild" / "game.yaml"
    game_yaml.write_text(game_yaml.read_text().replace("    rounds: 40\n", "    rounds: 1\n"))
    compiled = GameLoader(tmp_path / "data")("deckbuild")
    m = engine_for(compiled).new_match(compiled, ["You", "Bot 2"], seed=0)
    m.game.players[0].goods["vp"] += 10  # You win alone
    while not m.terminal():
        m.apply(m.legal_moves()[0])
    reason = m.result().reason
    assert reason.startswith("1 round has been played: You have ") and " has " not in reason.split(":")[1]
