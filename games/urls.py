from django.urls import path

from games import views

app_name = "games"

urlpatterns = [
    path("", views.lobby, name="lobby"),
    path("new/", views.table_new, name="table_new"),
    path("quick/", views.quick_play, name="quick_play"),
    path("code/", views.join_by_code, name="join_by_code"),
    path("t/<str:table_id>/", views.table, name="table"),
]
