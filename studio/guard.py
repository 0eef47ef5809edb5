"""Who may talk to the studio: the checks every request passes before any route sees it.

The studio listens on 127.0.0.1 only, but that alone does not keep others out: every local user can
connect to a loopback port, and every web page the designer opens can make their browser send
requests to one (and, through DNS rebinding, read the answers). So every request must carry

- the **per-run secret token** as the first segment of its path (``/<token>/…``, the address the
  studio prints): a page elsewhere cannot know it, nor can another local user (it is never written to
  a file; the URL holds it because a browser's iframes, links and EventSource cannot add a header);
- a **Host header** naming the studio's own address (``127.0.0.1:PORT`` or ``localhost:PORT``): a
  rebound domain name arrives with its own name in Host and is refused;
- on a request that changes something (POST), an **Origin**, when the browser sends one, equal to
  the studio's own: a form on another site is refused even if it guessed the token.

Every answer carries a Content-Security-Policy that lets the studio's pages run only its own scripts
(``script-src 'self'``: no inline script, no eval, nothing from elsewhere), keeps them out of other
sites' frames and sends no Referer (the token is in the URL). The tokens are compared in constant time.
A refusal is a short plain-text 403 (or 421 for a wrong Host) and reaches no route.
"""
from __future__ import annotations

import hmac
import secrets
from urllib.parse import urlsplit

# The studio's own pages: its scripts (vendored htmx) and styles, the card faces and references in
# frames from the same server (each frame carries the printed pages' stricter policy of its own and a
# sandbox without scripts), the live updates from the same server. Nothing from the network.
PAGE_CSP = ("default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
            "font-src 'self' data:; connect-src 'self'; frame-src 'self'; frame-ancestors 'self'; "
            "base-uri 'none'; form-action 'self'")

HEADERS = [(b"referrer-policy", b"no-referrer"), (b"x-content-type-options", b"nosniff"),
           (b"cross-origin-resource-policy", b"same-origin"), (b"cache-control", b"no-store")]

WRITES = {"POST", "PUT", "PATCH", "DELETE"}


def new_token() -> str:
    """A fresh secret for one run of the studio: 128 random bits, as hex (safe in a URL path)."""
    return secrets.token_hex(16)


class Guard:
    """ASGI middleware: refuse what fails a check above, else pass the request on (the token
    segment as its root_path, so that routes are written without it) and add the headers."""

    def __init__(self, app, token: str, hosts: set[str]):
        self.app = app
        self.token = token.encode()
        self.hosts = hosts  # filled in by the server once its port is known: {"127.0.0.1:PORT", "localhost:PORT"}

    def page_csp(self) -> str:
        """PAGE_CSP, with the studio's two names allowed as frame sources: the faces are fetched from
        the other name than the page's (studio/app.py ``faces_base``)."""
        frames = " ".join(f"http://{h}" for h in sorted(self.hosts))
        return PAGE_CSP.replace("frame-src 'self'", f"frame-src 'self' {frames}")

    async def __call__(self, scope, receive, send):
        if scope["type"] == "lifespan":
            return await self.app(scope, receive, send)
        if scope["type"] != "http":  # no websockets: the live updates are Server-Sent Events
            return await _refuse(send, 403, "refused")
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
        host = headers.get("host", "")
        if host not in self.hosts:
            return await _refuse(send, 421, "refused: this server answers only to its own address "
                                             "(a Host header of 127.0.0.1 or localhost with its port)")
        path = scope.get("path", "")
        first, _, rest = path.lstrip("/").partition("/")
        if not hmac.compare_digest(first.encode(), self.token):
            return await _refuse(send, 403, "refused: this address needs the studio's token "
                                             "(open the address `cardwright studio` printed)")
        if scope.get("method", "GET") in WRITES:
            origin = headers.get("origin")
            if origin is not None and urlsplit(origin).netloc not in self.hosts:
                return await _refuse(send, 403, "refused: a request from another site")
        # ASGI's convention: the path keeps its prefix and root_path names it, so routes match the rest
        inner = dict(scope, root_path=scope.get("root_path", "") + "/" + first)

        async def send_with_headers(message):
            if message["type"] == "http.response.start":
                extra = list(HEADERS)
                names = {k.lower() for k, _ in message.get("headers", [])}
                if b"content-security-policy" not in names:
                    extra.append((b"content-security-policy", self.page_csp().encode()))
                message = dict(message, headers=list(message.get("headers", [])) + extra)
            await send(message)

        return await self.app(inner, receive, send_with_headers)


async def _refuse(send, status: int, text: str) -> None:
    body = (text + "\n").encode()
    await send({"type": "http.response.start", "status": status,
                "headers": [(b"content-type", b"text/plain; charset=utf-8"),
                            (b"content-length", str(len(body)).encode()), *HEADERS]})
    await send({"type": "http.response.body", "body": body})
