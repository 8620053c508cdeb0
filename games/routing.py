from django.urls import path

from games import consumers

websocket_urlpatterns = [
    path("ws/majlis/", consumers.MajlisConsumer.as_asgi()),
    path("ws/table/<str:table_id>/", consumers.TableConsumer.as_asgi()),
]
