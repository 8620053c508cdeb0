"""Create (or refresh) a staff user and two demo players, and print their passwords."""

from __future__ import annotations

import secrets

from django.core.management.base import BaseCommand
from django.db import transaction

from accounts.models import User
from wallet import services as wallet_services

DEMO_USERS = (
    # username, display name, language, staff
    ("staff", "مشرف سهرات", "ar", True),
    ("sara", "سارة", "ar", False),
    ("fahad", "Fahad", "en", False),
)


class Command(BaseCommand):
    help = "Create a staff user and two demo players; print their passwords."

    @transaction.atomic
    def handle(self, *args, **options) -> None:
        self.stdout.write("Demo accounts (passwords are new on every run):")
        for username, display_name, language, staff in DEMO_USERS:
            user, _ = User.objects.get_or_create(
                username=username, defaults={"display_name": display_name, "language": language}
            )
            user.is_staff = user.is_superuser = staff
            # A fresh random password each run: no well-known password ever ships with Sahrat.
            password = secrets.token_urlsafe(9)
            user.set_password(password)
            user.save()
            if not staff:
                wallet_services.grant_starter(user=user)  # as sign-up gives (once, by its key)
            role = "staff (admin at /admin/)" if staff else "player"
            self.stdout.write(f"  {username:<8} {password}   {role}")
