"""The person at the terminal as an agent (the runtime's Agent interface, runtime/agents.py), so that
``cardwright play`` seats a person where a bot would sit — and the table drawn for them with rich.

What is drawn is runtime/tableview.py's TableView: everyone's Goods and cards in front of them, your
hand, the shared board. Every value shown comes from the data (card names, texts), so it is drawn as
``rich.text.Text`` — never parsed as rich markup (a card named "[bold]" prints as written).

The prompt: numbers choose (several at once where several are asked for: "1 3"); the numbers of a
question never change while it is asked (chosen options are marked, not removed); an empty Enter
chooses nothing (it asks again); ``?`` explains, ``t`` shows the table again, ``h`` your hand with
the cards' text, ``c N`` the text of option N's card, ``q`` stops the game.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Any

from rich.console import Console, Group
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from .agents import Agent
from .tableview import Section, TableView, card_name, card_of, card_summary, card_text, table_view

HELP = """\
How to answer:
  a number        choose that option ("1 3" or "1,3" chooses several where several are asked for)
  c N             show the whole text of the card of option N
  h               show your hand with the text of every card
  t               show the table again (everyone's Goods and cards, the board)
  q               stop the game
An empty Enter chooses nothing; the question is asked again. Where you may stop choosing early,
the last option says so ("done")."""


class Stopped(Exception):
    """The person typed q (or the input ended): the game stops here."""


@dataclass(frozen=True)
class Option:
    """One numbered answer: what is printed, what it stands for, and the card it is about (if any)."""

    label: str
    value: Any
    card: str | None = None  # card id: its summary is shown beside it, its text on `c N`
    done: bool = False  # the "done" option of an "up to" question


def option_label(game, value, chooser: int) -> str:
    """An option in printed words: a card's name (and whose, when not the chooser's), a player's name,
    a Good's printed name, a menu's or a move's own label."""
    from .context import HowMany

    if isinstance(value, HowMany):
        return value.label
    label = getattr(value, "label", None)
    if isinstance(label, str):
        return label
    if isinstance(value, int) and not isinstance(value, bool) and value in game.instances:
        inst = game.instances[value]
        owner = inst.owner if inst.owner is not None else game.where.get(value, (None, None))[1]
        whose = "" if owner is None or owner == chooser else f" ({game.players[owner].name}'s)"
        return card_name(game, value) + whose
    if isinstance(value, tuple) and len(value) == 2 and value[0] == "player":
        return game.players[value[1]].name
    if isinstance(value, str) and value in game.model.goods:
        return game.model.good_name(value)
    if isinstance(value, str) and value in game.cards:
        return str(game.cards[value].get("name", value))
    return str(value)


def render_table(view: TableView) -> Group:
    """The table as rich renderables: a row per player (Goods, cards in hand), what lies in front of
    each player, the shared board, your hand."""
    parts: list = []
    players = Table(title=Text(view.title, style="bold"), expand=False)
    players.add_column("player")
    players.add_column("Goods")
    if view.has_hand:
        players.add_column("cards in hand", justify="right")
    for s in view.seats:
        who = Text(s.name + (" (you)" if s.you else ""), style="bold" if s.you else "")
        if s.to_act:
            who.append(" ◀ to play", style="cyan")
        if s.out:
            who.append(" — out of the game", style="red")
        players.add_row(who, Text(s.goods), *([Text(str(s.hand))] if view.has_hand else []))
    parts.append(players)
    for s in view.seats:
        if s.sections:
            parts.append(Panel(_sections(s.sections), title=Text(("your" if s.you else f"{s.name}'s") + " side"),
                               title_align="left", expand=False))
    for sec in view.board:
        parts.append(Panel(_section_body(sec), title=Text(sec.title), title_align="left", expand=False))
    if view.has_hand:
        hand = Table(title=Text("your hand"), title_justify="left", show_header=False, box=None, pad_edge=False)
        hand.add_column()
        hand.add_column(style="dim")
        for c in view.hand:
            hand.add_row(Text(c.name), Text(c.summary))
        parts.append(hand if view.hand else Text("your hand is empty", style="dim"))
    return Group(*parts)


