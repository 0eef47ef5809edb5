"""Item 7 and 11: the generated code — snapshot, determinism, safety (injection), atomic writes, --check."""
from __future__ import annotations

import ast
import hashlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import cli
from compiler import build as build_mod
from compiler.build import compile_tree, stale_files, write_outputs
from compiler.codegen import UnsafeValue, literal
from compiler.diagnostics import Diagnostics
from compiler.loader import load_file

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
MINI = HERE / "fixtures" / "mini"
HOSTILE = HERE / "fixtures" / "hostile"

# What a generated module may define at top level, besides its functions and hoisted constants.
# The typed queries of runtime/refs.py generated code may construct (the checker's own IR leaves).
REFS = {"Bound", "Default", "Every", "Exactly", "FieldCompare", "HasField", "HasIcon", "MatchingIcon", "Not",
        "OtherThan", "Phase", "Query", "SameName", "UpToN", "Who"}
MODULE_NAMES = REFS | {"card_table", "LINE_MAP", "STATEMENTS", "MODULE", "CARDS", "RULES", "TABLES", "MAP"}


def tree_bytes(folder: Path) -> dict[str, bytes]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()}


# --- snapshot -------------------------------------------------------------------------------------


def test_generated_code_of_mini_fixture(snapshot):
    result = compile_tree(MINI)
    assert result.ok, [d.render() for d in result.diags]
    assert sorted(result.outputs) == ["__init__.py", "mini/__init__.py", "mini/base.py"]
    for rel in sorted(result.outputs):
        assert snapshot(name=rel) == result.outputs[rel]


# --- determinism ----------------------------------------------------------------------------------


def test_same_input_gives_byte_identical_output_from_any_cwd_and_place(tmp_path, monkeypatch):
    first = compile_tree(MINI).outputs
    assert compile_tree(MINI).outputs == first
    monkeypatch.chdir(tmp_path)
    assert compile_tree(MINI).outputs == first  # another current folder
    moved = tmp_path / "elsewhere" / "mini"
    shutil.copytree(MINI, moved)
    assert compile_tree(moved).outputs == first  # another absolute place: no absolute paths leak
    bundled = compile_tree(ROOT / "data").outputs
    monkeypatch.chdir(ROOT / "runtime")
    assert compile_tree(ROOT / "data").outputs == bundled


def test_cli_outputs_identical_across_hash_seeds(tmp_path):
    """Two processes with different PYTHONHASHSEED (set iteration order) write identical bytes."""
    outs = []
    for seed in ("1", "2"):
        out = tmp_path / f"gen{seed}"
        env = dict(os.environ, PYTHONHASHSEED=seed)
        proc = subprocess.run([sys.executable, str(ROOT / "cli.py"), "compile", str(ROOT / "data"), "--out", str(out)],
                              cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
        assert proc.returncode == 0, proc.stderr
        outs.append(tree_bytes(out))
    assert outs[0] == outs[1]
    assert all(b"\r\n" not in v for v in outs[0].values())  # LF endings


# --- safety ---------------------------------------------------------------------------------------


def _module_shape(src: str) -> set[str]:
    """Parse generated source; check it is only imports of runtime.refs, assignments and functions."""
    tree = ast.parse(src)
    names = set()
    for node in tree.body:
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0 and (node.module == "runtime.refs" or (
                node.module == "runtime.tables" and [a.name for a in node.names] == ["card_table"]))
            names |= {a.name for a in node.names}
        elif isinstance(node, ast.Assign):
            assert len(node.targets) == 1
            target = node.targets[0]
            if isinstance(target, ast.Tuple):  # CARDS, LINE_MAP, STATEMENTS = card_table(globals(), source, …)
                assert [t.id for t in target.elts] == ["CARDS", "LINE_MAP", "STATEMENTS"]
                call = node.value
                assert isinstance(call, ast.Call) and call.func.id == "card_table" and not call.keywords
                globs, source, entries, lines = call.args
                assert isinstance(globs, ast.Call) and globs.func.id == "globals" and not globs.args
                assert isinstance(source, ast.Constant) and type(source.value) is str
                ast.literal_eval(entries) and ast.literal_eval(lines)  # data only: the card records
                for entry in entries.elts:  # (first line, JSON text of the record or a dict literal)
                    assert isinstance(entry.elts[0], ast.Constant) and type(entry.elts[0].value) is int
                names |= {"CARDS", "LINE_MAP", "STATEMENTS"}
                continue
            assert isinstance(target, ast.Name)
            names.add(target.id)
        elif isinstance(node, ast.FunctionDef):
            names.add(node.name)
        else:
            assert isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant)  # the docstring
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):  # the only calls: the runtime's refs, ctx methods, float('inf'),
            f = node.func                 # len() of a zone the game model fixes (compiler/specialise.py)
            ok = (isinstance(f, ast.Name) and f.id in REFS | {"float", "card_table", "globals", "len"}) or (
                isinstance(f, ast.Attribute) and (
                    (isinstance(f.value, ast.Name) and f.value.id == "ctx")
                    or f.attr == "with_amount"))
            assert ok, ast.dump(node)
    return names


