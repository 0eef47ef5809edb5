"""cardwright's runtime: the thin layer the generated functions call.

- refs.py: the resolved references (selectors, goods, zones) that generated code passes to verbs;
- state.py: game state — players, Goods, zones in which every card is in exactly one place;
- agents.py: who makes choices (scripted, first-legal, seeded random);
- verbs.py: the verb registry and the core verbs shared by every game;
- context.py: what an effect function runs against (the acting player, bindings, X);
- engine.py: a game's procedures beyond single effects, and the registry of engines;
- scenario.py: YAML scenarios — a starting state, steps, expected outcome.
"""
