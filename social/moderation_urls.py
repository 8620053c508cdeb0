"""The players' moderation pages, under /moderation/ (their names: ``moderation:…``)."""

from django.urls import path

from social import moderation_views as views

app_name = "moderation"

urlpatterns = [
    path("chat/", views.hide_chat, name="hide_chat"),
    path("report/line/<int:line_id>/", views.report_line, name="report_line"),
    path("report/<str:username>/", views.report, name="report"),
    path("<str:action>/<str:username>/", views.mute, name="mute"),
]
