"""cardwright's compiler: YAML content and effect text in, checked Python modules and references out.

One module per pipeline stage (see docs/architecture.md):
loader -> schema -> parser -> check -> codegen -> reference. Each stage returns values plus
diagnostics; none prints or exits. Only cli.py talks to the terminal.
"""
