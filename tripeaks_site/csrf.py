"""The answer to a post whose security token is missing or out of date (CSRF_FAILURE_VIEW)."""

from django.views.csrf import csrf_failure

from game.views import reload_saying_why


def refused(request, reason=""):
    """Django's own refusal, with the site's 403_csrf.html. A tap's token goes out of date when
    the player logs in or out in another tab; an htmx request then asks for the page anew, with a
    fresh token, since an app on a phone's home screen has no reload button to press."""
    response = csrf_failure(request, reason)
    if request.htmx:
        reload_saying_why(request, response)
    return response
