"""The answer to a post whose security token is missing or out of date (CSRF_FAILURE_VIEW)."""

from django.shortcuts import render


def refused(request, reason=""):
    """The site's notice page. A tap's token goes out of date when the player logs in or out in
    another tab; an htmx request then asks for the page anew, with a fresh token, since an app
    on a phone's home screen has no reload button to press."""
    response = render(request, "403_csrf.html", status=403)
    if request.htmx:
        response["HX-Refresh"] = "true"
    return response
