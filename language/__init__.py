"""How the site speaks to a player: counted words, the digit style, dates, and the refusal base.

Below every other app: the engines may import ``language.errors`` (pure Python, no Django), and
the tables, the wallet and the pages take their words and digits from here.
"""
