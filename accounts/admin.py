from django.contrib import admin
from django.contrib.auth.admin import UserAdmin as BaseUserAdmin
from django.utils.translation import gettext_lazy as _

from accounts.models import User


@admin.register(User)
class UserAdmin(BaseUserAdmin):
    list_display = ("username", "display_name", "language", "is_staff", "is_active", "date_joined")
    list_filter = ("is_staff", "is_superuser", "is_active", "language", "date_joined")
    search_fields = ("username", "display_name", "email")
    ordering = ("-date_joined",)
    fieldsets = (
        *BaseUserAdmin.fieldsets,
        (_("Sahrat"), {"fields": ("display_name", "language")}),
    )
    add_fieldsets = (
        *BaseUserAdmin.add_fieldsets,
        (_("Sahrat"), {"fields": ("display_name", "language")}),
    )
