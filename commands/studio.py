"""The designer's workbench in the browser (studio): cards as printed, live as files are saved."""
from __future__ import annotations

import click

from .common import ContentError, UsageProblem, data_argument


@click.command()
@data_argument
@click.option("--port", type=click.IntRange(min=0, max=65535), default=0, show_default=True,
              help="Port on 127.0.0.1 (0: a free one).")
def studio(path, data, port):
    """Serve the studio for every game under PATH on 127.0.0.1: cards, rulebook, balance, play, live.

    The address printed holds a secret token for this run: only a browser given it can use the studio.
    The studio is the optional extra `studio` (pip install 'cardwright[studio]').

    \b
    Examples:
      cardwright studio
      cardwright studio data --port 8123
    """
    try:
        from studio.server import Studio
    except ImportError as exc:
        raise UsageProblem(f"the studio needs its optional libraries ({exc.name} is missing): "
                           "pip install 'cardwright[studio]'") from None
    if not data.exists():
        raise UsageProblem(f"no data folder {data}")
    s = Studio(data, port)

    def ready(url: str) -> None:
        click.echo(f"cardwright studio: {url}")
        click.echo("(open this address; it holds this run's secret token. Ctrl+C stops.)")

    try:
        s.serve(ready)
    except OSError as exc:
        raise ContentError(f"cannot listen on 127.0.0.1:{port}: {exc.strerror or exc}") from None
