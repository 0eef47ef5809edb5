"""Playing the compiled game: scenario files (run) and a game against bots at the terminal (play)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from compiler.diagnostics import Diagnostics, display_path

from .common import (GAME, MAX_PLAYERS, GameLoader, UsageProblem, data_option, emit, format_option, game_options,
                     given_options, only_game)


@click.command()
@click.argument("scenario", nargs=-1, required=True, type=click.Path(exists=True, dir_okay=False))
@data_option
@format_option
@click.option("--quiet", is_flag=True, help="Do not print the trace.")
def run(scenario, data, fmt, quiet):
    """Play one or more SCENARIO files with the compiled cards and print their traces.

    \b
    Examples:
      cardwright run data/mygame/scenarios/first_card.yaml
      cardwright run data/*/scenarios/*.yaml --quiet --format json
    """
    from compiler.scenario import load_scenario

    compiled_for = GameLoader(data, fresh=True)
    diags = Diagnostics()
    reports = []
    for path in scenario:
        # each file is judged on its own diagnostics: one failing scenario never marks the next FAILED
        own = Diagnostics()
        sc = load_scenario(Path(path), compiled_for, own)
        if sc is None:
            diags.extend(own)
            continue
        r = sc.run()  # its diagnostics are `own`: what loading and running this file found
        diags.extend(own)
        reports.append({"scenario": r.name, "file": display_path(path), "ok": r.ok,
                        "outcomes": [o.status for o in r.outcomes], "trace": r.trace().splitlines()})
        if fmt == "text":
            click.echo(f"== {r.name} ({display_path(path)})")
            if not quiet:
                click.echo(r.trace())
            click.echo("ok" if r.ok else "FAILED")
    emit(diags, fmt, {"scenarios": reports})
    sys.exit(0 if not diags.errors else 1)


@click.command()
@click.argument("game", required=False, type=GAME)
@data_option
@click.option("--players", type=click.IntRange(min=2, max=MAX_PLAYERS), default=2, show_default=True)
@click.option("--seat", type=click.IntRange(min=1, max=MAX_PLAYERS), default=1, show_default=True,
              help="Your seat; the other seats are bots.")
@click.option("--bots", default="greedy", show_default=True,
              help="The other seats' agents (first, random, greedy, mcts, mcts:N), one per seat separated by commas.")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--name", default="You", show_default=True, help="Your name in the trace.")
@game_options
def play(game, data, players, seat, bots, seed, name, option_pairs, packs):
    """Play GAME in the terminal against bots, as a player at the table sees it.

    Your hand, your tableau, the shared board and everyone's Goods are shown before each of your
    moves; choose by number (the numbers stay the same while the options do), ? for help, q to stop.

    \b
    Examples:
      cardwright play infernal_contraption
      cardwright play age_of_steam --players 3 --bots greedy,mcts --seed 7
    """
    from runtime.engine import engine_for
    from runtime.errors import Refused, RulesError
    from runtime.simulate import agent_list
    from runtime.standins import stand_ins
    from runtime.terminal import Stopped, TerminalAgent, game_over

    game = only_game(data, game)
    try:
        compiled = GameLoader(data)(game)
    except LookupError as exc:
        raise UsageProblem(str(exc)) from None
    if seat > players:
        raise UsageProblem(f"seat {seat} of {players} players")
    eng = engine_for(compiled)
    if eng.playable(compiled):
        raise UsageProblem(eng.playable(compiled))
    you = seat - 1
    try:
        kinds = agent_list(bots, players - 1, eng)
        agents = {s: eng.make_agent(kinds[i]) for i, s in enumerate(x for x in range(players) if x != you)}
    except ValueError as exc:
        raise UsageProblem(str(exc)) from None
    terminal = agents[you] = TerminalAgent(you, console=_console())
    names_ = [name if s == you else f"Bot {s + 1}" for s in range(players)]
    try:
        eng.check_players(compiled, players)
    except (RulesError, Refused) as exc:
        raise UsageProblem(f"{compiled.game} cannot be played by {players} players: {exc}") from None
    from runtime.model import model_of
    from runtime.options import describe

    try:
        options = eng.match_options(compiled, given_options(option_pairs, packs))
    except ValueError as exc:  # OptionError: an option the game does not declare, a value it does not allow
        raise UsageProblem(str(exc)) from None
    if options:
        click.echo("Options: " + "; ".join(describe(model_of(compiled.vocab).options, options)))
    # before the setup, which may already ask you something (51st State: the 2 cards to discard)
    marks = stand_ins(compiled)
    if marks:
        click.echo(f"Note: this game is played with {len(marks)} stand-in rule{'s' if len(marks) != 1 else ''} "
                   "(not the published game):")
        for m in marks:
            click.echo(f"  ‡ {m['what']}: {m['note']}")
    try:
        match = eng.new_match(compiled, names_, seed=seed, agents=agents, options=options)
    except (RulesError, Refused) as exc:
        raise UsageProblem(f"{compiled.game} cannot be played by {players} players: {exc}") from None
    except Stopped:
        click.echo("stopped.")
        return
    g = match.game
    try:
        while not match.terminal():
            who = match.to_act()
            moves = match.legal_moves()
            move = agents[who].pick(match, moves)
            terminal.show_trace(g)
            terminal.console.print(f"{g.players[who].name} » {move.label}", markup=False, highlight=False)
            match.apply(move)
    except Stopped:
        click.echo("stopped.")
        return
    terminal.show_trace(g)
    terminal.show_table(g)
    click.echo(game_over(g, match.result(), you))
    if g.flow_refusals:  # the trace showed each; the summary says they cut the flow's texts short
        from runtime.simulate import flow_refusals, refusals_text

        click.echo(refusals_text(flow_refusals([{"index": 0, "flow_refusals": g.flow_refusals}])))


def _console():
    """rich's console on standard output, looked up at each print (click's test runner swaps it) and
    sized by the terminal; colour only on a terminal."""
    from rich.console import Console

    return Console(highlight=False)
