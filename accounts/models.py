"""What a player chose and keeps on their account, on every device."""

from django.conf import settings
from django.db import models


class Preferences(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="preferences",
    )
    winnable_only = models.BooleanField(
        default=False, help_text="New deal deals only deals the solver proves winnable."
    )

    class Meta:
        verbose_name_plural = "preferences"

    def __str__(self):
        return f"Preferences of {self.user}"
