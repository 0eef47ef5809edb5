"""Balance simulation: play many seeded games of any compiled game and measure the deck.

``simulate(config)`` plays ``config.games`` games through the one game protocol
(runtime/protocol.py: ``Engine.new_match``, ``Match.legal_moves``/``apply``/``result``) with the
agents the engine names (``Engine.agents``: first, random, greedy, mcts, …) — one process or several
— and returns a plain dict (the JSON result): win rate by seat, game lengths, how often each card was
played (and activated, where the engine counts it), cards never used, games that hit the turn cap,
the invariants checked, the stand-in rules the game declares. There is no code of any one game here:
what differs between games is behind the protocol and the engine's hooks (``stats``,
``reported_cards``, ``make_agent``). ``render_html(result)`` draws the same as an offline HTML page
with inline SVG charts (no JS).

Determinism: game ``i`` is seeded from ``(seed, i)`` alone (``game_seed``) and results are
aggregated in game order, so the result is identical whatever ``jobs`` is. Timings are not part of
the result (they vary from run to run); the caller measures them.

Invariants: after every game (and after every move with ``check_moves``) every invariant the engine
declares holds (``Engine.invariants``: card conservation and Goods never negative unless signed for
every game, plus what each game's rules imply — the Moon's track geometry, …), and the legal moves of
a running game are never empty; a broken invariant is recorded in the game's record and counted in
the result, which names the invariants checked.

This module never prints: progress is reported through a callback (``cli.py`` draws the bar).
"""
from __future__ import annotations

import hashlib
import statistics
from collections import Counter
from dataclasses import dataclass
from typing import Callable, Iterable

from .engine import Engine, engine_for, load_compiled, takes_keyword
from .errors import Refused, RulesError
from .model import model_of
from .stats import interval_text


@dataclass(frozen=True)
class SimConfig:
    game: str
    games: int = 1000
    players: int = 2
    seed: int = 0
    agent: str = "random"  # one agent name, or one per seat separated by commas ("mcts,random")
    turn_cap: int = 200
    jobs: int = 1
    data: str | None = None  # a data folder compiled in memory; None: the compiled generated/ package
    check_moves: bool = False  # check the invariants after every move, not only after every game
    executor: str = "local"  # "local": this machine's processes (--jobs); "dask": a Dask distributed cluster
    scheduler: str | None = None  # the Dask scheduler's address ("tcp://host:8786"), for executor "dask";
    # None: a local Dask cluster is started for the run (as ``distributed.Client()`` does), --jobs workers
    trace: int = 0  # the first ``trace`` games keep their full trace (``traces``); the rest trace nothing
    # How ``data`` becomes a compiled game: loader(game, data) -> CompiledGame. The application passes
    # the compiler's (compiler.build.load_game_folder); runtime/ never imports compiler/ (DESIGN §9).
    # A module-level function, so it pickles by name to the worker processes and the Dask workers.
    loader: Callable | None = None
    # the game's options (game.yaml ``options``, runtime/options.py) as given: ((name, value), …), a list
    # value as a tuple (the config is frozen and pickled); checked and completed with the defaults by
    # ``check_config`` / ``play_one`` through ``Engine.match_options``
    options: tuple = ()

    def given_options(self) -> dict:
        return {k: list(v) if isinstance(v, tuple) else v for k, v in self.options}


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``: independent of process and order."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{index}".encode()).digest()[:8], "big")


# --- one game (runs in a worker process) --------------------------------------------------------

_COMPILED: dict = {}


def _compiled(game: str, data: str | None = None, loader: Callable | None = None):
    key = (game, data)
    if key not in _COMPILED:
        if data is None:
            _COMPILED[key] = load_compiled(game)
        elif loader is None:
            raise ValueError(f"simulating the data in {data} needs a loader that compiles it (SimConfig.loader)")
        else:
            _COMPILED[key] = loader(game, data)
    return _COMPILED[key]


def agent_list(spec: str, players: int, engine=None) -> list[str]:
    """One agent name per seat from ``random`` / ``mcts`` / a comma list by seat ("greedy,random": P1
    greedy, P2 random, then cycling), so a designer can check that playing well beats playing at
    random. Names are checked against the engine's ``agents`` table."""
    names = [a.strip() for a in spec.split(",") if a.strip()]
    table = (engine or Engine()).agents
    bad = [a for a in names if a.partition(":")[0] not in table]
    if not names or bad:
        raise ValueError(f"unknown agent {', '.join(map(repr, bad)) or repr(spec)} (agents: {', '.join(sorted(table))})")
    return [names[i % len(names)] for i in range(players)]


def play_one(args: tuple) -> dict:
    """Play game ``index`` of a run and return its record (plain values only, for pickling)."""
    game_name, data, players, seed, index, agent, turn_cap, check_moves, loader, options, traced = args
    compiled = _compiled(game_name, data, loader)
    eng = engine_for(compiled)
    gs = game_seed(seed, index)
    kinds = agent_list(agent, players, eng)
    agents = {i: eng.make_agent(kinds[i]) for i in range(players)}
    # the protocol's new_match (runtime/protocol.py): the turn cap is the simulator's, not the engine's
    match = _new_match(eng, compiled, players, gs, agents, dict(options), tracing=traced)
    g = match.game
    # tracing changes nothing of a game's course (the pinned reports hold it): it only writes the log
    g.tracing = traced
    eng.count_stats(g)
    problems: list[str] = []
    first = match.to_act()
    moves = 0
    stopped = False
    while not match.terminal():
        if g.turn_number > turn_cap or g.round > turn_cap:
            stopped = True  # turns (or rounds) begun past the cap: stopped without a winner
            break
        legal = match.legal_moves()
        if not legal:
            problems.append(f"no legal move for seat {match.to_act()} in a running game")
            break
        match.apply(agents[match.to_act()].pick(match, legal))
        moves += 1
        if check_moves:
            problems += eng.check_invariants(g)
    problems += eng.check_invariants(g)
    result = match.result() if match.terminal() else None
    winners = list(result.winners) if result else []
    capped = stopped or (bool(result) and not winners and result.reason.startswith("turn cap"))
    winner = winners[0] if len(winners) == 1 else None
    seat = None if winner is None or first is None else (winner - first) % players
    stats = eng.stats(g)
    if stopped:
        ended = f"stopped at the simulator's turn cap ({turn_cap})"
    elif result is None:
        ended = "no legal move in a running game"
    else:
        ended = end_reason(result)
    extra = {}
    if traced:  # the game's own log, between a line saying which game it is and one saying how it ended
        seats = ", ".join(f"{g.players[i].name} {kinds[i]}" for i in range(players))
        extra["trace"] = (f"{game_name}, game {index} of the run (game seed {gs}); agents: {seats}\n"
                          f"{g.trace_text()}\n"
                          f"result: {result.reason if result else ended}")
    return {**extra, "ended": ended, "index": index, "seed": gs, "first": first, "winner": winner,
            "winners": winners, "winner_seat": seat, "turns": g.turn_number, "moves": moves, "capped": capped,
            # a game played in rounds of simultaneous phases (51st State, the Moon) begins no turns
            **_from_events(g, players),
            "tableau_by": _tableau_by_player(eng, g, players),
            "scores": list(result.scores) if result else [], "reason": result.reason if result else "",
            "plays": dict(stats.get("plays") or {}), "activations": dict(stats.get("activations") or {}),
            "counts_activations": "activations" in stats, "problems": problems[:20],
            "flow_refusals": {k: list(v) for k, v in sorted(g.flow_refusals.items())}}


