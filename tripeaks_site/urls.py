from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.http import require_safe
from django.views.generic import TemplateView

from game.admin.statistics import statistics_view
from tripeaks_site.health import healthz


@require_safe
def site_icon(request):
    """The site's icon at /favicon.ico, where feed readers ask, and browsers that do not take a
    page's own icon (Chromium on a not-found page)."""
    return redirect(static("game/icon.svg"))


urlpatterns = [
    # Before the admin's own URLs, which would otherwise claim the path; admin_view gives it the
    # admin's login and staff check.
    path("admin/statistics/", admin.site.admin_view(statistics_view), name="admin_statistics"),
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", site_icon, name="site_icon"),
    path(
        "manifest.webmanifest",
        TemplateView.as_view(
            template_name="manifest.webmanifest", content_type="application/manifest+json"
        ),
        name="manifest",
    ),
    path(
        "robots.txt",
        TemplateView.as_view(template_name="robots.txt", content_type="text/plain"),
        name="robots",
    ),
    path("accounts/", include("accounts.urls")),
    path("", include("game.urls")),
]
