"""Live connections: the WebSocket consumer base, the token bucket and the Redis client.

A small app below the tables so that ``games`` can build its sockets on it without importing the
project package (``sahrat_site`` holds settings, URLs, ASGI, Celery, health and serving only).
"""
