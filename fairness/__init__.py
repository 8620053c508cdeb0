"""The fair shuffle's core, below both the engines and the Verify app (docs/fairness.md).

Pure standard library and no project import: the engines draw every deal from ``fairness.core``,
the tables commit to its secrets, and the Verify app replays with it. It sits beside them, not
inside ``verify/``, so that the games never import the app that audits them.
"""
