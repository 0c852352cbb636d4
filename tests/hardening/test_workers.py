"""When the request-buffering worker (tripeaks_site/workers.py) hands a connection to the site:
once the request's head is in, and its body unless Django would refuse it unread."""

from tripeaks_site.workers import WHOLE_ENOUGH_BYTES, request_arrived

HEAD = b"POST /game/1/draw HTTP/1.1\r\nHost: x\r\n"
LIMIT = 1000


def test_a_head_is_in_at_its_blank_line():
    assert not request_arrived(b"GET / HTTP/1.1\r\nHost: x\r\n", LIMIT)
    assert not request_arrived(b"GET / HTTP/1.1\r\nHost: x\r\n\r", LIMIT)
    assert request_arrived(b"GET / HTTP/1.1\r\nHost: x\r\n\r\n", LIMIT)


def test_a_body_is_waited_for_as_long_as_its_declared_length():
    head = HEAD + b"content-LENGTH: 10\r\n\r\n"
    assert not request_arrived(head + b"123456789", LIMIT)
    assert request_arrived(head + b"1234567890", LIMIT)


def test_a_body_too_large_to_be_read_is_not_waited_for():
    assert request_arrived(HEAD + f"Content-Length: {LIMIT + 1}\r\n\r\n".encode(), LIMIT)


def test_a_header_named_like_the_length_is_not_the_length():
    head = HEAD + b"X-Content-Length: 10\r\n\r\n"
    assert request_arrived(head, LIMIT)


def test_past_enough_bytes_a_request_is_handled_as_the_rest_comes():
    assert request_arrived(b"GET /" + b"x" * WHOLE_ENOUGH_BYTES, LIMIT)