def _exec_module(src: str) -> dict:
    ns: dict = {"__name__": "generated_under_test"}
    exec(compile(src, "generated_under_test", "exec"), ns)  # the compiler's output, not data text
    return ns


def test_hostile_card_compiles_and_round_trips(tmp_path, monkeypatch, runner):
    monkeypatch.chdir(tmp_path)
    res = runner.invoke(cli.main, ["compile", str(HOSTILE), "--out", "gen"])
    assert res.exit_code == 0, res.output
    src = (tmp_path / "gen" / "mini" / "base.py").read_text(encoding="utf-8")
    names = _module_shape(src)
    assert "os" not in names and "sys" not in names
    assert not any(line.lstrip().startswith(("import ", "exec(")) for line in src.splitlines())
    ns = _exec_module(src)
    assert "os" not in ns and "sys" not in ns
    doc = load_file(HOSTILE / "mini" / "base.yaml", Diagnostics())
    card = doc.data["cards"][0]
    got = ns["CARDS"]["hostile"]
    for key in ("name", "text", "note", "provisional", "row", "icons"):
        assert got[key] == card[key] and type(got[key]) is type(card[key])
    assert card["name"] == '"); import os #'
    assert "\n" in card["note"] and "'''" in card["note"] and '"""' in card["note"] and "\\" in card["note"]
    assert ns["MODULE"]["name"] == doc.data["name"] and ns["MODULE"]["note"] == doc.data["note"]


def test_file_name_with_line_breaks_cannot_end_a_comment(tmp_path):
    """A module file named with CR/LF (Python reads a lone CR as a line end) stays inside comments."""
    data = tmp_path / "data"
    shutil.copytree(MINI, data)
    bad = data / "mini" / "x\rimport os\r#\nimport sys.yaml"
    shutil.move(data / "mini" / "base.yaml", bad)
    result = compile_tree(data)
    assert result.ok, [d.render() for d in result.diags]
    (rel, src), = [(k, v) for k, v in result.outputs.items() if k.startswith("mini/x")]
    assert re.fullmatch(r"mini/[a-z0-9_]+\.py", rel)
    names = _module_shape(src)
    assert "os" not in names and "sys" not in names
    assert not any(line.startswith("import") for line in src.replace("\r", "\n").splitlines())
    assert "os" not in _exec_module(src)


_TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=40)


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(name=_TEXT, text=_TEXT, note=_TEXT, prov=st.dictionaries(_TEXT, _TEXT, max_size=3))
def test_any_card_text_ends_up_only_in_string_literals(tmp_path_factory, name, text, note, prov):
    data = tmp_path_factory.mktemp("prop") / "data"
    shutil.copytree(MINI, data)
    card = {"id": "hostile", "kind": "location", "name": name, "text": text, "note": note,
            "source": "example", "row": "production", "production": "gain 2 fuel"}
    if prov:
        card["provisional"] = prov
    # Every scalar double-quoted: PyYAML's dumper speaks YAML 1.1 and would leave e.g. 0E0 plain,
    # which YAML 1.2 (our loader) reads as a number — hypothesis found that.
    (data / "mini" / "base.yaml").write_text(
        yaml.safe_dump({"name": name, "cards": [card]}, allow_unicode=True, sort_keys=False,
                       default_style='"'), encoding="utf-8")
    result = compile_tree(data)
    assert result.ok, [d.render() for d in result.diags]
    src = result.outputs["mini/base.py"]
    names = _module_shape(src)
    assert names - MODULE_NAMES == {n for n in names if n.startswith("_C")} | {"hostile__production"}
    ns = _exec_module(src)
    assert set(ns) - {"__name__", "__builtins__", "__doc__"} == names
    got = ns["CARDS"]["hostile"]
    assert (got["name"], got["text"], got["note"], got.get("provisional")) == (name, text, note, prov or None)
    assert ns["MODULE"]["name"] == name


_DATA = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False, allow_infinity=False) | _TEXT,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_TEXT, inner, max_size=4), max_leaves=20)


@settings(max_examples=200, deadline=None)
@given(_DATA)
def test_literal_is_a_python_literal_of_the_same_value(value):
    assert ast.literal_eval(literal(value)) == value


def test_literal_of_infinities():
    assert literal(float("inf")) == "float('inf')" and literal(float("-inf")) == "float('-inf')"
    assert eval(literal(float("-inf")), {"__builtins__": {"float": float}}) == float("-inf")


def test_literal_refuses_other_types():
    class Evil(str):
        def __repr__(self):
            return "__import__('os')"

    for bad in (Evil("x"), {1, 2}, object(), b"bytes", [Evil("x")]):
        with pytest.raises(UnsafeValue):
            literal(bad)


# --- atomic writes --------------------------------------------------------------------------------


def test_failed_build_leaves_previous_generated_untouched(tmp_path, monkeypatch, runner):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINI, tmp_path / "data")
    assert runner.invoke(cli.main, ["build", "data"]).exit_code == 0
    before = tree_bytes(tmp_path / "generated")
    base = tmp_path / "data" / "mini" / "base.yaml"
    base.write_text(base.read_text().replace("gain 2 fuel", "gain 3 fuel").replace("gain 1 vp", "gain 1 vpp"))
    for cmd in ("build", "compile"):
        res = runner.invoke(cli.main, [cmd, "data"])
        assert res.exit_code == 1 and "vpp" in res.output
        assert tree_bytes(tmp_path / "generated") == before  # the good change to oil_rig is not written


def test_interrupted_write_leaves_no_temp_files_and_no_partial_file(tmp_path, monkeypatch):
    out = tmp_path / "gen"
    old = compile_tree(MINI)
    write_outputs(old, out)
    old_bytes = tree_bytes(out)
    data = tmp_path / "data"
    shutil.copytree(MINI, data)
    for f in ("game.yaml", "base.yaml"):  # change every generated file
        p = data / "mini" / f
        p.write_text(p.read_text().replace("Fuel", "Oil").replace("gain 2 fuel", "gain 4 fuel"))
    new = compile_tree(data)
    assert new.ok
    new_bytes = {k: v.encode() for k, v in new.outputs.items()}
    assert sum(old_bytes[k] != new_bytes[k] for k in old_bytes) >= 2

    for exc in (OSError("disk full"), KeyboardInterrupt()):
        calls = []
        real_replace = os.replace

        def flaky_replace(src, dst, _exc=exc):
            calls.append(dst)
            if len(calls) == 2:
                raise _exc
            real_replace(src, dst)

        monkeypatch.setattr(build_mod.os, "replace", flaky_replace)
        with pytest.raises(type(exc)):
            write_outputs(new, out)
        monkeypatch.undo()
        now = tree_bytes(out)
        assert sorted(now) == sorted(old_bytes)  # no temp file left behind
        for rel, data_now in now.items():  # each file is whole: the old or the new version
            assert data_now in (old_bytes[rel], new_bytes[rel])
        write_outputs(old, out)  # reset for the next kind of interruption
        assert tree_bytes(out) == old_bytes