def _new_match(eng, compiled, players: int, seed: int, agents, options: dict, tracing: bool = True):
    """A new game through the protocol, with the game's options (game.yaml ``options``, resolved).
    ``tracing=False`` reaches an engine whose ``new_match`` takes it (the core's and every
    bundled game's: tests/test_setup_without_trace.py), so that its set-up writes no trace nobody
    reads; an engine whose ``new_match`` does not take it (one written before it, a test's) traces its
    set-up, and ``play_one`` turns tracing off after it, as before."""
    names = [f"P{i + 1}" for i in range(players)]
    if not tracing and takes_keyword(type(eng).new_match, "tracing"):
        return eng.new_match(compiled, names, seed=seed, agents=agents, options=options, tracing=False)
    return eng.new_match(compiled, names, seed=seed, agents=agents, options=options)


def end_reason(result) -> str:
    """How a game ended, in words that name no player and no score, so that games can be counted by
    it: the engine's ``Result.ended``; an engine that does not say has its reason's clause after "the
    game ended: ", else its whole reason."""
    if result.ended:
        return result.ended
    head, sep, tail = result.reason.rpartition("the game ended: ")
    return tail if sep else result.reason


def _from_events(g, players: int) -> dict:
    """From the game's typed events, in one pass: the rounds begun, and per seat index the card ids
    of the copies it played / drew at least once (an id once per distinct copy, so a card with
    several copies can be counted per copy; the per-card win effects)."""
    rounds = 0
    by_kind = {"play": [set() for _ in range(players)], "draw": [set() for _ in range(players)]}
    instances = g.instances
    for ev in g.events:
        kind = ev.kind  # a class attribute: read once (no quick path for it through an instance)
        if kind == "round start":
            rounds += 1
        elif kind in by_kind:
            p = ev.player
            if p is not None and 0 <= p < players and ev.card in instances:
                by_kind[kind][p].add(ev.card)
    return {"rounds": rounds, "played_by": [_ids_of(g, uids) for uids in by_kind["play"]],
            "drawn_by": [_ids_of(g, uids) for uids in by_kind["draw"]]}


def _ids_of(g, uids) -> list[str]:
    """The card ids of these copies, sorted, an id repeated once per copy (a list made first: sorting a
    generator resumes it once per card, ~100 a simulated game)."""
    instances = g.instances
    return sorted([instances[u].card_id for u in uids])


def _tableau_by_player(eng, g, players: int) -> list[list[str]]:
    """For each player, the card ids in its tableau at the end (an id once per copy there), as the
    engine reads it (``Engine.tableau``: the zones of game.yaml's ``rules.tableau``)."""
    return [_ids_of(g, set(eng.tableau(g, p))) for p in range(players)]


_EFFECT_KINDS = (("played", "played_by"), ("drawn", "drawn_by"), ("tableau", "tableau_by"))


def _holdings(records: list[dict], players: int):
    """Per kind some game recorded (an engine that publishes no such events has none to compare):
    (kind, games), each game a list of its player-games as (win credit, card id -> copies held)."""
    for kind, key in _EFFECT_KINDS:
        if not any(any(r.get(key) or ()) for r in records):
            continue
        games = []
        for r in records:
            games.append([(win_credit(r, p), Counter(cards)) for p, cards in enumerate(r.get(key) or [[]] * players)])
        yield kind, games


def win_credit(record: dict, player: int) -> float:
    """How much of a win a player-game is: 1 for the sole winner, 1/k for each of k players sharing a
    win (a tie the tie-breaks left), 0 otherwise. Every win rate of the report counts wins so: a
    shared win is neither a loss nor a whole win, and the credits of a game sum to 1 (0 when nobody
    won), so an even share stays 1 / players."""
    winners = record["winners"]
    return 1 / len(winners) if player in winners else 0.0


METHOD_PEERS = "copy for copy against the other cards of the same kind and cost"
METHOD_RAW = "against every other player-game (not controlled: no other card of the same kind and cost)"


def card_effects(records: list[dict], players: int, card_ids, peer_keys: dict | None = None,
                 confounded: dict | None = None) -> dict:
    """Per card and per kind ("played", "drawn", "tableau": in the final tableau): does the card go
    with winning, beyond what any card of its sort does?

    The obvious confounder is that playing (holding) *any* card goes with winning — in 51st State
    every Location built is worth a VP, so the players who built more won more, whatever they built.
    So a card is compared with its **peers**, the other cards of the same kind and cost
    (``peer_keys``: card id -> key, ``Engine.peer_key``), copy for copy: each copy of the card a
    player played is one trial, scored with that player-game's win credit, against each copy of a
    peer a player played (``method`` METHOD_PEERS). Copy for copy, a player who played more cards
    of the sort weighs as much on both sides, so the count itself drops out; what remains is which
    of them it was. Only that comparison may be a ``finding`` (its 95 % interval excludes zero,
    runtime/stats.py). A card with no peer gets the plain comparison — player-games that played it
    against every other player-game (METHOD_RAW) —, shown but never a finding; every card also
    carries the plain one as ``raw``. A kind the engine declares confounded by how its game ends
    (``confounded``: kind -> why; Infernal Contraption's "drawn": drawing empties your own parts
    pile, which puts you out) carries the caveat and has no findings. Wins are credited as
    ``win_credit`` says (a k-way shared win: 1/k)."""
    from .stats import effect

    peer_keys = peer_keys or {}
    confounded = confounded or {}

    def key(cid):
        return peer_keys.get(cid, ("card", cid))

    groups: dict = {}
    for cid in card_ids:
        groups.setdefault(key(cid), set()).add(cid)
    out: dict = {}
    n = len(records) * players  # every player-game is on one side of the plain comparison
    for kind, games in _holdings(records, players):
        with_n: Counter = Counter()  # player-games that held the card (the plain comparison)
        with_k: Counter = Counter()
        copy_n: Counter = Counter()  # copies held, over all player-games (the comparison with peers)
        copy_k: Counter = Counter()
        wins = 0.0
        for game in games:
            for won, held in game:
                wins += won
                for cid, m in held.items():
                    with_n[cid] += 1
                    with_k[cid] += won
                    copy_n[cid] += m
                    copy_k[cid] += m * won
        group_n: Counter = Counter()
        group_k: Counter = Counter()
        for cid in copy_n:
            group_n[key(cid)] += copy_n[cid]
            group_k[key(cid)] += copy_k[cid]
        per_card = {}
        for cid in card_ids:
            if not with_n[cid]:
                continue
            raw = effect(with_k[cid], with_n[cid], wins - with_k[cid], n - with_n[cid])
            peers = sorted(groups[key(cid)] - {cid})
            if peers:
                g = key(cid)
                e = effect(copy_k[cid], copy_n[cid], group_k[g] - copy_k[cid], group_n[g] - copy_n[cid])
                e["method"] = METHOD_PEERS
            else:
                e = dict(raw, finding=False)
                e["method"] = METHOD_RAW
            e["peers"] = peers
            e["raw"] = {k: raw[k] for k in ("difference", "low", "high")}
            if kind in confounded:
                e["finding"] = False
                e["confounded"] = confounded[kind]
            per_card[cid] = e
        out[kind] = per_card
    return out


METHOD_COPIES = ("two or more copies against exactly one (not controlled: a further copy is also one card more, "
                 "so this is a screen, never a finding)")


