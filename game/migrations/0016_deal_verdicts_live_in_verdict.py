"""The solver's verdicts live in Verdict, one per deal and rule set (copied there by 0014): the
deal's own standard-game verdict goes."""

from django.db import migrations


class Migration(migrations.Migration):
    dependencies = [("game", "0015_deal_numbers_under_the_sites_key")]

    operations = [
        migrations.RemoveField(model_name="deal", name="verdict"),
        migrations.RemoveField(model_name="deal", name="verdict_nodes"),
    ]
