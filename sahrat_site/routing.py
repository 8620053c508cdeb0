"""Every WebSocket route, gathered from the apps."""

from games.routing import websocket_urlpatterns as games_ws

websocket_urlpatterns = [*games_ws]
