"""A stake's transfer keeps the seat it was paid for in a column of its own (it was read back
from the idempotency key, ``stake:<match>:<seat>``, which stays as it is). The stakes written
before the column are given their seat from that key: the one write a transfer ever gets after
it is made, filling a column that did not exist, so the immutability trigger is held off for it
alone."""

from django.db import migrations, models

TRIGGER = "wallet_transfer_immutable"


def fill_seats(apps, schema_editor):
    Transfer = apps.get_model("wallet", "Transfer")
    postgres = schema_editor.connection.vendor == "postgresql"
    if postgres:
        schema_editor.execute(f"ALTER TABLE wallet_transfer DISABLE TRIGGER {TRIGGER}")
    for pk, key in Transfer.objects.filter(kind="stake").values_list("pk", "key"):
        Transfer.objects.filter(pk=pk).update(seat=int(key.rsplit(":", 1)[1]))
    if postgres:
        schema_editor.execute(f"ALTER TABLE wallet_transfer ENABLE TRIGGER {TRIGGER}")


class Migration(migrations.Migration):
    dependencies = [("wallet", "0003_verbose_names")]

    operations = [
        migrations.AddField(
            model_name="transfer",
            name="seat",
            field=models.PositiveSmallIntegerField(blank=True, null=True, verbose_name="seat"),
        ),
        migrations.RunPython(fill_seats, migrations.RunPython.noop),
    ]
