"""Every table gets a short invite code (games.models.new_invite_code): added empty, filled one
table at a time (a callable default gives every existing row the same value), then unique."""

from django.db import migrations, models

import games.models


def fill(apps, schema_editor):
    Table = apps.get_model("games", "Table")
    taken = set()
    for table in Table.objects.filter(invite_code__isnull=True).only("pk"):
        code = games.models.new_invite_code()
        while code in taken:
            code = games.models.new_invite_code()
        taken.add(code)
        Table.objects.filter(pk=table.pk).update(invite_code=code)


class Migration(migrations.Migration):
    dependencies = [("games", "0009_table_min_reputation")]

    operations = [
        migrations.AddField(
            model_name="table",
            name="invite_code",
            field=models.CharField(max_length=9, null=True, verbose_name="invite code"),
        ),
        migrations.RunPython(fill, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="table",
            name="invite_code",
            field=models.CharField(
                default=games.models.new_invite_code,
                max_length=9,
                unique=True,
                verbose_name="invite code",
            ),
        ),
    ]