def test_unwritable_output_is_a_diagnostic(tmp_path, monkeypatch, runner):
    monkeypatch.chdir(tmp_path)
    # a file where the game's generated package must go (--out itself a file is a usage error, exit 2:
    # tests/test_command_line.py)
    (tmp_path / "gen").mkdir()
    (tmp_path / "gen" / "mini").write_text("a file where a folder should be")
    res = runner.invoke(cli.main, ["compile", str(MINI), "--out", "gen"])
    assert res.exit_code == 1 and "Traceback" not in res.output
    assert "E502" in res.output


# --- compile --check ------------------------------------------------------------------------------


def test_compile_check_lists_stale_files(tmp_path, monkeypatch, runner):
    monkeypatch.chdir(tmp_path)
    shutil.copytree(MINI, tmp_path / "data")
    assert runner.invoke(cli.main, ["compile", "data"]).exit_code == 0
    res = runner.invoke(cli.main, ["compile", "data", "--check"])
    assert res.exit_code == 0 and "up to date" in res.output
    gen = tmp_path / "generated"
    (gen / "mini" / "base.py").write_text((gen / "mini" / "base.py").read_text() + "# edited\n")
    (gen / "mini" / "__init__.py").unlink()
    (gen / "mini" / "old_module.py").write_text("X = 1\n")
    before = tree_bytes(gen)
    res = runner.invoke(cli.main, ["compile", "data", "--check"])
    assert res.exit_code == 1
    assert "mini/base.py" in res.output and "mini/__init__.py" in res.output
    assert "mini/old_module.py (no longer generated)" in res.output
    assert tree_bytes(gen) == before  # --check writes nothing
    res = runner.invoke(cli.main, ["compile", "data", "--check", "--format", "json"])
    import json

    payload = json.loads(res.stdout)
    assert res.exit_code == 1 and payload["stale"] == ["mini/__init__.py", "mini/base.py",
                                                       "mini/old_module.py (no longer generated)"]
    assert runner.invoke(cli.main, ["compile", "data"]).exit_code == 0
    assert not (gen / "mini" / "old_module.py").exists()
    assert runner.invoke(cli.main, ["compile", "data", "--check"]).exit_code == 0


def test_bundled_generated_is_current():
    result = compile_tree(ROOT / "data")
    assert result.ok
    assert stale_files(result, ROOT / "generated") == []


def test_outputs_hash_is_stable_within_a_process():
    a = hashlib.sha256(repr(sorted(compile_tree(MINI).outputs.items())).encode()).hexdigest()
    b = hashlib.sha256(repr(sorted(compile_tree(MINI).outputs.items())).encode()).hexdigest()
    assert a == b


def test_lowering_builds_ordinary_queries():
    # the checker builds queries without the dataclass __init__ (speed): they must be the same
    from dataclasses import fields

    from compiler import ir
    from compiler.check import _query

    made = _query("card", "card", ir.Who.YOU, (), ir.Exactly(2), None, None, None, None, "syntax")
    plain = ir.Query("card", "card", ir.Who.YOU, (), ir.Exactly(2))
    assert made == plain and hash(made) == hash(plain) and repr(made) == repr(plain)
    assert [f.name for f in fields(ir.Query)] == list(vars(made))