def _sections(sections: tuple[Section, ...]):
    if not sections:
        return Text("nothing", style="dim")
    grid = Table.grid(padding=(0, 1))
    grid.add_column(style="dim")
    grid.add_column()
    for sec in sections:
        grid.add_row(Text(sec.title + ":"), _section_body(sec))
    return grid


def _section_body(sec: Section):
    if sec.grid:
        t = Table(show_header=False, show_lines=True, pad_edge=True)
        for _ in sec.grid[0]:
            t.add_column(justify="center")
        for row in sec.grid:
            t.add_row(*(Text(cell) for cell in row))
        return t if not sec.lines else Group(t, Text("\n".join(sec.lines)))
    text = Text("\n".join(sec.lines))
    text.no_wrap = any(len(line) > 40 for line in sec.lines) and len(sec.lines) > 1  # a map keeps its rows
    return text


class TerminalAgent(Agent):
    """The person at the terminal: sees the table before each of their moves, answers by number."""

    name = "terminal"

    def __init__(self, seat: int, console: Console | None = None, read=None):
        self.seat = seat
        self.console = console or Console(highlight=False)
        self._read = read or (lambda prompt: self.console.input(prompt))
        self.shown = 0  # how much of the game's trace the person has seen

    def __deepcopy__(self, memo):
        """A copied game (a bot's trial) keeps the same person: the console and the keyboard are not
        copied (they cannot be), and the bots' playouts seat their own agents in any case."""
        return self

    # --- what is shown -------------------------------------------------------------------------------
    def show_trace(self, game) -> None:
        """The trace since it was last shown: what happened before the person is asked anything."""
        for ev in game.log[self.shown:]:
            self.console.print(Text("  " + str(ev), style="dim"))
        self.shown = len(game.log)

    def show_table(self, game, to_act: int | None = None) -> None:
        self.console.print(render_table(table_view(game, self.seat, to_act)))

    def show_hand(self, game) -> None:
        view = table_view(game, self.seat)
        if not view.hand:
            self.console.print(Text("your hand is empty"))
        for c in view.hand:
            self.console.print(Panel(Text("\n".join(card_text(game, game.instances[c.uid].card_id))), expand=False))

    # --- asking --------------------------------------------------------------------------------------
    def options_for(self, game, values) -> list[Option]:
        out = []
        for v in values:
            card = card_of(game, v)
            out.append(Option(option_label(game, v, self.seat), v, card))
        return out

    def ask(self, game, options: list[Option], question: str, k: int = 1, low: int | None = None) -> list:
        """``k`` options (at least ``low``, default ``k``) chosen by number; the numbers stay the same
        until the question is answered. Stopped when the person types q or the input ends."""
        least = k if low is None else low
        if least < k:  # "up to": the last number stops choosing
            options = options + [Option("done (choose no more)", None, None, done=True)]
        picks: list[int] = []
        self._print_options(game, options, set())
        while True:
            need = (f"up to {k}" if least < k else f"{len(picks) + 1} of {k}") if k > 1 else ""
            if picks and least < k:
                need += f", {len(picks)} chosen"
            prompt = f"{question}{f' ({need})' if need else ''} [1-{len(options)}, ? for help]: "
            try:
                answer = self._read(prompt).strip().lower()
            except EOFError:
                raise Stopped() from None
            if answer in ("q", "quit"):
                raise Stopped()
            if answer in ("?", "help"):
                self.console.print(Text(HELP))
                self.console.print(Text(f"Now: {question}" + (f" — choose {k}" if k > 1 else "")
                                        + (f" (at least {least})" if least < k else "") + "."))
                continue
            if answer in ("t", "table"):
                self.show_table(game)
                self._print_options(game, options, set(picks))
                continue
            if answer in ("h", "hand"):
                self.show_hand(game)
                continue
            m = re.fullmatch(r"c\s*([0-9]+)", answer)
            if m:
                self._show_card(game, options, int(m.group(1)))
                continue
            numbers = re.findall(r"[0-9]+", answer)
            if not answer or not numbers or re.sub(r"[0-9,\s]", "", answer):
                self.console.print(Text(f"type a number from 1 to {len(options)} (? for help)"))
                continue
            for n in map(int, numbers):
                if not 1 <= n <= len(options):
                    self.console.print(Text(f"{n} is not an option: 1 to {len(options)}"))
                    break
                if n in picks:
                    self.console.print(Text(f"{options[n - 1].label} is chosen already"))
                    break
                if options[n - 1].done:
                    if len(picks) >= least:
                        return [options[i - 1].value for i in picks]
                    self.console.print(Text(f"choose at least {least} first"))
                    break
                picks.append(n)
                if len(picks) == k:
                    return [options[i - 1].value for i in picks]
            if k > 1 and picks:
                self.console.print(Text("chosen: " + ", ".join(options[i - 1].label for i in picks)))

    def _print_options(self, game, options: list[Option], chosen: set[int]) -> None:
        table = Table(show_header=False, box=None, pad_edge=False)
        table.add_column(justify="right", style="bold")
        table.add_column()
        table.add_column(style="dim")
        for i, opt in enumerate(options, 1):
            label = Text(("✓ " if i in chosen else "") + opt.label)
            detail = card_summary(game, opt.card, with_text=True) if opt.card is not None else ""
            table.add_row(f"{i}.", label, Text(detail))
        self.console.print(table)

    def _show_card(self, game, options: list[Option], n: int) -> None:
        if not 1 <= n <= len(options):
            self.console.print(Text(f"{n} is not an option: 1 to {len(options)}"))
        elif options[n - 1].card is None:
            self.console.print(Text(f"option {n} is not about a card"))
        else:
            self.console.print(Panel(Text("\n".join(card_text(game, options[n - 1].card))), expand=False))

    # --- the Agent interface -------------------------------------------------------------------------
    def pick(self, match, moves):
        game = match.game
        self.show_trace(game)
        self.show_table(game, match.to_act())
        return self.ask(game, self.options_for(game, moves), "your move")[0]

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        self.show_trace(game)  # a choice inside an effect: first what led to it
        options = list(options)
        return self.ask(game, self.options_for(game, options), _question(game, prompt), k, low)

    def choose_move(self, game, player, moves):
        self.show_trace(game)
        self.show_table(game, player)
        return self.ask(game, self.options_for(game, moves), "your move")[0]


