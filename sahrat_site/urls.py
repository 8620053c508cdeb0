from django.contrib import admin
from django.urls import include, path

from sahrat_site import views

urlpatterns = [
    path("", views.home, name="home"),
    path("healthz", views.healthz, name="healthz"),
    # Browsers and tools ask for /favicon.ico where a page names no icon: the site's own.
    path("favicon.ico", views.favicon, name="favicon"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("accounts/", include("accounts.urls")),
    path("majlis/", include("games.urls")),
    path("verify/", include("verify.urls")),
    path("wallet/", include("wallet.urls")),
    path("leaders/", include("standing.urls")),
    path("friends/", include("social.urls")),
    path("moderation/", include("social.moderation_urls")),
    path("admin/", admin.site.urls),
]