def copy_effects(records: list[dict], players: int, copies: dict[str, int]) -> dict:
    """For each card with several copies in the deck and each kind (played, drawn, in the final
    tableau): the win rate of the player-games by how many of its copies the player had (0, 1, 2 …,
    each with its 95 % interval), and whether a further copy matters — the player-games with two or
    more against those with exactly one, the difference with its interval (``beyond_noise`` when the
    interval excludes zero; not controlled, so never a ``finding``: METHOD_COPIES). And per copy, how often a copy is played at all: the copy-games in which
    some player played it over copies × games."""
    from .stats import effect, rate

    multi = {cid: c for cid, c in copies.items() if c > 1}
    out: dict = {}
    if not multi:
        return out
    n_games = len(records)
    for kind, games in _holdings(records, players):
        # copies held (1 …) -> player-games and their wins; the player-games with none are the rest
        by_count: dict[str, Counter] = {cid: Counter() for cid in multi}
        won_by_count: dict[str, Counter] = {cid: Counter() for cid in multi}
        copy_games: Counter = Counter()  # copies of the card that some player had, summed over games
        wins = 0.0
        for game in games:
            in_game: Counter = Counter()
            for won, held in game:
                wins += won
                for cid, m in held.items():
                    if cid in multi:
                        m = min(m, multi[cid])
                        in_game[cid] += m
                        by_count[cid][m] += 1
                        won_by_count[cid][m] += won
            for cid, m in in_game.items():
                copy_games[cid] += min(m, multi[cid])  # a copy that changed hands counts once
        per_card = {}
        for cid, c in multi.items():
            counts, won = by_count[cid], won_by_count[cid]
            if not counts:
                continue  # no player ever had a copy: nothing to say per copy
            counts[0] = n_games * players - sum(counts.values())
            won[0] = wins - sum(won.values())
            two_n = sum(counts[m] for m in range(2, c + 1))
            two_k = sum(won[m] for m in range(2, c + 1))
            more = effect(two_k, two_n, won[1], counts[1])
            # a screen, never a finding: a player with two copies also played one card more, and
            # every card played may go with winning (the confounder card_effects controls for)
            more["beyond_noise"], more["finding"] = more["finding"], False
            more["method"] = METHOD_COPIES
            per_card[cid] = {"copies": c,
                             "by_copies": {str(m): rate(won[m], counts[m]) for m in range(c + 1)},
                             "more_than_one": more,
                             "per_copy": rate(copy_games[cid], c * n_games)}
        if per_card:
            out[kind] = per_card
    return out


def _tasks(cfg: SimConfig) -> Iterable[tuple]:
    options = tuple(sorted(_chosen_options(cfg).items()))
    for i in range(cfg.games):
        yield (cfg.game, cfg.data, cfg.players, cfg.seed, i, cfg.agent, cfg.turn_cap, cfg.check_moves, cfg.loader,
               options, i < cfg.trace)


def _chosen_options(cfg: SimConfig) -> dict:
    """The options every game of the run is played with: the given ones checked, the rest defaults."""
    compiled = _compiled(cfg.game, cfg.data, cfg.loader)
    return engine_for(compiled).match_options(compiled, cfg.given_options())


