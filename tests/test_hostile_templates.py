"""Issue 23, class 1: a card-face template from a data folder is data. It is rendered in jinja2's
immutable sandbox with only what cardwright hands it; whatever it tries — Python's internals, a
shell, a file outside its folder — is refused, and every mistake in it is a located E504
diagnostic, never a traceback. No browser needed: ``--output html``."""
from __future__ import annotations

import json
import os

import pytest

import cli



@pytest.fixture
def game(templated_mini):
    return templated_mini


def cards_html(runner, tmp_path):
    return runner.invoke(cli.main, ["cards", "mini", "--data", "data", "--output", "html", "--out",
                                    str(tmp_path / "build" / "out"), "--format", "json"])


def template(game, text, name="location.html.j2"):
    (game / "templates" / name).write_text(text, encoding="utf-8")


SECRET = "s3cr3t-do-not-print"

ESCAPES = [
    # the issue's own: a built-in helper's Python globals, then os
    "{{ lipsum.__globals__['os'].popen('echo PWNED').read() }}",
    "{{ cycler.__init__.__globals__.os.popen('echo PWNED').read() }}",
    # through any object the template is handed
    "{{ card.__class__.__init__.__globals__['os'].popen('echo PWNED').read() }}",
    "{{ ''.__class__.__mro__[1].__subclasses__() }}",
    "{{ game.__class__.__mro__ }}",
    "{{ ink_for.__globals__['os'].popen('echo PWNED').read() }}",
    "{{ size.update({'w': 1}) }}{{ size.clear() }}",  # the immutable sandbox: no method changes data
    "{{ self._TemplateReference__context }}",
    "{{ namespace.__init__.__globals__ }}",
    "{{ range.__self__ }}",
    "{{ config }}{{ request }}{{ url_for }}",  # Flask-style globals are simply absent
]


@pytest.mark.parametrize("text", ESCAPES)
def test_a_template_cannot_leave_the_sandbox(game, runner, tmp_path, text):
    template(game, text)
    res = cards_html(runner, tmp_path)
    assert res.exit_code == 1, res.output
    assert isinstance(res.exception, SystemExit), res.exception  # never a traceback
    (d,) = json.loads(res.stdout)["diagnostics"]
    assert d["code"] == "E504" and d["file"] == "data/mini/templates/location.html.j2" and d["line"] == 1
    assert "PWNED" not in res.output
    assert not (tmp_path / "build" / "out" / "mini-cards.html").exists()


def test_the_sandbox_still_renders_an_ordinary_template(game, runner, tmp_path):
    template(game, '{% extends "face.html.j2" %}{% block header %}<h2>{{ side.name | upper }} '
                   '{{ range(3) | list | length }} {{ ink_for(kind.colour) }}</h2>{% endblock %}')
    res = cards_html(runner, tmp_path)
    assert res.exit_code == 0, res.output
    html = (tmp_path / "build" / "out" / "mini-cards.html").read_text(encoding="utf-8")
    assert "OIL RIG 3 #" in html


@pytest.mark.parametrize("text,want,line", [
    ("<p>\n{% if %}\n</p>", "template syntax error", 2),
    ("<p>\n\n{{ nothing_given.name }}</p>", "does not give it", 3),
    ('{% extends "no_such.html.j2" %}', "not found", None),
    ("<p>\n{{ 1 / 0 }}</p>", "ZeroDivisionError", 2),
    ("<p>{{ side.name | no_such_filter }}</p>", "no_such_filter", 1),
])
def test_a_template_mistake_is_located(game, runner, tmp_path, text, want, line):
    template(game, text)
    res = cards_html(runner, tmp_path)
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    (d,) = json.loads(res.stdout)["diagnostics"]
    assert d["code"] == "E504" and want in d["message"]
    if line is not None:
        assert d["file"] == "data/mini/templates/location.html.j2" and d["line"] == line


def test_a_template_link_leaving_the_folder_is_refused_unread(game, runner, tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text(SECRET, encoding="utf-8")
    os.symlink(secret, game / "templates" / "location.html.j2")
    res = cards_html(runner, tmp_path)
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    (d,) = json.loads(res.stdout)["diagnostics"]
    assert d["code"] == "E504" and "symbolic link" in d["message"]
    assert d["file"] == "data/mini/templates/location.html.j2"
    assert SECRET not in res.output
    assert not (tmp_path / "build" / "out" / "mini-cards.html").exists()


def test_an_include_of_a_file_outside_the_folder_is_not_found(game, runner, tmp_path):
    (tmp_path / "secret.txt").write_text(SECRET, encoding="utf-8")
    template(game, '{% include "../../../secret.txt" %}{% include "/etc/hostname" %}')
    res = cards_html(runner, tmp_path)
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    assert SECRET not in res.output
    (d,) = json.loads(res.stdout)["diagnostics"]
    assert d["code"] == "E504" and "not found" in d["message"]


@pytest.mark.parametrize("text", [
    '{{ "x" * 10**9 }}',
    '{{ ("x" * 900000) * 900000 }}',
    '{{ 9 ** 99999999 }}',
    '{{ "%0999999999d" % 1 }}',
    '{{ "%.999999999f" | format(1) }}',
    '{{ "x" | center(999999999) }}',
    '{{ ("y\\n" * 400000) | indent(999999) }}',
    '{{ ("ab" * 400000) | replace("a", "aaaa") | replace("a", "aaaa") }}',
])
def test_a_template_cannot_ask_for_unbounded_memory(game, runner, tmp_path, text):
    from .guards import finishes_within

    template(game, "<p>\n" + text + "</p>")
    with finishes_within(60):
        res = cards_html(runner, tmp_path)
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    (d,) = json.loads(res.stdout)["diagnostics"]
    assert d["code"] == "E504" and "larger than a card template may compute" in d["message"]
    assert d["file"] == "data/mini/templates/location.html.j2" and d["line"] == 2


def test_a_template_cannot_loop_for_ever(game, runner, tmp_path, monkeypatch):
    from compiler import cardsheet

    from .guards import finishes_within

    monkeypatch.setattr(cardsheet, "TEMPLATE_SECONDS", 2.0)
    template(game, "{% for a in range(100000) %}{% for b in range(100000) %}{% for c in range(100000) %}"
                   "{% endfor %}{% endfor %}{% endfor %}")
    with finishes_within(30):
        res = cards_html(runner, tmp_path)
    assert res.exit_code == 1 and isinstance(res.exception, SystemExit), res.output
    (d,) = json.loads(res.stdout)["diagnostics"]
    assert d["code"] == "E504" and "took longer than 2 s" in d["message"]
