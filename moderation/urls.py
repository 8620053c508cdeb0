from django.urls import path

from moderation import views

app_name = "moderation"

urlpatterns = [
    path("chat/", views.hide_chat, name="hide_chat"),
    path("report/<str:username>/", views.report, name="report"),
    path("<str:action>/<str:username>/", views.mute, name="mute"),
]
