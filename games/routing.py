"""The table socket's route; the lobby socket's (/ws/majlis/) is the social app's, which adds
friends' presence to the majlis's (sahrat_site/routing.py)."""

from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/table/<str:table_id>/", consumers.TableConsumer.as_asgi()),
]
