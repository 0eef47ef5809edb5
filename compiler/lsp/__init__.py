"""``cardwright lsp``: a Language Server Protocol server for the data files, built on pygls.

The package is split by job, each module usable (and tested) without a client:

- ``checking``  — the diagnostics `validate` gives, for one open file, without generating code;
  a module is re-checked card by card (only the edited card's YAML is re-read and its texts
  re-checked; compiler/build.py stays the one place that emits code).
- ``locate``    — from a cursor in a YAML file to the value under it, and into an effect text.
- ``complete``  — completion inside effect texts (from what the parser accepts at the cursor) and
  outside them (field, slot and kind names, card ids).
- ``navigate``  — hover, go to definition, references, code actions.
- ``server``    — the pygls wiring: documents, debouncing, publishing.

pygls is the ``lsp`` extra (``pip install 'cardwright[lsp]'``); only ``server`` imports it.
"""
