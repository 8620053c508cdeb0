"""Live connections: the WebSocket consumer base, the protocol's codes and refusals, the limits,
the Origin rule, the Redis client, the channel layer and Daphne's flood guard.

A small app below the tables so that ``games`` can build its sockets on it without importing the
project package (``sahrat_site`` holds settings, URLs, ASGI, Celery, health and serving only).
"""
