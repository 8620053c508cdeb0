"""Every WebSocket route, gathered from the apps. The lobby socket is the social app's (the
majlis's own with friends' presence), the table socket the games'."""

from django.urls import path

from games.routing import websocket_urlpatterns as games_ws
from social.consumers import LobbyConsumer

websocket_urlpatterns = [
    path("ws/majlis/", LobbyConsumer.as_asgi()),
    *games_ws,
]