def test_a_card_table_can_only_name_the_modules_own_functions():
    """runtime/tables.py links a slot to a function the generated module defines, nothing else."""
    from runtime.tables import TableError, card_table

    def own(ctx):
        return None

    ns = {"own": own, "print": print, "x": 1}
    # ``own`` is a function of this test module, not of ``ns``: refused like the rest
    record = '{"id": "c", "at": null, "texts": {}, "slots": {"play": ["%s", 1, [[2, 1, 7]]]}, "faces": {}}'
    for name in ("print", "x", "missing", "own", "__builtins__"):
        with pytest.raises(TableError):
            card_table(ns, "f.yaml", ((3, record % name),), {})
    src = "def play(ctx):\n    return 1\n"
    mod: dict = {"__name__": "m"}
    exec(compile(src, "m", "exec"), mod)  # a module's own function
    cards, lines, statements = card_table(mod, "f.yaml", ((3, record % "play"),), {"rule__x": "f.yaml:9 x"})
    assert cards["c"]["slots"]["play"] is mod["play"] and cards["c"]["at"] == "f.yaml:3"
    assert lines == {"play": "f.yaml:4 card 'c' play", "rule__x": "f.yaml:9 x"}
    # a statement's place: its line in the function, its line and column in the YAML
    assert statements == {"play": ((2, "f.yaml:4:7 card 'c' play"),)}


def test_a_card_record_json_cannot_carry_exactly_is_written_as_a_literal():
    import json as _json

    from compiler.codegen import card_entry

    plain = {"id": "c", "n": 1, "f": 1.5, "b": True, "none": None, "l": [1, "x"], "m": {"k": False}}
    src = card_entry(plain)
    assert _json.loads(ast.literal_eval(src)) == plain  # a str literal holding the JSON
    for odd in ({"id": "c", "m": {1: "a"}}, {"id": "c", "m": {True: "a"}}, {"id": "c", "m": {None: 1}}):
        src = card_entry(odd)
        value = ast.literal_eval(src)
        assert value == odd and type(value) is dict and [type(k) for k in value["m"]] == [type(k) for k in odd["m"]]


def test_a_build_that_lets_its_documents_go_writes_the_same_code():
    """``compile`` and ``validate`` let each module's Document go once it is compiled (issue 27: a
    30,000-card build within 500 MB); what they write and report is the build's that keeps them."""
    kept = compile_tree(ROOT / "data", scenarios=True)
    let_go = compile_tree(ROOT / "data", scenarios=True, keep_documents=False)
    assert kept.ok and let_go.ok
    assert let_go.outputs == kept.outputs
    assert [d.render() for d in let_go.diags] == [d.render() for d in kept.diags]
    assert all(gb.modules for gb in kept.games.values())
    assert not any(gb.modules for gb in let_go.games.values())
    compared = 0
    for case in sorted((HERE / "bad_inputs").iterdir()):  # broken data: the same errors at the same places
        if case.is_dir():
            errors = [d.render() for d in compile_tree(case, keep_documents=False).diags]
            assert errors == [d.render() for d in compile_tree(case).diags], case.name
            compared += bool(errors)
    assert compared > 20


@pytest.mark.parametrize("text, verbs_only", [
    ("raze 1 of your locations with icon green or worker", True),
    ("lose 1 vp per deployed machine", True),
    ("spend 1 fuel: gain 2 vp", True),                       # a cost: a strict call, then its body
    ("gain 1 fuel; discard 1 card from your hand", True),
    ("if number of fuel > 2: gain 1 vp", False),              # a condition
    ("choose 1 of your locations as t; raze t", False),      # a choice and a bound name
    ("gain (number of fuel) vp", False),                     # a computed amount
    ("x is number of fuel", False),
])
def test_the_compiler_says_which_effects_only_call_verbs(text, verbs_only):
    """``Body.verbs_only`` comes from the IR (51st State's Assault search probes such effects on the
    state itself, runtime/tables.py ``verbs_only``): a fact of the compiler, never read off the code."""
    from compiler.codegen import make_body
    from compiler.explain import explain_effect
    from runtime.engine import load_compiled
    from runtime.model import model_of

    ex = explain_effect(text, model_of(load_compiled("fifty_first_state").vocab))
    assert ex.ir is not None, [d.render() for d in ex.diags]
    assert make_body("effect", ex.ir, text).verbs_only is verbs_only


