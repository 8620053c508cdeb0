from django.urls import path

from verify import views

app_name = "verify"

urlpatterns = [
    path("", views.log, name="log"),
    path("paste/", views.paste, name="paste"),
    path("sahrat_verify.py", views.script, name="script"),
    path("m/<str:match_id>/", views.match, name="match"),
    path("m/<str:match_id>/export.json", views.export, name="export"),
    path("m/<str:match_id>/replay/", views.replay, name="replay"),
]
