"""Balance: many seeded games of one game with bots, reported as JSON and HTML (simulate)."""
from __future__ import annotations

import sys
from pathlib import Path

import click

from compiler.diagnostics import display_path

from .common import (GAME, FORMATS, MAX_PLAYERS, Progress, UsageProblem, data_option, game_names, game_options,
                     given_options, is_bundled,
                     only_game, output_dir, unknown_game)


@click.command()
@click.argument("game", required=False, type=GAME)
@data_option
@click.option("--games", type=click.IntRange(min=1), default=1000, show_default=True, help="How many games to play.")
@click.option("--players", type=click.IntRange(min=2, max=MAX_PLAYERS), default=2, show_default=True,
              help="Players per game; the game's own setup may allow fewer (its deck decides).")
@click.option("--seed", type=int, default=0, show_default=True, help="Game i is seeded from (seed, i).")
@click.option("--jobs", type=click.IntRange(min=1), default=1, show_default=True,
              help="Worker processes; the result is the same whatever this is.")
@click.option("--agents", "--agent", "agent", default="random", show_default=True,
              help="first, random, greedy, mcts (or mcts:N playouts), one per seat separated by commas "
                   "(e.g. mcts,random).")
@click.option("--turn-cap", type=click.IntRange(min=1), default=200, show_default=True,
              help="A game still running after this many turns (or rounds) stops without a winner (reported).")
@click.option("--check-moves", is_flag=True, help="Check the invariants after every move, not only after every game.")
@click.option("--out", type=click.Path(file_okay=False), default="build/simulate", show_default=True,
              help="Folder for <game>-<players>p-seed<seed>.json and .html.")
@click.option("--compare", "compare_with", metavar="OTHER",
              help="Also play OTHER — another data folder, or REV:PATH of a git revision as `diff` reads — with "
                   "the same seeds, and report what changed in the data beside what changed in the results.")
@click.option("--executor", type=click.Choice(["local", "dask"]), default="local", show_default=True,
              help="local: this machine's processes (--jobs); dask: a Dask distributed cluster (--scheduler; "
                   "without it a local cluster of --jobs workers is started for the run).")
@click.option("--scheduler", metavar="ADDRESS",
              help="The Dask scheduler's address, e.g. tls://10.0.0.5:8786. Its results are unpickled: the "
                   "scheduler and workers can run code as you, so use only a cluster you run, over TLS or a "
                   "private network (docs/security.md).")
@click.option("--trace", "trace", type=click.IntRange(min=0), default=0, show_default=True, metavar="N",
              help="Write the full trace of the first N games beside the report (<stem>-trace-<i>.txt).")
