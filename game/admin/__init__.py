"""The staff side: deals, games and their logs in the admin, and the statistics page.

The statistics page lives at /admin/statistics/ (tripeaks_site/urls.py), behind the admin's own
login and permission check.
"""

from django.contrib import admin

from . import actions, deals, games  # noqa: F401  (each registers its model admin)

admin.site.site_header = "TriPeaks staff"
admin.site.site_title = "TriPeaks staff"
admin.site.index_title = "Deals, games and their logs"
