from django.urls import path

from wallet import views

app_name = "wallet"

urlpatterns = [
    path("", views.wallet, name="wallet"),
]
