"""Game engines, one module per engine, each registering itself with runtime.engine.register."""
