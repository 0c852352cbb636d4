from django.contrib import admin
from django.urls import include, path

from game.admin.statistics import statistics_view
from tripeaks_site.health import healthz

urlpatterns = [
    # Before the admin's own URLs, which would otherwise claim the path; admin_view gives it the
    # admin's login and staff check.
    path("admin/statistics/", admin.site.admin_view(statistics_view), name="admin_statistics"),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("accounts/", include("accounts.urls")),
    path("", include("game.urls")),
]
