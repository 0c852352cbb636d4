"""Settings for the TriPeaks site, read from the environment (see README, "Settings")."""

import os
import re
from datetime import timedelta
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from game.engine.deck import DEVELOPMENT_DEAL_KEY

BASE_DIR = Path(__file__).resolve().parent.parent


def env_flag(name, default):
    return os.environ.get(name, default).strip().lower() in {"1", "true", "yes", "on"}


def env_list(name, default):
    return [item.strip() for item in os.environ.get(name, default).split(",") if item.strip()]


def env_whole_number(name, default, minimum):
    """A whole number from the environment, `minimum` or more; any other refuses to start."""
    value = os.environ.get(name, default).strip()
    if not re.fullmatch(r"[0-9]+", value) or int(value) < minimum:
        raise ImproperlyConfigured(
            f"{name} must be a whole number, {minimum} or more: not {value!r}."
        )
    return int(value)


# django-ratelimit's rate: a count per second, minute, hour or day, or per several (100/5m). Its
# own parser fails on others only when a request is counted, or reads them as something else
# ("30/M" as 30 a second).
RATE = re.compile(r"[1-9][0-9]*/([1-9][0-9]*)?[smhd]")


def env_rate(name, default):
    """A django-ratelimit rate from the environment, or None (no limit) for an empty one; any
    other refuses to start."""
    value = os.environ.get(name, default).strip()
    if value and not RATE.fullmatch(value):
        raise ImproperlyConfigured(
            f"{name} must be a rate such as 30/m or 100/5m (a count per s, m, h or d), "
            f"or empty for no limit: not {value!r}."
        )
    return value or None


# Development mode unless told otherwise, so `make run` works with no setup.
DEBUG = env_flag("DJANGO_DEBUG", "1")


def env_secret(name, development_value):
    """A secret from the environment: required in production, a fixed value in development."""
    value = os.environ.get(name, "")
    if value:
        return value
    if not DEBUG:
        raise ImproperlyConfigured(
            f"{name} must be set when DJANGO_DEBUG is off "
            "(set DJANGO_DEBUG=1 for local development)."
        )
    return development_value


SECRET_KEY = env_secret("DJANGO_SECRET_KEY", "django-insecure-development-only")
# The key of the deal-number shuffle (game/engine/deck.py): without it nobody can work a deal's
# face-down cards out from its number. One site keeps one key: another deals other cards.
TRIPEAKS_DEAL_KEY = env_secret("TRIPEAKS_DEAL_KEY", DEVELOPMENT_DEAL_KEY)

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", "localhost,127.0.0.1,[::1]")

# Production is HTTPS only. DJANGO_INSECURE_LOCAL_HTTP=1 serves plain HTTP with insecure cookies,
# for trying production mode on loopback (`make prod`, the server tests); never on a real host.
HTTPS_ONLY = not DEBUG and not env_flag("DJANGO_INSECURE_LOCAL_HTTP", "0")
SECURE_SSL_REDIRECT = HTTPS_ONLY and env_flag("DJANGO_SECURE_SSL_REDIRECT", "1")
# The health check answers load balancers, which probe over plain HTTP.
SECURE_REDIRECT_EXEMPT = [r"^healthz$"]
SESSION_COOKIE_SECURE = HTTPS_ONLY
CSRF_COOKIE_SECURE = HTTPS_ONLY
CSRF_FAILURE_VIEW = "tripeaks_site.csrf.refused"
SECURE_HSTS_SECONDS = 365 * 24 * 3600 if HTTPS_ONLY else 0
SECURE_HSTS_INCLUDE_SUBDOMAINS = HTTPS_ONLY
SECURE_HSTS_PRELOAD = HTTPS_ONLY
# Behind a TLS-terminating proxy, trust its X-Forwarded-Proto (only if the proxy always sets it).
if env_flag("DJANGO_BEHIND_TLS_PROXY", "0"):
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.humanize",
    # Before staticfiles, so runserver serves static files the way production does.
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django_htmx",
    "axes",
    "game",
    "accounts",
]

MIDDLEWARE = [
    # First, so that it sees every response.
    "tripeaks_site.head.HeadWithoutBodyMiddleware",
    # Before anything reads the host: a load balancer's probe by the server's address.
    "tripeaks_site.health.AnyHostMiddleware",
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "tripeaks_site.sessions.OutageAwareSessionMiddleware",
    "tripeaks_site.sessions.RenewalMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # Inside the CSP, so that its page gets the header too.
    "tripeaks_site.not_allowed.NotAllowedMiddleware",
    # Before anything reads a request's body (each __call__ here runs before any view, and the
    # CSRF check reads forms in its process_view); after the CSP so that its pages get the header.
    "tripeaks_site.request_bodies.RequestBodyMiddleware",
    # After the auth middleware: answers a locked-out login with our lockout page.
    "axes.middleware.AxesMiddleware",
    # Answers a client address past its rate (tripeaks_site/limits.py) with our 429 page.
    "django_ratelimit.middleware.RatelimitMiddleware",
    # Last, so it sees a view's database or Redis error first and answers 503 instead of a 500.
    "tripeaks_site.outage.OutageMiddleware",
]

# Only our own files: no inline scripts or style attributes, no eval (htmx runs with allowEval off).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.SELF],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

ROOT_URLCONF = "tripeaks_site.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "tripeaks_site.wsgi.application"