def run_games(cfg: SimConfig, progress: Callable[[int], None] | None = None) -> list[dict]:
    """Every game's record, in game order; ``progress(n)`` after each n finished games."""
    records: list[dict] = []
    if cfg.executor == "dask":
        return _run_on_dask(cfg, progress)
    if cfg.jobs <= 1:
        for t in _tasks(cfg):
            records.append(play_one(t))
            if progress:
                progress(1)
        return records
    import multiprocessing as mp

    methods = mp.get_all_start_methods()
    ctx = mp.get_context("fork" if "fork" in methods else "spawn")
    chunk = max(1, min(64, cfg.games // (cfg.jobs * 8) or 1))
    with ctx.Pool(cfg.jobs) as pool:
        for rec in pool.imap(play_one, _tasks(cfg), chunksize=chunk):  # imap keeps game order
            records.append(rec)
            if progress:
                progress(1)
    return records


def _run_on_dask(cfg: SimConfig, progress: Callable[[int], None] | None) -> list[dict]:
    """The games on a Dask distributed cluster (an existing engine made for this, not a home-made
    one). Each game is one task of plain values (``play_one``: its seed comes from (seed, index)), so
    the records — put back in game order — are the same whatever the number of workers, and the same
    as a local run's. Workers need this cardwright installed and the data folder at the same path."""
    try:
        from distributed import Client, as_completed
    except ImportError as exc:  # an optional extra: say how to get it
        raise ValueError("the dask executor needs Dask distributed: pip install 'cardwright[dask]'") from exc
    tasks = list(_tasks(cfg))
    if cfg.scheduler:
        client = Client(cfg.scheduler, set_as_default=False)
    else:
        # no scheduler named: a cluster of this machine, started for the run and closed after it, as
        # ``distributed.Client()`` starts one — ``jobs`` worker processes of one thread each (a game
        # holds the GIL), no dashboard (it would need a free port and bokeh)
        client = Client(n_workers=cfg.jobs, threads_per_worker=1, processes=True, dashboard_address=None,
                        set_as_default=False)
    with client:
        # games in chunks: a scheduler's per-task overhead (milliseconds) outweighs a short game;
        # about eight chunks per worker thread still balance the load
        threads = max(1, sum(client.nthreads().values()))
        size = max(1, min(64, len(tasks) // (threads * 8) or 1))
        chunks = [tasks[i:i + size] for i in range(0, len(tasks), size)]
        futures = client.map(play_many, chunks, pure=False)
        by_index: dict[int, dict] = {}
        for fut in as_completed(futures, loop=client.loop):
            done = fut.result()  # fetched once: each result() call brings the chunk from its worker again
            for rec in done:
                by_index[rec["index"]] = rec
            if progress:
                progress(len(done))
    return [by_index[i] for i in range(len(tasks))]


def play_many(tasks: list[tuple]) -> list[dict]:
    """Several games' records, in order (one Dask task)."""
    return [play_one(t) for t in tasks]


# --- aggregation ------------------------------------------------------------------------------


def deck_counts(compiled, options: dict | None = None) -> dict[str, dict]:
    eng = engine_for(compiled)
    shown = eng.reported_cards(compiled) - eng.cards_left_out(compiled, options or {})
    return {cid: {"name": rec.get("name", cid), "kind": rec.get("kind"), "copies": int(rec.get("count", 1)),
                  "source": rec.get("source", ""), "has_effect": bool(rec.get("slots"))}
            for cid, rec in compiled.cards.items() if cid in shown}


def stand_ins(compiled) -> list[dict]:
    """Every rule or card the game's data marks ``stand_in`` (not the published game), in data order."""
    from .standins import stand_ins as collect

    return collect(compiled)


def aggregate(cfg: SimConfig, records: list[dict]) -> dict:
    n = len(records)
    compiled = _compiled(cfg.game, cfg.data, cfg.loader)
    kinds = agent_list(cfg.agent, cfg.players, engine_for(compiled))
    eng = engine_for(compiled)
    # win credits (``win_credit``: a k-way shared win is 1/k to each sharer) by seat and by player
    seats: Counter = Counter()
    by_player: Counter = Counter()
    for r in records:
        for w in r["winners"]:
            by_player[w] += 1 / len(r["winners"])
            if r["first"] is not None:
                seats[(w - r["first"]) % cfg.players] += 1 / len(r["winners"])
    # the game's own unit of length: turns where it counts turns, else rounds (no game counts neither)
    unit = "turns" if any(r["turns"] for r in records) or not any(r.get("rounds") for r in records) else "rounds"
    turns = [r[unit] for r in records]
    capped = [r["index"] for r in records if r["capped"]]
    shared = sum(1 for r in records if len(r["winners"]) > 1)
    no_winner = sum(1 for r in records if not r["winners"] and not r["capped"])
    broken = [r for r in records if r["problems"]]
    ended = Counter(r["ended"] for r in records)
    plays: Counter = Counter()
    acts: Counter = Counter()
    played_games: Counter = Counter()
    counts_acts = any(r["counts_activations"] for r in records)
    for r in records:
        plays.update(r["plays"])
        acts.update(r["activations"] if r["counts_activations"] else r["plays"])
        played_games.update(r["plays"].keys())
    from .stats import count, rate

    options = _chosen_options(cfg)  # checked and filled once for the whole report
    deck = deck_counts(compiled, options)
    cards = []
    for cid, info in deck.items():
        cards.append({"id": cid, "name": info["name"], "kind": info["kind"], "copies": info["copies"],
                      "has_effect": info["has_effect"],
                      "plays": plays.get(cid, 0), "activations": acts.get(cid, 0),
                      "plays_per_game": round(plays.get(cid, 0) / n, 4) if n else 0.0,
                      "activations_per_game": round(acts.get(cid, 0) / n, 4) if n else 0.0,
                      "games_played_in": played_games.get(cid, 0),
                      # the share of games in which the card was played at all, with its interval
                      "play_rate": rate(played_games.get(cid, 0), n)})
    # a card without an effect (a plain Power Source) cannot activate: it is not a finding
    never = sorted(c["id"] for c in cards if c["activations"] == 0 and c["has_effect"])
    hist = Counter(turns)
    return {
        "game": cfg.game, "name": model_of(compiled.vocab).name or cfg.game, "games": n, "players": cfg.players,
        "seed": cfg.seed, "agent": cfg.agent, "turn_cap": cfg.turn_cap,
        # the options the games were played with (game.yaml ``options``, defaults included); a game
        # that declares none has none to report
        **({"options": options, "options_text": _options_text(compiled, options)} if options else {}),
        "seat_note": "seat 1 is the player who decided first",
        "ties": "a win shared by k players counts 1/k of a win to each of them, in every win rate here",
        "wins_by_seat": {str(s + 1): count(seats.get(s, 0)) for s in range(cfg.players)},
        "win_rate_by_seat": {str(s + 1): round(seats.get(s, 0) / n, 4) if n else 0.0 for s in range(cfg.players)},
        # the same with 95 % Wilson intervals; a seat advantage is a finding only when the interval
        # excludes an even share (1 / players)
        "win_rate_by_seat_ci": {str(s + 1): _seat_rate(seats.get(s, 0), n, cfg.players) for s in range(cfg.players)},
        "agents_by_player": {f"P{i + 1}": kinds[i] for i in range(cfg.players)},
        "wins_by_player": {f"P{i + 1}": count(by_player.get(i, 0)) for i in range(cfg.players)},
        "win_rate_by_agent": {a: round(sum(by_player.get(i, 0) for i in range(cfg.players) if kinds[i] == a)
                                       / (n * kinds.count(a)), 4) if n else 0.0 for a in sorted(set(kinds))},
        "no_winner": no_winner,
        "shared_wins": shared,
        # how the games ended (reason -> games), most frequent first
        "end_reasons": {why: k for why, k in sorted(ended.items(), key=lambda wk: (-wk[1], wk[0]))},
        "capped": {"count": len(capped), "games": capped[:50],
                   "note": "games that reached the turn cap without a winner: a deck that cannot finish"},
        "length": {"unit": unit, "mean": round(statistics.fmean(turns), 3) if turns else 0.0,
                   "median": statistics.median(turns) if turns else 0, "min": min(turns, default=0),
                   "max": max(turns, default=0), "histogram": {str(k): hist[k] for k in sorted(hist)}},
        "invariants": {"checked": "after every move" if cfg.check_moves else "after every game",
                       "names": [*engine_for(compiled).invariants, "a running game has a legal move"],
                       "games_broken": len(broken),
                       "problems": [f"game {r['index']}: {p}" for r in broken[:10] for p in r["problems"][:3]]},
        "activations_counted": counts_acts,
        "cards": cards,
        "card_effects": card_effects(records, cfg.players, [c["id"] for c in cards],
                                     {c["id"]: eng.peer_key(compiled.cards[c["id"]]) for c in cards},
                                     dict(eng.confounded_effects)),
        "card_effects_caveats": dict(eng.confounded_effects),
        "copy_effects": copy_effects(records, cfg.players, {c["id"]: c["copies"] for c in cards}),
        "score_spread": _score_spread(records),
        "stats_note": "95 % intervals (Wilson; a difference by Newcombe's method), rounded outward. A shared "
                      "win counts 1/k to each of its k winners. Each card is compared with the other cards of "
                      "its kind and cost (its peers), so that what any card of its sort does is not read as "
                      "its effect; only that comparison is a finding. Per-card figures count player-games, "
                      "which are not independent within a game: a screen, not a proof.",
        "never_activated": never,
        "stand_ins": stand_ins(compiled),
        "flow_refusals": flow_refusals(records),
    }


def flow_refusals(records: list[dict]) -> list[dict]:
    """Every place of the flow's texts that was refused in some game (runtime/flow.py): how often,
    in how many games, and the reason of the first refusal there (in game order). A refused text did
    nothing from that statement on — final scoring cut short — so it is reported, never averaged away."""
    found: dict[str, dict] = {}
    for r in sorted(records, key=lambda r: r["index"]):
        for where, (times, reason) in (r.get("flow_refusals") or {}).items():
            f = found.setdefault(where, {"where": where, "count": 0, "games": 0, "first": reason,
                                         "first_game": r["index"]})
            f["count"] += times
            f["games"] += 1
    return sorted(found.values(), key=lambda f: (-f["count"], f["where"]))


def _options_text(compiled, chosen: dict) -> list[str]:
    from .options import describe

    return describe(model_of(compiled.vocab).options, chosen)


def compare(this: dict, other: dict) -> dict:
    """What changed in the results between two runs with the same seeds (``--compare``): each seat's
    win rate, and per card how often it is played and how often its player wins when it is played,
    with the difference (this − other) and its 95 % interval; a change is a finding only when the
    interval excludes zero. The data change itself is the caller's (``cardwright diff``)."""
    from .stats import effect

    for key in ("game", "players", "seed", "games", "agent"):
        if this.get(key) != other.get(key):  # only the same run of the same game compares
            raise ValueError(f"cannot compare runs with different {key}: {this.get(key)!r} and {other.get(key)!r}")

    def delta(a: dict, b: dict) -> dict:
        e = effect(a["k"], a["n"], b["k"], b["n"])
        return {"this": a["rate"], "other": b["rate"], "difference": e["difference"], "low": e["low"],
                "high": e["high"], "finding": bool(e["finding"])}

    seats = {s: delta(this["win_rate_by_seat_ci"][s], other["win_rate_by_seat_ci"][s])
             for s in this["win_rate_by_seat_ci"] if s in other.get("win_rate_by_seat_ci", {})}
    cards = {}
    a_eff = (this.get("card_effects") or {}).get("played") or {}
    b_eff = (other.get("card_effects") or {}).get("played") or {}
    a_cards = {c["id"]: c for c in this["cards"]}
    b_cards = {c["id"]: c for c in other["cards"]}
    for cid in sorted(set(a_cards) | set(b_cards)):
        entry = {"name": (a_cards.get(cid) or b_cards.get(cid))["name"],
                 "plays_per_game": {"this": (a_cards.get(cid) or {}).get("plays_per_game"),
                                    "other": (b_cards.get(cid) or {}).get("plays_per_game")}}
        if cid in a_eff and cid in b_eff:
            entry["won_when_played"] = delta(a_eff[cid]["with"], b_eff[cid]["with"])
        cards[cid] = entry
    return {"games": [this["games"], other["games"]], "seed": this["seed"], "seats": seats, "cards": cards,
            "length": {"unit": this["length"].get("unit", "turns"), "this": this["length"]["mean"],
                       "other": other["length"]["mean"]},
            "note": "the same seeds on both sides; differences are this run minus the other, with 95 % "
                    "intervals (Newcombe); a finding only when the interval excludes zero"}


def render_compare_html(this: dict, other: dict, cmp: dict, data_changes: list[str], this_name: str,
                        other_name: str) -> str:
    """One offline page: what changed in the data (the diff, in English) beside what changed in the results."""
    seat_items = [(f"seat {s}", d["difference"], d["low"], d["high"], d["finding"]) for s, d in cmp["seats"].items()
                  if d["difference"] is not None]
    played = [(c["name"], c["won_when_played"]) for c in cmp["cards"].values() if c.get("won_when_played")
              and c["won_when_played"]["difference"] is not None]
    played.sort(key=lambda nd: (-abs(nd[1]["difference"]), nd[0]))
    card_items = [(n, d["difference"], d["low"], d["high"], d["finding"]) for n, d in played]
    rows = "\n".join(
        f"<tr><td>{_E(c['name'])}</td><td>{_fmt_num(c['plays_per_game']['this'])}</td>"
        f"<td>{_fmt_num(c['plays_per_game']['other'])}</td>"
        + (f"<td>{c['won_when_played']['this']:.1%}</td><td>{c['won_when_played']['other']:.1%}</td>"
           f"<td>{c['won_when_played']['difference']:+.1%} "
           f"{interval_text(c['won_when_played']['low'], c['won_when_played']['high'], 0.0, True)}</td>"
           if c.get("won_when_played") and c["won_when_played"]["difference"] is not None else
           "<td></td><td></td><td>not comparable</td>") + "</tr>"
        for c in cmp["cards"].values())
    changes = _E("\n".join(data_changes) or "no card changes")
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{_E(this.get('name', this['game']))} — comparison</title>
<style>
body {{ font-family: sans-serif; max-width: 60rem; margin: 2rem auto; color: #222; }}
table {{ border-collapse: collapse; font-size: 0.9rem; }}
td, th {{ border: 1px solid #bbb; padding: 0.2rem 0.5rem; text-align: right; }}
td:first-child, th:first-child {{ text-align: left; }}
</style></head><body>
<h1>{_E(this.get('name', this['game']))} — {_E(this_name)} against {_E(other_name)}</h1>
<p>{cmp['games'][0]} games a side · {this['players']} players · agent {_E(this['agent'])} · seed {cmp['seed']}:
{_E(cmp['note'])}.</p>
{_stand_in_html(this)}
<h2>What changed in the data</h2>
<pre>{changes}</pre>
<h2>What changed in the results</h2>
{_interval_chart("Change in win rate by seat (95 % interval)", seat_items, 0.0, -1.0, 1.0, _signed_pct)}
{_interval_chart("Change in win rate when the card is played (95 % interval)", card_items, 0.0, -1.0, 1.0,
                 _signed_pct) if card_items else "<p>No card was played on both sides.</p>"}
<p>Game length (mean {_E(cmp['length']['unit'])}): {cmp['length']['this']} against {cmp['length']['other']}.</p>
<table><thead><tr><th>Card</th><th>plays a game</th><th>(other)</th><th>won when played</th><th>(other)</th>
<th>change [95 % interval]</th></tr></thead><tbody>
{rows}
</tbody></table>
</body></html>
"""


def _signed_pct(v: float) -> str:
    """A difference as a signed whole percentage; one that rounds to zero is "+0%", never "-0%"."""
    text = f"{v:+.0%}"
    return "+0%" if text == "-0%" else text


def _fmt_num(v) -> str:
    return "" if v is None else f"{v:.2f}"


def _score_spread(records: list[dict]) -> dict | None:
    """For games that score (VP): the winner's margin over the runner-up and the spread of scores."""
    margins, all_scores = [], []
    for r in records:
        sc = sorted(r.get("scores") or [], reverse=True)
        if len(sc) >= 2:
            margins.append(sc[0] - sc[1])
            all_scores += sc
    if not margins:
        return None  # the game keeps no score (a last-player-standing game: Result.scores is empty)
    hist = Counter(margins)
    return {"margin_mean": round(statistics.fmean(margins), 3), "margin_median": statistics.median(margins),
            "margin_histogram": {str(k): hist[k] for k in sorted(hist)},
            "score_mean": round(statistics.fmean(all_scores), 3), "score_min": min(all_scores),
            "score_max": max(all_scores)}


def _seat_rate(k: int, n: int, players: int) -> dict:
    from .stats import rate

    r = rate(k, n)
    even = 1 / players
    r["finding"] = n > 0 and (r["low"] > even or r["high"] < even)
    return r


def simulate(cfg: SimConfig, progress: Callable[[int], None] | None = None, traces: dict | None = None) -> dict:
    """The run's result; ``traces``, when given, receives game index -> full trace of the first
    ``cfg.trace`` games (kept out of the result: a trace is long and a report is a summary)."""
    check_config(cfg)
    records = run_games(cfg, progress)
    if traces is not None:
        traces.update({r["index"]: r["trace"] for r in records if "trace" in r})
    return aggregate(cfg, records)


def check_config(cfg: SimConfig) -> None:
    """Raise ValueError (a usage error) for a run that cannot start; ModuleNotFoundError for a game
    that is not compiled."""
    if cfg.games < 1 or cfg.players < 2 or cfg.jobs < 1:
        raise ValueError("games and jobs must be at least 1, players at least 2")
    if cfg.executor not in ("local", "dask"):
        raise ValueError(f"unknown executor {cfg.executor!r}: local or dask")
    if cfg.trace < 0:
        raise ValueError("--trace must be 0 or more")
    compiled = _compiled(cfg.game, cfg.data, cfg.loader)
    eng = engine_for(compiled)
    kinds = agent_list(cfg.agent, cfg.players, eng)
    for kind in set(kinds):
        eng.make_agent(kind)  # "mcts:0" and the like fail here, as usage errors
    # a trial start: the game's own rules say how many players it seats (Infernal Contraption: one
    # Power Core each; a flow's `players`), so a run that cannot start fails here, as a usage error,
    # not in the middle of the first game (or in a worker process)
    why_not = eng.playable(compiled)
    if why_not:
        raise ValueError(why_not)
    options = eng.match_options(compiled, cfg.given_options())  # OptionError is a ValueError: a usage error
    try:
        eng.check_players(compiled, cfg.players)
        _new_match(eng, compiled, cfg.players, 0, None, options)
    except (RulesError, Refused) as exc:  # an engine may refuse the seating (Moon: a map for 3 to 4)
        raise ValueError(f"{cfg.game} cannot be played by {cfg.players} players: {exc}") from None


# --- HTML report with inline SVG ------------------------------------------------------------------

def _E(value) -> str:
    """HTML text and attribute values: the project's one HTML escaping function (runtime/escape.py)."""
    from .escape import html as escape_html  # the report is an output like the reference

    return str(escape_html(value))


def _bar_chart(title: str, items: list[tuple[str, float]], fmt: Callable[[float], str], width: int = 640,
               color: str = "#4a6fa5") -> str:
    """A horizontal bar chart: one labelled bar per item."""
    row, label_w, pad = 22, 210, 8
    h = pad * 2 + row * max(1, len(items)) + 24
    top = max((v for _, v in items), default=0) or 1
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" role="img" '
           f'aria-label="{_E(title)}" font-family="sans-serif" font-size="12">',
           f'<text x="{pad}" y="16" font-weight="bold">{_E(title)}</text>']
    bar_w = width - label_w - 70
    for i, (label, v) in enumerate(items):
        y = 24 + pad + i * row
        w = 0 if v <= 0 else max(1, round(bar_w * v / top))
        out.append(f'<text x="{label_w - 6}" y="{y + 14}" text-anchor="end">{_E(label)}</text>')
        out.append(f'<rect x="{label_w}" y="{y + 3}" width="{w}" height="{row - 6}" fill="{color}"/>')
        out.append(f'<text x="{label_w + w + 4}" y="{y + 14}">{_E(fmt(v))}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _column_chart(title: str, items: list[tuple[str, float]], x_label: str, y_label: str, width: int = 640,
                  height: int = 240, color: str = "#8a5a44") -> str:
    """Vertical columns (a histogram), with both axes labelled: what a column counts (``y_label``)
    and what the columns are (``x_label``)."""
    pad, left, base, head = 30, 48, height - 44, 44  # head: room for the title and the scale label
    top = max((v for _, v in items), default=0) or 1
    n = max(1, len(items))
    col = (width - left - pad) / n
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" role="img" '
           f'aria-label="{_E(title)}" font-family="sans-serif" font-size="11">',
           f'<text x="{pad}" y="16" font-weight="bold" font-size="12">{_E(title)}</text>',
           f'<line x1="{left}" y1="{base}" x2="{width - pad}" y2="{base}" stroke="#333"/>',
           f'<line x1="{left}" y1="{head}" x2="{left}" y2="{base}" stroke="#333"/>']
    step = max(1, n // 20)
    for i, (label, v) in enumerate(items):
        h = (base - head) * v / top
        x = left + i * col
        out.append(f'<rect x="{x + 1:.1f}" y="{base - h:.1f}" width="{max(1.0, col - 2):.1f}" height="{h:.1f}" '
                   f'fill="{color}"><title>{_E(label)}: {v:g}</title></rect>')
        if i % step == 0:
            out.append(f'<text x="{x + col / 2:.1f}" y="{base + 14}" text-anchor="middle">{_E(label)}</text>')
    for v, y in ((top, head), (0, base)):
        out.append(f'<line x1="{left - 4}" y1="{y}" x2="{left}" y2="{y}" stroke="#333"/>')
        out.append(f'<text x="{left - 6}" y="{y + 4}" text-anchor="end">{v:g}</text>')
    mid = (head + base) / 2
    out.append(f'<text x="{(left + width - pad) / 2:.1f}" y="{height - 8}" text-anchor="middle" '
               f'class="axis-label">{_E(x_label)}</text>')
    out.append(f'<text x="14" y="{mid:.1f}" text-anchor="middle" transform="rotate(-90 14 {mid:.1f})" '
               f'class="axis-label">{_E(y_label)}</text>')
    out.append("</svg>")
    return "\n".join(out)


def _interval_chart(title: str, items: list[tuple[str, float, float, float, bool]], ref: float, lo_axis: float,
                    hi_axis: float, fmt: Callable[[float], str], width: int = 640) -> str:
    """A dot per item with its 95 % interval as an error bar, against a reference line (an even
    share, or no effect); items whose interval excludes the reference are drawn in the finding colour."""
    row, label_w, pad, right = 22, 210, 8, 160
    h = pad * 2 + row * max(1, len(items)) + 40
    span = (hi_axis - lo_axis) or 1
    plot_w = width - label_w - right

    def x(v: float) -> float:
        return label_w + plot_w * (min(max(v, lo_axis), hi_axis) - lo_axis) / span

    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{h}" role="img" '
           f'aria-label="{_E(title)}" font-family="sans-serif" font-size="12">',
           f'<text x="{pad}" y="16" font-weight="bold">{_E(title)}</text>',
           f'<line x1="{x(ref):.1f}" y1="26" x2="{x(ref):.1f}" y2="{h - 18}" stroke="#999" stroke-dasharray="4 3"/>',
           f'<text x="{x(ref):.1f}" y="{h - 4}" text-anchor="middle" fill="#555">{_E(fmt(ref))}</text>',
           f'<text x="{label_w}" y="{h - 4}" fill="#555">{_E(fmt(lo_axis))}</text>',
           f'<text x="{label_w + plot_w}" y="{h - 4}" text-anchor="end" fill="#555">{_E(fmt(hi_axis))}</text>']
    for i, (label, v, lo, hi, finding) in enumerate(items):
        y = 30 + pad + i * row + row / 2
        colour = "#b5472d" if finding else "#4a6fa5"
        out.append(f'<text x="{label_w - 6}" y="{y + 4:.1f}" text-anchor="end">{_E(label)}</text>')
        out.append(f'<line x1="{x(lo):.1f}" y1="{y:.1f}" x2="{x(hi):.1f}" y2="{y:.1f}" stroke="{colour}" '
                   f'stroke-width="2"/>')
        for end in (lo, hi):
            out.append(f'<line x1="{x(end):.1f}" y1="{y - 5:.1f}" x2="{x(end):.1f}" y2="{y + 5:.1f}" '
                       f'stroke="{colour}" stroke-width="2"/>')
        out.append(f'<circle cx="{x(v):.1f}" cy="{y:.1f}" r="4" fill="{colour}"/>')
        # the bounds rounded outward (runtime/stats.interval_text): a whole percent unless more places
        # are needed to show that the interval excludes the reference
        out.append(f'<text x="{label_w + plot_w + 6}" y="{y + 4:.1f}">{_E(fmt(v))} '
                   f'{_E(interval_text(lo, hi, ref, signed=lo_axis < 0, places=0))}</text>')
    out.append("</svg>")
    return "\n".join(out)


_EFFECT_WORDS = {"played": ("played the card", "played"), "drawn": ("drew the card", "drawn"),
                 "tableau": ("ended the game with the card in its tableau", "in the final tableau")}


def _effects_html(r: dict) -> str:
    """Per card: does playing (drawing, ending with) it go with winning, beyond what its peers — the
    other cards of its kind and cost — do? Sorted by the size of the difference; each row says which
    comparison produced it, and a kind confounded by how the game ends carries its caveat."""
    names = {c["id"]: c["name"] for c in r["cards"]}
    parts = []
    for kind, per_card in (r.get("card_effects") or {}).items():
        known = [(cid, e) for cid, e in per_card.items() if e["difference"] is not None]
        known.sort(key=lambda ce: (-abs(ce[1]["difference"]), ce[0]))
        if not known:
            continue
        items = [(names.get(cid, cid), e["difference"], e["low"], e["high"], e["finding"]) for cid, e in known]
        found = [names.get(cid, cid) for cid, e in known if e["finding"]]
        raw_only = sum(1 for _, e in known if e.get("method") == METHOD_RAW)
        rows = "\n".join(
            f"<tr{' class=finding' if e['finding'] else ''}><td>{_E(names.get(cid, cid))}</td>"
            f"<td>{_E(_compared_with(e, names))}</td>"
            f"<td>{e['with']['rate']:.1%} of {e['with']['n']}</td><td>{e['without']['rate']:.1%} of {e['without']['n']}"
            f"</td><td>{e['difference']:+.1%}</td><td>{interval_text(e['low'], e['high'], 0.0, True)}</td>"
            f"<td>{_raw_cell(e)}</td></tr>" for cid, e in known)
        did, short = _EFFECT_WORDS.get(kind, (kind, kind))
        caveat = (r.get("card_effects_caveats") or {}).get(kind)
        parts.append(
            f"<h3>Win rate when the player {did}, against its peers</h3>\n"
            + (f'<p class="finding">Confounded by how the game ends: {_E(caveat)}. These figures say who '
               f"{_E(did.split(' the card')[0])} cards, not what a card does; none is a finding.</p>\n"
               if caveat else "")
            + _interval_chart(f"Difference in win rate when {short}, against its peers (95 % interval)", items, 0.0,
                              -1.0, 1.0, _signed_pct)
            + f"\n<p class=\"{'finding' if found else ''}\">Findings (the comparison with the card's peers, its "
            f"interval excluding no effect): {_E(', '.join(found)) if found else 'none'}."
            + (f" {raw_only} card{'s' * (raw_only != 1)} with no peer of the same kind and cost "
               f"{'are' if raw_only != 1 else 'is'} compared with every other player-game instead: shown, not "
               "controlled, never a finding." if raw_only else "") + "</p>\n"
            f"<table><thead><tr><th>Card</th><th>compared with</th><th>won, per copy {short}</th><th>won, per "
            f"copy of a peer (or otherwise)</th><th>difference</th><th>95 % interval</th><th>plain difference (every other "
            f"player-game)</th></tr></thead><tbody>\n{rows}\n</tbody></table>")
    if not parts:
        return "<p>This engine records no per-player plays or draws: no per-card win effects.</p>"
    return "\n".join(parts)


def _compared_with(e: dict, names: dict) -> str:
    if e.get("method") != METHOD_PEERS:
        return "every other player-game (no peer: not controlled)"
    peers = [names.get(p, p) for p in e.get("peers") or []]
    shown = ", ".join(peers[:3]) + (f" and {len(peers) - 3} more" if len(peers) > 3 else "")
    return f"copies of its peers ({shown})"


def _raw_cell(e: dict) -> str:
    raw = e.get("raw") or {}
    if raw.get("difference") is None:
        return ""
    return f"{raw['difference']:+.1%} {interval_text(raw['low'], raw['high'], 0.0, True)}"


def render_html(result: dict) -> str:
    r = result
    seats = [(f"seat {s}", float(v)) for s, v in r["win_rate_by_seat"].items()]
    hist = [(k, float(v)) for k, v in r["length"]["histogram"].items()]
    cards = sorted(r["cards"], key=lambda c: (-c["activations_per_game"], c["id"]))
    rows = "\n".join(
        f"<tr><td>{_E(c['name'])}</td><td>{_E(c['kind'].replace('_', ' '))}</td><td>{c['copies']}</td>"
        f"<td>{c['plays']}</td><td>{c['plays_per_game']:.2f}</td>{_play_rate_cell(c)}<td>{c['activations']}</td>"
        f"<td>{c['activations_per_game']:.2f}</td></tr>" for c in cards)
    never = ", ".join(_E(c) for c in r["never_activated"]) or "none"
    capped = r["capped"]
    return f"""<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8">
<title>{_E(r.get('name', r['game']))} — balance simulation</title>
<style>
body {{ font-family: sans-serif; max-width: 60rem; margin: 2rem auto; color: #222; }}
table {{ border-collapse: collapse; font-size: 0.9rem; }}
td, th {{ border: 1px solid #bbb; padding: 0.2rem 0.5rem; text-align: right; }}
td:first-child, th:first-child, td:nth-child(2) {{ text-align: left; }}
.finding {{ background: #fff3cd; padding: 0.5rem; border: 1px solid #e0c060; }}
</style></head><body>
<h1>{_E(r.get('name', r['game']))} — balance simulation</h1>
<p>{r['games']} games · {r['players']} players · agent: {_E(r['agent'])} · seed {r['seed']} ·
turn cap {r['turn_cap']}. {_E(r['seat_note'])}.</p>
{_options_html(r)}{_stand_in_html(r)}
{_end_reasons_html(r)}
<h2>Win rate by seat</h2>
{_seat_html(r, seats)}
<p>Games without a winner (everyone out at once): {r['no_winner']}. Games won jointly (a tie the
tie-breaks left): {r.get('shared_wins', 0)} — {_E(r.get('ties', ''))}.</p>
<p class="{'finding' if r['invariants']['games_broken'] else ''}">Invariants ({_E('; '.join(r['invariants'].get('names') or []))}),
checked {_E(r['invariants']['checked'])}:
{r['invariants']['games_broken']} games broke one.{_E(' ' + '; '.join(r['invariants']['problems'])) if r['invariants']['problems'] else ''}</p>
{_refusals_html(r)}
<p>Agents: {_E(', '.join(f'{p} {a}' for p, a in r['agents_by_player'].items()))}.
Win rate per player of each agent: {_E(', '.join(f'{a} {v:.1%}' for a, v in r['win_rate_by_agent'].items()))}.</p>
<h2>Game length ({_E(r['length'].get('unit', 'turns'))})</h2>
<p>mean {r['length']['mean']}, median {r['length']['median']}, min {r['length']['min']}, max {r['length']['max']}</p>
{_column_chart("Games by length in " + r['length'].get('unit', 'turns'), hist, "game length (" + r['length'].get('unit', 'turns') + ")", "games")}
{_spread_html(r)}
<h2>Turn cap</h2>
<p class="{'finding' if capped['count'] else ''}">{capped['count']} games reached the turn cap of
{r['turn_cap']} turns without a winner{'' if not capped['count'] else ' — the deck may be unable to finish (game indexes: ' + ', '.join(map(str, capped['games'])) + ')'}.</p>
<h2>Cards</h2>
{_bar_chart("Activations per game (cards with an effect)", [(c['name'], c['activations_per_game']) for c in cards if c['has_effect']], lambda v: f"{v:.2f}", color="#5a8a44")}
{_bar_chart("Plays per game", [(c['name'], c['plays_per_game']) for c in cards], lambda v: f"{v:.2f}")}
<p class="{'finding' if r['never_activated'] else ''}">Never activated: {never}.</p>
<table><thead><tr><th>Card</th><th>Kind</th><th>Copies</th><th>Plays</th><th>per game</th>
<th>played in (95 % interval)</th><th>Activations</th><th>per game</th></tr></thead>
<tbody>
{rows}
</tbody></table>
<h2>Does a card go with winning?</h2>
<p>{_E(r.get('stats_note', ''))}</p>
{_effects_html(r)}
{_copies_html(r)}
</body></html>
"""


def _end_reasons_html(r: dict) -> str:
    """How the games ended, by count (a game that ends the same way every time says so too)."""
    reasons = r.get("end_reasons") or {}
    if not reasons:
        return ""
    n = max(1, r["games"])
    rows = "\n".join(f"<tr><td>{_E(why)}</td><td>{k}</td><td>{k / n:.1%}</td></tr>"
                     for why, k in sorted(reasons.items(), key=lambda wk: (-wk[1], wk[0])))
    return ("<h2>How the games ended</h2>\n<table><thead><tr><th>The game ended because</th><th>games</th>"
            f"<th>share</th></tr></thead><tbody>\n{rows}\n</tbody></table>")


def _play_rate_cell(c: dict) -> str:
    pr = c.get("play_rate")
    if not pr:
        return "<td></td>"
    return f"<td>{pr['rate']:.1%} {interval_text(pr['low'], pr['high'])}</td>"


def _copies_html(r: dict) -> str:
    """Cards with several copies: win rate by the number of copies a player had, and whether a
    further copy goes with winning (two or more against exactly one)."""
    names = {c["id"]: c["name"] for c in r["cards"]}
    parts = []
    for kind, per_card in (r.get("copy_effects") or {}).items():
        did, short = _EFFECT_WORDS.get(kind, (kind, kind))
        known = [(cid, e) for cid, e in per_card.items() if e["more_than_one"]["difference"] is not None]
        known.sort(key=lambda ce: (-abs(ce[1]["more_than_one"]["difference"]), ce[0]))
        found = [names.get(cid, cid) for cid, e in known if e["more_than_one"].get("beyond_noise")]
        chart = ""
        if known:
            items = [(names.get(cid, cid), e["more_than_one"]["difference"], e["more_than_one"]["low"],
                      e["more_than_one"]["high"], e["more_than_one"]["finding"]) for cid, e in known]
            chart = _interval_chart(f"Two or more copies {short} against one (difference in win rate, 95 % interval)",
                                    items, 0.0, -1.0, 1.0, _signed_pct)
        width = max(e["copies"] for e in per_card.values()) + 1
        head = "".join(f"<th>won with {m}</th>" for m in range(width))
        rows = []
        for cid, e in sorted(per_card.items(), key=lambda ce: ce[0]):
            cells = "".join(
                f"<td>{e['by_copies'][str(m)]['rate']:.1%} of {e['by_copies'][str(m)]['n']}</td>"
                if str(m) in e["by_copies"] else "<td></td>" for m in range(width))
            pc = e["per_copy"]
            rows.append(f"<tr{' class=finding' if e['more_than_one']['finding'] else ''}><td>{_E(names.get(cid, cid))}</td>"
                        f"<td>{e['copies']}</td>{cells}<td>{pc['rate']:.1%} {interval_text(pc['low'], pc['high'])}</td></tr>")
        parts.append(
            f"<h3>Copies {short}: win rate by how many copies the player {did.split(' the card')[0]}</h3>\n"
            + chart
            + f"\n<p>A further copy beyond noise (not controlled: a further copy is also one card more, so a "
            f"screen, never a finding): {_E(', '.join(found)) if found else 'none — every difference here is within noise'}.</p>\n"
            f"<table><thead><tr><th>Card</th><th>Copies</th>{head}<th>a copy {short} in (95 % interval)</th>"
            f"</tr></thead><tbody>\n" + "\n".join(rows) + "\n</tbody></table>")
    if not parts:
        return ""
    return "<h2>Per copy (cards with several copies)</h2>\n" + "\n".join(parts)


def _spread_html(r: dict) -> str:
    sp = r.get("score_spread")
    if not sp:
        return ""
    hist = [(k, float(v)) for k, v in sp["margin_histogram"].items()]
    return (f"<h2>Score spread</h2>\n<p>Winner's margin over the runner-up: mean {sp['margin_mean']}, median "
            f"{sp['margin_median']}. Scores from {sp['score_min']} to {sp['score_max']} (mean {sp['score_mean']}).</p>\n"
            + _column_chart("Games by the winner's margin (points)", hist, "winner's margin over the runner-up (points)",
                            "games"))


def _seat_html(r: dict, seats: list) -> str:
    ci = r.get("win_rate_by_seat_ci")
    if not ci:
        return _bar_chart("Win rate by seat", seats, lambda v: f"{v:.1%}")
    even = 1 / r["players"]
    items = [(f"seat {s}", v["rate"], v["low"], v["high"], v["finding"]) for s, v in ci.items()]
    found = [f"seat {s}" for s, v in ci.items() if v["finding"]]
    return (_interval_chart("Win rate by seat (95 % interval; dashed: an even share)", items, even, 0.0, 1.0,
                            lambda v: f"{v:.0%}")
            + f'\n<p class="{"finding" if found else ""}">Seat advantage beyond noise: '
              f'{_E(", ".join(found)) if found else "none (every interval holds an even share)"}. A shared win '
              f'counts 1/k to each of its k winners, never as a loss.</p>')


def refusals_text(found: list[dict]) -> str:
    """One line for the terminal (simulate, play): how many refusals inside the flow's texts, and
    the first place and reason of each (``flow_refusals``' items)."""
    if not found:
        return "refusals inside the flow's texts: none"
    total = sum(f["count"] for f in found)
    places = "; ".join(f"{f['where']}: {f['count']}× (first: {f['first']})" for f in found[:5])
    more = f"; and {len(found) - 5} more places" if len(found) > 5 else ""
    return (f"WARNING: {total} refusal{'s' if total != 1 else ''} inside the flow's texts, each cutting its text "
            f"short — {places}{more}")


def _refusals_html(r: dict) -> str:
    """The flow's texts that were refused: each did nothing from the refused statement on."""
    found = r.get("flow_refusals") or []
    if not found:
        return "<p>Refusals inside the flow's texts (setup, steps, actions, final scoring): none.</p>"
    items = "".join(f"<li>{_E(f['where'])}: refused {f['count']} times in {f['games']} games; first "
                    f"(game {f['first_game']}): {_E(f['first'])}</li>" for f in found)
    return (f"<div class=\"finding\"><p>Refusals inside the flow's texts: {sum(f['count'] for f in found)}. "
            "A refused text did nothing from the refused statement on (a final scoring cut short), so "
            f"the scores above may be wrong:</p><ul>{items}</ul></div>")


def _options_html(r: dict) -> str:
    """The game's options these games were played with (game.yaml ``options``), when it declares any."""
    items = r.get("options_text") or []
    if not items:
        return ""
    return "<p>Played with: " + " · ".join(_E(t) for t in items) + ".</p>\n"


def _stand_in_html(r: dict) -> str:
    """Stand-in rules first: these results are of the game with them, not of the published game."""
    items = r.get("stand_ins") or []
    if not items:
        return ""
    rows = "\n".join(f"<li><b>{_E(i['what'])}</b> ({_E(i['where'])}): {_E(i['note'])}</li>" for i in items)
    return (f'<h2>Stand-in rules</h2>\n<p class="finding">These games were played with {len(items)} stand-in '
            f"rule{'s' if len(items) != 1 else ''}: rules the rulebooks do not give, written for this project so "
            f"that whole games can be played. The results are of the game with them, not of the published game.</p>"
            f"\n<ul>\n{rows}\n</ul>")
