"""The commands of cardwright's command line, grouped by purpose; cli.py is the root group that finds them.

build       validate, compile, build, watch          checking and compiling the data
playing     run, play                                 playing the compiled game
simulating  simulate                                  balance over many seeded games
printing    reference, cards, board                   printed output
language    explain, verbs, docs, schema, lsp         the effect language and the editor
authoring   new game, new card, diff                  a designer's scaffolding and review
common      shared options, the game lookup, the two kinds of refusal, output folders, progress

The two flags below are the process's state, kept here (not in commands.common) so that cli.entry can
set them without importing anything `cardwright --help` does not need.
"""

ONE_SHOT = False  # running as the `cardwright` program (cli.entry), which exits when the command is done
FAST_EXIT = False  # set once such a command has built a large heap that exit would otherwise free
