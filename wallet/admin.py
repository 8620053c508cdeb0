"""Staff pages for the coins. Nothing here edits or deletes a transfer: accounts and transfers are
read-only; the one way staff move coins is the adjustment form, a balanced transfer with a
required reason, recorded with the staff member (wallet.services.adjust)."""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.core.exceptions import PermissionDenied
from django.db.models import Count, Sum
from django.db.models.functions import TruncDate
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect
from django.template.response import TemplateResponse
from django.urls import path, reverse
from django.utils.translation import get_language
from django.utils.translation import gettext_lazy as _

from wallet import services
from wallet.forms import AdjustmentForm
from wallet.models import Account, Transfer


class ReadOnly(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False


@admin.register(Account)
class AccountAdmin(ReadOnly):
    list_display = ("pk", "kind", "user", "match", "match_status", "balance")
    list_filter = ("kind", "match__status")
    search_fields = ("user__username", "match__public_id")
    list_select_related = ("user", "match")
    change_list_template = "admin/wallet/account/change_list.html"

    @admin.display(description=_("match status"))
    def match_status(self, obj: Account) -> str:
        return obj.match.get_status_display() if obj.match_id else ""

    def get_urls(self) -> list[Any]:
        view = self.admin_site.admin_view
        return [
            path("adjust/", view(self.adjust_view), name="wallet_adjust"),
            path("fees/", view(self.fees_view), name="wallet_fees"),
            *super().get_urls(),
        ]

    def adjust_view(self, request: HttpRequest) -> HttpResponse:
        """A balanced transfer between the rewards account and a player's wallet."""
        if not request.user.has_perm("wallet.add_transfer"):
            raise PermissionDenied
        form = AdjustmentForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                services.adjust(
                    staff=request.user,
                    user=data["username"],
                    amount=data["amount"],
                    debit=data["direction"] == "debit",
                    reason=data["reason"],
                    key=data["key"],
                )
            except services.WalletError as exc:
                form.add_error(None, exc.message(get_language()))
            else:
                messages.success(request, _("The adjustment is recorded."))
                return redirect(reverse("admin:wallet_transfer_changelist"))
        ctx = {
            **self.admin_site.each_context(request),
            "title": _("Adjust a wallet"),
            "form": form,
            "opts": self.model._meta,
        }
        return TemplateResponse(
            request, "admin/wallet/adjust.html", ctx, status=400 if form.errors else 200
        )

    def fees_view(self, request: HttpRequest) -> HttpResponse:
        """The house fee account's takings, by day."""
        if not request.user.has_perm("wallet.view_transfer"):
            raise PermissionDenied
        days = (
            Transfer.objects.filter(dest__kind=Account.Kind.HOUSE)
            .annotate(day=TruncDate("created_at"))
            .values("day")
            .annotate(coins=Sum("amount"), matches=Count("match", distinct=True))
            .order_by("-day")
        )
        ctx = {
            **self.admin_site.each_context(request),
            "title": _("Fee takings by day"),
            "days": days,
            "opts": self.model._meta,
        }
        return TemplateResponse(request, "admin/wallet/fees.html", ctx)


@admin.register(Transfer)
class TransferAdmin(ReadOnly):
    list_display = (
        "created_at",
        "kind",
        "amount",
        "source",
        "dest",
        "match",
        "reason",
        "created_by",
    )
    list_filter = ("kind",)
    search_fields = ("key", "reason", "match__public_id", "created_by__username")
    list_select_related = ("source__user", "dest__user", "match", "created_by")
    date_hierarchy = "created_at"