DATABASES = {
    "default": dj_database_url.config(
        default=f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        # A worker keeps its connection; the development server's thread per request would keep
        # one each, until PostgreSQL has none left to give.
        conn_max_age=0 if DEBUG else 60,
        conn_health_checks=True,
    )
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several server processes on one file: take the write lock when a transaction begins (as
    # select_for_update does on PostgreSQL) and wait for it, rather than fail with "locked".
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # Tests on a file beside the database rather than in memory: the live server's request
    # threads would otherwise all share the test's one in-memory connection, and two requests at
    # once on it can garble what each reads.
    DATABASES["default"]["TEST"] = {"NAME": f"{DATABASES['default']['NAME']}.test"}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # Every tap runs the same few statements: bound and prepared on the server, each is parsed
    # and planned once per connection rather than once per request. A database that takes the
    # connection and never answers is given up on in seconds (then a 503), not left to hold the
    # worker until gunicorn kills it.
    DATABASES["default"]["OPTIONS"] = {
        "server_side_binding": True,
        "prepare_threshold": 5,
        "connect_timeout": 5,
    }


def redis_cache(url: str) -> dict:
    """The cache on the Redis at `url`. Play goes on while Redis is away: a read is a miss and a
    write is skipped, so sessions come from the database, which holds every one; a Redis that
    hangs is given up on soon, as one that refuses."""
    options = {"IGNORE_EXCEPTIONS": True, "SOCKET_CONNECT_TIMEOUT": 0.5, "SOCKET_TIMEOUT": 0.5}
    return {"BACKEND": "django_redis.cache.RedisCache", "LOCATION": url, "OPTIONS": options}


if REDIS_URL := os.environ.get("REDIS_URL"):
    # Any other would fail only at the first cache call, on every request. The URL is not
    # repeated: it may hold a password.
    if not REDIS_URL.startswith(("redis://", "rediss://", "unix://")):
        raise ImproperlyConfigured("REDIS_URL must start with redis://, rediss:// or unix://.")
    CACHES = {"default": redis_cache(REDIS_URL)}
    # Sessions read from Redis, written through to the database so a flushed cache loses none.
    SESSION_ENGINE = "tripeaks_site.sessions"
else:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
DJANGO_REDIS_LOG_IGNORED_EXCEPTIONS = True

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# Accounts (README, "Accounts"): log in and out of the table itself.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "table"
LOGOUT_REDIRECT_URL = "table"

# Login throttling with django-axes: its backend first refuses anyone locked out. Five failed
# passwords for one user name from one address lock that pair out for 15 minutes, so a guesser is
# slowed down without letting anyone lock a player out from elsewhere.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]
AXES_FAILURE_LIMIT = 5
AXES_COOLOFF_TIME = timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_RESET_ON_SUCCESS = True
AXES_LOCKOUT_CALLABLE = "accounts.views.locked_out"
AXES_CLIENT_IP_CALLABLE = "tripeaks_site.limits.client_address"

# How many proxies of the site's own stand in front of gunicorn. With none, a client's address is
# its connection's; behind them, the one the outermost saw, read from X-Forwarded-For. Count
# only proxies that always append to that header, else clients could name any address they like.
TRIPEAKS_TRUSTED_PROXIES = env_whole_number("TRIPEAKS_TRUSTED_PROXIES", "0", minimum=0)

# Posts per client address (tripeaks_site/limits.py), counted in the cache by django-ratelimit
# and answered with a 429 page past the rate. While Redis is away nothing can be counted: the
# posts go through (RATELIMIT_FAIL_OPEN) rather than all being refused.
TRIPEAKS_ADDRESS_RATES = {"login": "20/m", "signup": "10/h", "password_change": "20/h"}
RATELIMIT_IP_META_KEY = "tripeaks_site.limits.client_address"
RATELIMIT_VIEW = "accounts.views.throttled"
RATELIMIT_FAIL_OPEN = True

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = Path(os.environ.get("DJANGO_STATIC_ROOT") or BASE_DIR / "staticfiles")
STATICFILES_DIRS = [BASE_DIR / "static"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    # Hashed, compressed files in production; development needs no collectstatic.
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# The site takes no files and its forms are a few short fields: a larger body is refused unread
# (tripeaks_site/request_bodies.py), and so is any file part.
DATA_UPLOAD_MAX_MEMORY_SIZE = 64 * 1024
DATA_UPLOAD_MAX_NUMBER_FILES = 0

# In production, warnings and errors (a server error's traceback above all) go to stderr, where
# gunicorn and the process manager collect them. Django's own default sends a server error only
# to ADMINS by mail, which, with none set, writes it nowhere. Development keeps Django's console.
if not DEBUG:
    LOGGING = {
        "version": 1,
        "disable_existing_loggers": False,
        "handlers": {"stderr": {"class": "logging.StreamHandler", "level": "WARNING"}},
        "root": {"handlers": ["stderr"]},
        "filters": {"once_a_minute": {"()": "tripeaks_site.logs.OnceAMinute"}},
        "loggers": {"django_redis.cache": {"filters": ["once_a_minute"]}},
    }

# How long the Hint may think, in milliseconds, before it answers with its best move so far.
HINT_BUDGET_MS = env_whole_number("TRIPEAKS_HINT_BUDGET_MS", "1000", minimum=1)
# How often one player may ask for a Hint, counted in the cache by django-ratelimit: each may
# hold a worker for a search, so a client sending Hint over and over is slowed, not the site.
HINT_RATE = env_rate("TRIPEAKS_HINT_RATE", "30/m")
# And from one client address, whatever sessions it names: a client dropping its cookie is a new
# player each time. Wide enough for a household or a classroom behind one address; empty: none.
HINT_ADDRESS_RATE = env_rate("TRIPEAKS_HINT_ADDRESS_RATE", "120/m")
