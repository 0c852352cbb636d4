"""Refuses request bodies the site never takes, before anything reads them.

Every form of the site is a few short fields: no page takes a file, so a body larger than
DATA_UPLOAD_MAX_MEMORY_SIZE is refused (413) on its Content-Length alone, unread; Django reads no
more of a body than its Content-Length says, so that bounds what any request can send. A file part
inside a smaller body is refused by Django itself (DATA_UPLOAD_MAX_NUMBER_FILES is 0).

A form in a character set other than UTF-8 is refused (400) here as well: Django refuses it
too, but only when a view reads the form, and its 400 handler then reads the form again for its
CSRF token, which fails the same way and ends in a server error.
"""

import codecs

from django.conf import settings
from django.shortcuts import render

FORM_TYPES = {"application/x-www-form-urlencoded", "multipart/form-data"}


def declared_length(request) -> int:
    """The body's length as the request declares it; Django reads none of a body without one."""
    try:
        return int(request.META.get("CONTENT_LENGTH") or 0)
    except ValueError:
        return 0


def refusal(request, status: int, title: str, message: str):
    context = {"title": title, "message": message}
    return render(request, "notice_page.html", context, status=status)


class RequestBodyMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if declared_length(request) > settings.DATA_UPLOAD_MAX_MEMORY_SIZE:
            too_large = "That request is too large: the site takes no files."
            return refusal(request, 413, "Too large", too_large)
        encoding = request.encoding
        if request.content_type in FORM_TYPES and encoding:
            if codecs.lookup(encoding).name != "utf-8":
                unread = "That form could not be read: forms are sent as UTF-8."
                return refusal(request, 400, "Not understood", unread)
            # Django reads a form in UTF-8 only by this name: "utf8" and the like it refuses.
            request.encoding = "utf-8"
        return self.get_response(request)
