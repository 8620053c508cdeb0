from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.table_new, name="table_new"),
    path("quick/", views.quick_play, name="quick_play"),
    path("t/<str:table_id>/", views.table, name="table"),
]