@click.option("--format", "fmt", type=FORMATS, default="text", show_default=True)
@game_options
def simulate(game, data, games, players, seed, jobs, agent, turn_cap, check_moves, compare_with, executor,
             scheduler, out, fmt, option_pairs, packs, trace):
    """Play GAME many times with seeded agents and report the deck's balance (JSON + HTML).

    Any game of the data folder plays (default: ./data when it holds a game, else the bundled games,
    which play from their compiled code in generated/); GAME may be left out when the folder holds one.

    \b
    Examples:
      cardwright simulate infernal_contraption --games 200 --agents greedy,random
      cardwright simulate --data data --games 50 --players 3 --seed 7 --format json
    """
    import json

    import time

    from compiler.build import load_game_folder
    from runtime.errors import Refused, RulesError
    from runtime.simulate import SimConfig, check_config, refusals_text, render_html
    from runtime.simulate import simulate as run_sim

    game = only_game(data, game)
    given = given_options(option_pairs, packs)
    # the bundled games play from generated/ (data None); any other folder is compiled in memory
    cfg = SimConfig(game, games, players, seed, agent, turn_cap, jobs, None if is_bundled(data) else str(data),
                    check_moves, executor, scheduler, trace=trace, loader=load_game_folder,
                    options=tuple((k, tuple(v) if isinstance(v, list) else v) for k, v in sorted(given.items())))
    traces: dict[int, str] = {}
    start = time.perf_counter()
    try:
        check_config(cfg)
        with Progress(games, f"simulating {game}") as step:
            result = run_sim(cfg, progress=step, traces=traces)
    except ModuleNotFoundError:
        raise UsageProblem(f"no compiled game '{game}' (run `cardwright compile`)") from None
    except ValueError as exc:  # runtime/simulate.py words what cannot be run: agents, players, the data
        raise UsageProblem(str(exc)) from None
    except (RulesError, Refused) as exc:  # the game's own setup refused these players (its tables, its deck)
        raise UsageProblem(f"{game} cannot be played by {players} players: {exc}") from None
    elapsed = time.perf_counter() - start
    out_dir = output_dir(Path("."), "", out)
    out_dir.mkdir(parents=True, exist_ok=True)
    # options given on the command line name the files, so that runs of other options do not overwrite them
    stem = f"{game}-{players}p-seed{seed}" + "".join(
        f"-{k}-{'+'.join(map(str, v)) if isinstance(v, list) else v}" for k, v in sorted(given.items()))
    json_path, html_path = out_dir / f"{stem}.json", out_dir / f"{stem}.html"
    json_path.write_text(json.dumps(result, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    html_path.write_text(render_html(result), encoding="utf-8")
    trace_paths = [out_dir / f"{stem}-trace-{i}.txt" for i in sorted(traces)]
    for i, path in zip(sorted(traces), trace_paths):
        path.write_text(traces[i] + "\n", encoding="utf-8")
    if fmt == "json":
        click.echo(json.dumps({"result": str(json_path), "report": str(html_path), "seconds": round(elapsed, 3),
                               "traces": [str(p) for p in trace_paths]}))
        return
    click.echo(f"{games} games of {game}, {players} players, agents {agent}, seed {seed}: "
               f"{games / elapsed:.0f} games/s with {jobs} job{'s' if jobs != 1 else ''}")
    if result.get("options_text"):
        click.echo("  options: " + "; ".join(result["options_text"]))
    if result["stand_ins"]:
        click.echo(f"  played with {len(result['stand_ins'])} stand-in rules (not the published game): "
                   + "; ".join(i["what"] for i in result["stand_ins"]))
    rates = ", ".join(f"seat {s}: {v:.1%}" for s, v in result["win_rate_by_seat"].items())
    click.echo(f"  win rate by seat (seat 1 decided first): {rates}")
    if "," in agent:
        by_agent = ", ".join(f"{a}: {v:.1%}" for a, v in result["win_rate_by_agent"].items())
        click.echo(f"  win rate per player of each agent: {by_agent}")
    ln = result["length"]
    click.echo(f"  game length in {ln.get('unit', 'turns')}: mean {ln['mean']}, median {ln['median']}, min {ln['min']}, max {ln['max']}")
    click.echo(f"  games that hit the turn cap ({turn_cap}): {result['capped']['count']}")
    click.echo("  how the games ended: " + "; ".join(f"{why} x{k}" for why, k in result["end_reasons"].items()))
    inv = result["invariants"]
    click.echo(f"  invariants checked {inv['checked']}: {inv['games_broken']} games broke one")
    click.echo(f"  cards never activated: {', '.join(result['never_activated']) or 'none'}")
    click.echo("  " + refusals_text(result["flow_refusals"]))
    click.echo(f"  wrote {display_path(json_path)} and {display_path(html_path)}")
    if trace_paths:
        click.echo(f"  wrote the traces of games 0 to {len(trace_paths) - 1}: {display_path(trace_paths[0])} …")
    if compare_with:
        _simulate_compare(cfg, result, compare_with, data, out_dir, stem)
    if inv["games_broken"]:
        sys.exit(1)


def _simulate_compare(cfg, result: dict, other_spec: str, this_root: Path, out_dir: Path, stem: str) -> None:
    """``simulate --compare OTHER``: the same run on OTHER's data, and the page that sets the data's
    changes (compiler/carddiff.py, in English) beside the results' changes (runtime/simulate.compare)."""
    import json
    import tempfile

    from compiler.carddiff import git_tree
    from runtime.stats import interval_text

    with tempfile.TemporaryDirectory(prefix="cardwright-compare-") as tmp:
        if Path(other_spec).exists():
            other_root = Path(other_spec)
        elif ":" in other_spec:
            other_root = git_tree(other_spec, Path.cwd(), Path(tmp) / "other")
            if isinstance(other_root, str):
                raise UsageProblem(other_root)
        else:
            raise click.BadParameter(f"'{other_spec}' is neither a folder nor REV:PATH", param_hint="'--compare'")
        if cfg.game not in game_names(other_root):
            raise UsageProblem(unknown_game(cfg.game, game_names(other_root), display_path(other_root)))
        try:
            with Progress(cfg.games, f"simulating {cfg.game} ({other_spec})") as step:
                cmp, page = compare_runs(cfg, result, other_root, this_root, other_spec, progress=step)
        except ValueError as exc:
            raise UsageProblem(str(exc)) from None
    json_path, html_path = out_dir / f"{stem}-compare.json", out_dir / f"{stem}-compare.html"
    json_path.write_text(json.dumps(cmp, indent=2, sort_keys=True) + "\n", encoding="utf-8")
    html_path.write_text(page, encoding="utf-8")
    click.echo(f"  compared with {other_spec} (same seeds):")
    for s, d in cmp["seats"].items():
        if d["difference"] is not None:
            click.echo(f"    seat {s}: {d['this']:.1%} against {d['other']:.1%}, change {d['difference']:+.1%} "
                       f"{interval_text(d['low'], d['high'], 0.0, True)}{' — beyond noise' if d['finding'] else ''}")
    found = [c["name"] for c in cmp["cards"].values() if (c.get("won_when_played") or {}).get("finding")]
    click.echo(f"    cards whose win rate when played changed beyond noise: {', '.join(found) or 'none'}")
    click.echo(f"  wrote {display_path(json_path)} and {display_path(html_path)}")


def compare_runs(cfg, result: dict, other_root: Path, this_root: Path, other_name: str, progress=None):
    """The run ``cfg`` (whose result is ``result``) played again with the same seeds on the data in
    ``other_root``: returns the comparison (runtime/simulate.compare, with the data's changes in
    English as ``data_changes``, compiler/carddiff.py) and its HTML page. Shared by ``simulate
    --compare`` and the studio. ValueError when the other data cannot be played so."""
    import dataclasses

    from compiler.build import load_game_folder
    from compiler.carddiff import diff_trees, render_text
    from runtime.simulate import compare, render_compare_html
    from runtime.simulate import simulate as run_sim

    other = run_sim(dataclasses.replace(cfg, data=str(other_root), loader=load_game_folder), progress=progress)
    changes = diff_trees(other_root, this_root)
    # the same game only: the folders may hold other games, whose changes are not this comparison's
    changes.games = [gd for gd in changes.games if gd.game == cfg.game]
    lines = render_text(changes)
    cmp = compare(result, other)
    cmp["data_changes"] = lines
    return cmp, render_compare_html(result, other, cmp, lines, "this data", other_name)
