"""Analyses of games under other rule sets were worked out under the standard game's rules: they
go, and each is worked out again, under its game's rules, the next time it is asked for."""

from django.db import migrations


def forget_analyses_of_other_rule_sets(apps, schema_editor):
    Analysis = apps.get_model("game", "Analysis")
    Analysis.objects.exclude(game__rules="standard").delete()


class Migration(migrations.Migration):
    dependencies = [("game", "0018_scoring_label")]

    operations = [
        migrations.RunPython(forget_analyses_of_other_rule_sets, migrations.RunPython.noop),
    ]
