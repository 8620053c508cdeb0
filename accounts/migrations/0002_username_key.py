import accounts.models
from django.db import migrations, models


def fill_keys(apps, schema_editor):
    from accounts.names import fold

    User = apps.get_model("accounts", "User")
    for user in User.objects.all().only("pk", "username"):
        User.objects.filter(pk=user.pk).update(username_key=fold(user.username))


class Migration(migrations.Migration):
    dependencies = [("accounts", "0001_initial")]

    operations = [
        migrations.AddField(
            model_name="user",
            name="username_key",
            field=models.CharField(default="", editable=False, max_length=150),
            preserve_default=False,
        ),
        migrations.RunPython(fill_keys, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="user",
            name="username_key",
            field=models.CharField(editable=False, max_length=150, unique=True),
        ),
        migrations.AlterModelManagers(
            name="user",
            managers=[("objects", accounts.models.SahratUserManager())],
        ),
    ]
