"""Every effect and YAML example in docs/*.md is compiled (and scenarios run), so the docs cannot rot.

Fenced blocks opt in by their info string:

- ```` ```effect game=G ```` — the effect compiles against game G;
  ``error=E201`` — it must fail with that code instead.
- ```` ```yaml cardwright game=G file=NAME.yaml ```` — a whole file of game G; blocks of one document
  accumulate in a copy of the data folder, in order, and after each the game must build
  (``error=CODE``: the build must fail with that code, and the file is then removed again).
  ``file=scenarios/NAME.yaml`` — a scenario: it is run and must pass.
- ```` ```yaml cardwright game=G append=NAME.yaml ```` — text appended to that module file.
- ```` ```diff cardwright game=G file=NAME.yaml ```` — an edit: context lines (space), removed (-) and added (+)
  lines, applied where the context and removed lines appear (exactly once).
"""
from __future__ import annotations

import pytest

from compiler import docexamples
from compiler.langref import RESOURCE_ROOT

DOCS = sorted((RESOURCE_ROOT / "docs").glob("*.md"))


def _ids():
    return [p.name for p in DOCS]


@pytest.mark.parametrize("doc", DOCS, ids=_ids())
def test_doc_examples(doc, tmp_path):
    blocks = docexamples.extract(doc.read_text(encoding="utf-8"))
    results = docexamples.check_blocks(blocks, tmp_path)
    failures = [f"{doc.name}:{r.block.line}: {r.problem}" for r in results if r.problem]
    assert not failures, "\n".join(failures)


def test_language_md_has_checked_examples():
    blocks = docexamples.extract((RESOURCE_ROOT / "docs" / "language.md").read_text(encoding="utf-8"))
    assert len([b for b in blocks if b.kind == "effect"]) > 20


def test_a_broken_example_fails(tmp_path):
    text = "intro\n\n```effect game=mini\ngain 2 fule\n```\n\n```effect game=mini error=E201\ngain 2 fule\n```\n"
    results = docexamples.check_blocks(docexamples.extract(text), tmp_path)
    assert results[0].problem and "E201" in results[0].problem
    assert results[1].problem is None


YAML_DOC = '''
```yaml cardwright game=mini file=extra.yaml
cards:
  - id: well
    kind: location
    name: Well
    source: example
    production: gain 1 fuel
```

```yaml cardwright game=mini file=extra.yaml error=E201
cards:
  - id: well
    kind: location
    name: Well
    source: example
    production: gain 1 fule
```

```yaml cardwright game=mini append=extra.yaml
  - id: spring
    kind: location
    name: Spring
    source: example
    production: gain 2 fuel
```

```yaml cardwright game=mini file=scenarios/well.yaml
game: mini
players: [Ann]
state:
  Ann: {zones: {state: [well, spring]}}
steps:
  - {card: spring, slot: production, player: Ann}
expect:
  players:
    Ann: {goods: {fuel: 3}}
```
'''


def test_yaml_blocks_accumulate_and_scenarios_run(tmp_path):
    results = docexamples.check_blocks(docexamples.extract(YAML_DOC), tmp_path)
    assert [r.problem for r in results[:3]] == [None, None, None]
    # the scenario expects 3 fuel but the Spring gives 2: the example is caught
    assert results[3].problem and "E702" in results[3].problem


OUTPUT_DOC = '''
```effect game=mini error=E201
gain 2 fule
```

```text output
$ cardwright explain "gain 2 fule" --game mini
<effect>:1:8: E201 unknown good 'fule' (did you mean 'fuel'?)
```

```yaml cardwright game=mini file=extra.yaml error=E401
cards:
  - id: well
    kind: location
    name: Well
    sauce: example
```

```text output
data/mini/extra.yaml:5:5: E401 unknown field 'sauce' (did you mean 'source'?) in card 'well'
```

```text output
data/mini/extra.yaml:5:5: E401 unknown field 'sorce' in card 'well'
```
'''


def test_output_blocks_must_match_what_cardwright_says(tmp_path):
    results = docexamples.check_blocks(docexamples.extract(OUTPUT_DOC), tmp_path)
    assert [r.problem for r in results[:4]] == [None, None, None, None], [r.problem for r in results]
    assert results[4].problem and "not what cardwright says" in results[4].problem


DIFF_DOC = '''
```diff cardwright game=mini file=base.yaml
     icons: [green]
-    production: gain 2 fuel
+    production: gain 5 fuel
```

```diff cardwright game=mini file=base.yaml error=E201
-    production: gain 5 fuel
+    production: gain 5 fule
```

```diff cardwright game=mini file=base.yaml
-    production: gain 2 fuel
+    production: gain 6 fuel
```
'''


def test_diff_blocks_edit_in_place_and_are_undone_after_an_error(tmp_path):
    results = docexamples.check_blocks(docexamples.extract(DIFF_DOC), tmp_path)
    assert [r.problem for r in results[:2]] == [None, None]
    # the first edit stays (gain 5 fuel), the deliberate mistake was undone: the old line is gone
    assert results[2].problem and "appear nowhere" in results[2].problem
    assert docexamples.apply_diff("a\nb\n", " a\n-b\n+c").splitlines() == ["a", "c"]
