"""Jakaro (جاكارو): the rules engine, bots and scenario adapter. Pure Python, no Django."""
