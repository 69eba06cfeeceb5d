"""Lark grammar files of notation, shipped as package data.

Load them with ``importlib.resources.files("grammars")`` (see ``notation.grammar``), so the
installed copy is the one used.
"""
