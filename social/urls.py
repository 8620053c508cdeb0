from django.urls import path

from social import views

app_name = "social"

urlpatterns = [
    path("", views.friends, name="friends"),
    path("presence/", views.presence, name="presence"),
    path("table/<str:table_id>/", views.table_players, name="table_players"),
    path("invite/<str:username>/", views.invite, name="invite"),
    path(
        "invitations/<str:invitation_id>/<str:choice>/",
        views.answer,
        name="answer",
    ),
    path("<str:action>/<str:username>/", views.act, name="act"),
]