def test_an_effects_computed_bounds_fact_is_exactly_whether_it_has_a_computed_filter_bound():
    """``make_body`` skips the walk for run-time filter bounds when the checker's ``ir.Effect.computed_bounds``
    says there are none (the walk was most of code generation's time): the fact must hold for every
    accepted text — drawn here from the differential test's generator, which writes "costing up to
    (x + 1)" and the like — and ``verbs_only`` must come out as the walk would say."""
    import random

    from compiler import codegen
    from compiler.visitor import Visitor
    from tests.differential import GAMES, TextGen, compiled_game, vocabulary

    class Keys(Visitor):
        def __init__(self):
            self.keys = []

        def visit_FieldCompare(self, f):
            self.generic_visit(f)
            if f.key is not None:
                self.keys.append(f.key)

    rng = random.Random(27)
    gens = {g: TextGen(compiled_game(g).vocab, random.Random(rng.random())) for g in GAMES}
    seen = {True: 0, False: 0}
    while min(seen.values()) < 40 or sum(seen.values()) < 400:
        game = rng.choice(sorted(GAMES))
        text = gens[game].text()
        ex = _accepted_ir(text, vocabulary(game))
        if ex is None:
            continue
        walk = Keys()
        walk.visit(ex)
        assert ex.computed_bounds is bool(walk.keys), text
        seen[ex.computed_bounds] += 1
        by_walk = bool(ex.statements) and all(codegen._constant_call(st, True) for st in ex.statements)
        assert codegen.make_body("effect", ex, text).verbs_only is by_walk, text


def _accepted_ir(text, vocab):
    """The IR of a text the checker accepts, else None."""
    from compiler.explain import explain_effect

    ex = explain_effect(text, vocab)
    return None if ex.diags.errors or ex.ir is None else ex.ir


def _compiles(src: str) -> bool:
    try:
        compile("def _(ctx):\n" + src, "<body>", "exec")
        return True
    except SyntaxError:
        return False


def _shape_check_accepts(src: str) -> bool:
    from compiler.codegen import check_body_compiles
    try:
        check_body_compiles(src)
        return True
    except SyntaxError:
        return False


def test_a_body_is_checked_by_its_shape_only_where_digits_cannot_matter():
    """``check_body_compiles`` compiles one body of each shape (texts that differ only in their
    numbers): a body with a leading-zero literal or a backslash before a digit, whose shape would
    compile where it does not, is compiled itself."""
    for good, bad in [
        ("    ctx.gain(11, 'x')\n", "    ctx.gain(01, 'x')\n"),      # "01" is not a Python int
        ("    return 11 + 11\n", "    return 11 + 00_\n"),           # digits before a stray '_'
        ("    return '\\\\11'\n", "    return b'\\x1'\n"),             # an escape that needs two digits
    ]:
        assert _shape_check_accepts(good)
        assert _shape_check_accepts(bad) is _compiles(bad) is False, bad
    # a const name stands for any const name; its own source is compiled where it is made
    assert _shape_check_accepts("    ctx.call('gain', (_C_0123456789ab,), {})\n")


def test_every_number_a_generated_body_may_hold_gets_the_answer_compile_gives():
    """Bodies of texts the differential generator writes, with their digit runs rewritten at random
    (other digits and lengths, leading zeros): the shape check says what ``compile()`` says of each."""
    import random

    from compiler import codegen
    from tests.differential import GAMES, TextGen, compiled_game, vocabulary

    rng = random.Random(2712)
    gens = {g: TextGen(compiled_game(g).vocab, random.Random(rng.random())) for g in GAMES}
    bodies, refused = 0, 0
    while bodies < 300:
        game = rng.choice(sorted(GAMES))
        text = gens[game].text()
        ex = _accepted_ir(text, vocabulary(game))
        if ex is None:
            continue
        src = codegen.make_body("effect", ex, text).text
        for _ in range(3):
            mutated = re.sub(r"\b[0-9]+\b", lambda m: "".join(rng.choice("0123456789")
                                                             for _ in range(rng.randint(1, 3))), src, flags=re.ASCII)
            ok = _compiles(mutated)
            refused += not ok
            assert _shape_check_accepts(mutated) is ok, mutated
        bodies += 1
    assert refused > 20, refused  # some rewrites made leading zeros: the guard was exercised