def _question(game, prompt: str) -> str:
    """An effect's prompt in printed words: zone and Good keys as the game prints them."""
    model = game.model
    words = []
    for w in (prompt or "choose").split(" "):
        if "_" in w and w in model.zones:  # a zone's key (a verb may share a one-word zone's name: scrap)
            w = model.zone_name(w).lower()
        elif "_" in w and w in model.goods:
            w = model.good_name(w)
        words.append(w.replace("_", " "))
    return " ".join(words)


def game_over(game, result, you: int) -> str:
    """The end in plain words, with the grammar of "you": "You win with 12 points." or "Bot 2 wins
    with 31 points; you have 20." (the Result's reason names players in the third person)."""
    names = [("you" if s == you else p.name) for s, p in enumerate(game.players)]
    scores = result.scores
    if not result.winners:
        return f"Game over: {result.reason}; nobody wins."
    winners = [names[s] for s in result.winners]
    if len(winners) == 1:
        w = winners[0]
        verb = "win" if w == "you" else "wins"
        line = f"{w[0].upper()}{w[1:]} {verb}"
    else:
        both = " and ".join(winners)
        line = both[0].upper() + both[1:] + " share the win"
    if scores:
        best = scores[result.winners[0]]
        line += f" with {best} point{'s' if best != 1 else ''}"
        if you not in result.winners and you < len(scores):
            line += f"; you have {scores[you]}"
        others = [f"{game.players[s].name} {v}" for s, v in enumerate(scores) if s != you]
        line += f" (scores: you {scores[you]}, {', '.join(others)})" if others else ""
    return f"Game over: {line}."
