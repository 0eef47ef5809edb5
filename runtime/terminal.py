"""The person at the terminal as an agent: every choice is a numbered list typed into (the runtime's
Agent interface, runtime/agents.py), so ``play`` seats a person where a bot would sit."""
from __future__ import annotations

import click

from .agents import Agent


class TerminalAgent(Agent):
    """The person at the terminal: every choice is a numbered list."""

    name = "terminal"

    def __init__(self):
        self.shown = 0  # how much of the game's trace the person has seen

    def show_trace(self, game) -> None:
        """The trace since it was last shown: what happened before the person is asked anything."""
        for ev in game.log[self.shown:]:
            click.echo(f"   {ev}")
        self.shown = len(game.log)

    @staticmethod
    def pick_numbered(options, prompt: str, default: int = 1):
        """The option whose number is typed; Enter takes ``default`` (an "up to" choice: done)."""
        for i, opt in enumerate(options, 1):
            click.echo(f"  {i:>3}. {getattr(opt, 'label', opt)}")
        enter = "" if default == 1 else f", Enter = {default}"
        while True:
            answer = click.prompt(f"{prompt} [1-{len(options)}{enter}, q to stop]", default=str(default),
                                  show_default=False)
            if answer.strip().lower() in ("q", "quit"):
                return None
            if answer.strip().isdigit() and 1 <= int(answer) <= len(options):
                return options[int(answer) - 1]
            click.echo(f"  type a number from 1 to {len(options)}")

    def pick(self, match, moves):
        return self.pick_numbered(moves, "your move")

    def choose(self, game, player, options, k=1, low=None, prompt=""):
        self.show_trace(game)  # a choice inside an effect: first what led to it
        options = list(options)
        least = k if low is None else low
        picks: list = []
        while len(picks) < k:
            left = [o for o in options if o not in picks]
            if not left:
                break
            shown = [_Option(o, game) for o in left]
            if len(picks) >= least:
                shown.append(_Option(None, game, "done"))
            # once enough is chosen, Enter means done: pressing it never takes more than asked for
            got = self.pick_numbered(shown, f"{prompt or 'choose'} ({len(picks) + 1} of {k})",
                                     len(shown) if len(picks) >= least else 1)
            if got is None:
                raise click.Abort()
            if got.value is None:
                break
            picks.append(got.value)
        return picks


class _Option:
    def __init__(self, value, game, text: str | None = None):
        self.value = value
        if text is None:
            from .context import Ctx

            text = Ctx(game, 0).describe(value) if value is not None else "done"
        self.label = text
