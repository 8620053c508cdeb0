from django.urls import path
from django.views.generic import RedirectView

from verify import views

app_name = "verify"

urlpatterns = [
    path("", views.log, name="log"),
    path("paste/", views.paste, name="paste"),
    path("sahrat_verify.py", views.script, name="script"),
    path("m/<str:match_id>/", views.match, name="match"),
    path("m/<str:match_id>/export.json", views.export, name="export"),
    path("m/<str:match_id>/replay/", views.replay, name="replay"),
    # The pages once linked a match as /verify/<id>/; such links are already shared, so they
    # move permanently to the match's page (listed last: every named path above wins).
    path(
        "<str:match_id>/",
        RedirectView.as_view(pattern_name="verify:match", permanent=True, query_string=True),
        name="match_old",
    ),
]
