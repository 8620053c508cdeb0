from django.urls import path

from social import views

app_name = "social"

urlpatterns = [
    path("", views.friends, name="friends"),
    path("presence/", views.presence, name="presence"),
    path("<str:action>/<str:username>/", views.act, name="act"),
]
