from django.urls import path

from standing import views

app_name = "standing"

urlpatterns = [
    path("", views.leaderboard, name="leaderboard"),
    path("<str:mode>/", views.leaderboard, name="leaderboard_mode"),
]
