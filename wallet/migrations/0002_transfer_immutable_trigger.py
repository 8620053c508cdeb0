"""On PostgreSQL, the database itself refuses to change or delete a transfer: the model and the
admin already refuse, and this holds for any code or SQL that goes around them. (TRUNCATE, which
only a whole-database reset uses, is not a row change.) SQLite, for a local run, has no trigger."""

from django.db import migrations

CREATE = """
CREATE OR REPLACE FUNCTION wallet_transfer_immutable() RETURNS trigger AS $$
BEGIN
    RAISE EXCEPTION USING MESSAGE = 'wallet transfers are immutable: ' || TG_OP || ' refused';
END;
$$ LANGUAGE plpgsql;
CREATE TRIGGER wallet_transfer_immutable
    BEFORE UPDATE OR DELETE ON wallet_transfer
    FOR EACH ROW EXECUTE FUNCTION wallet_transfer_immutable();
"""
DROP = """
DROP TRIGGER IF EXISTS wallet_transfer_immutable ON wallet_transfer;
DROP FUNCTION IF EXISTS wallet_transfer_immutable();
"""


def forwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(CREATE)


def backwards(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        schema_editor.execute(DROP)


class Migration(migrations.Migration):
    dependencies = [("wallet", "0001_initial")]

    operations = [migrations.RunPython(forwards, backwards)]
