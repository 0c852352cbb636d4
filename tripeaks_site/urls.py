from django.contrib import admin
from django.shortcuts import redirect
from django.templatetags.static import static
from django.urls import include, path
from django.views.decorators.cache import cache_control
from django.views.decorators.http import require_safe
from django.views.generic import TemplateView

from accounts.views import staff_login
from game.admin.statistics import statistics_view
from tripeaks_site.health import healthz


@require_safe
def site_icon(request):
    """The site's icon at /favicon.ico, where feed readers ask, and browsers that do not take a
    page's own icon (Chromium on a not-found page)."""
    return redirect(static("game/icon.svg"))


SITE_FILE_MAX_AGE = 3600
"""How long a browser keeps the manifest and robots.txt: no page view asks for them again within
the hour, and a new deploy's icon name reaches the manifest's readers within it."""


def site_file(template_name: str, content_type: str):
    """A small file of the site's own, the same for everyone, drawn from a template."""
    view = TemplateView.as_view(template_name=template_name, content_type=content_type)
    return cache_control(max_age=SITE_FILE_MAX_AGE, public=True)(view)


urlpatterns = [
    # Before the admin's own URLs, which would otherwise claim the path; admin_view gives it the
    # admin's login and staff check.
    path("admin/statistics/", admin.site.admin_view(statistics_view), name="admin_statistics"),
    path("admin/login/", staff_login, name="staff_login"),  # under the site's login limits
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("favicon.ico", site_icon, name="site_icon"),
    path(
        "manifest.webmanifest",
        site_file("manifest.webmanifest", "application/manifest+json"),
        name="manifest",
    ),
    path("robots.txt", site_file("robots.txt", "text/plain"), name="robots"),
    path("accounts/", include("accounts.urls")),
    path("", include("game.urls")),
]
