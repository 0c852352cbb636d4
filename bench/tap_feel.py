"""How heavy is the first visit, and how long from a tap to a settled table?

Starts `manage.py runserver` on a loopback port over a scratch SQLite database (migrated here,
removed afterwards), opens the table in Debian's Chromium (/usr/bin/chromium) through Playwright,
and reports:

- the first visit's weight: the page and every resource it loaded, each gzipped as the server's
  compression would send it, summed;
- the time from a tap to a settled table, median and worst of --taps taps: from the click until
  htmx has swapped the answer in and every animation it started has finished. Each tap is a card
  that fits the waste if there is one, else the stock (a new deal, not counted, when the stock is
  out), so the figure covers takes and draws as a player makes them.

Run from the project root:
    python bench/tap_feel.py                 # 20 taps at 1280x800
    python bench/tap_feel.py --taps 40 --width 360 --height 640
"""

import argparse
import gzip
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parent.parent
CHROMIUM = "/usr/bin/chromium"
RANKS = "A23456789TJQK"

# One tap in the page: click, then wait for htmx's settle and for the animations it started.
TAP = """async (selector) => {
  const settled = new Promise((resolve) =>
    document.addEventListener("htmx:afterSettle", resolve, { once: true }));
  const start = performance.now();
  document.querySelector(selector).click();
  await settled;
  await Promise.all(document.getAnimations().map((animation) => animation.finished));
  return performance.now() - start;
}"""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def start_server(database: Path, port: int) -> subprocess.Popen:
    env = {**os.environ, "DATABASE_URL": f"sqlite:///{database}", "DJANGO_DEBUG": "1"}
    manage = [sys.executable, str(ROOT / "manage.py")]
    subprocess.run([*manage, "migrate", "-v0"], env=env, check=True, cwd=ROOT)
    server = subprocess.Popen(
        [*manage, "runserver", "--noreload", "--nothreading", f"127.0.0.1:{port}"],
        env=env,
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=1)
            return server
        except OSError:
            time.sleep(0.2)
    server.kill()
    raise SystemExit("runserver did not answer")


def first_visit_weight(page) -> tuple[int, int]:
    """The page and its resources: bytes as sent, and gzipped."""
    urls = [page.url, *page.evaluate("performance.getEntriesByType('resource').map(e => e.name)")]
    raw = packed = 0
    for url in dict.fromkeys(urls):
        body = page.request.get(url).body()
        raw += len(body)
        packed += len(gzip.compress(body, compresslevel=6))
    return raw, packed


def next_tap(page) -> str | None:
    """The selector of a card that fits the waste, else the stock; None when neither is left."""
    return page.evaluate(
        """(ranks) => {
      const waste = document.querySelector("[data-waste]")?.dataset.waste || "";
      const fits = (code) => {
        if (!waste || waste === "wild") return true;
        const gap = Math.abs(ranks.indexOf(code[0]) - ranks.indexOf(waste[0]));
        return gap === 1 || gap === ranks.length - 1;
      };
      const card = [...document.querySelectorAll("#table [data-free]")].find(
        (element) => fits(element.dataset.card));
      if (card) return `#${card.id}`;
      return Number(document.querySelector("#stock").dataset.stock) > 0 ? "#stock" : null;
    }""",
        RANKS,
    )


def main(argv=None):
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--taps", type=int, default=20)
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--height", type=int, default=800)
    options = parser.parse_args(argv)

    with tempfile.TemporaryDirectory() as scratch:
        port = free_port()
        server = start_server(Path(scratch) / "bench.sqlite3", port)
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"]
                )
                page = browser.new_page(viewport={"width": options.width, "height": options.height})
                page.goto(f"http://127.0.0.1:{port}/")
                page.wait_for_load_state("networkidle")
                raw, packed = first_visit_weight(page)
                times = []
                while len(times) < options.taps:
                    selector = next_tap(page)
                    if selector is None:
                        page.locator("#controls [data-action=new]").click()
                        page.wait_for_load_state("networkidle")
                        continue
                    times.append(page.evaluate(TAP, selector))
                browser.close()
        finally:
            server.terminate()
            server.wait()
    print(f"first visit: {raw / 1024:.1f} KB as sent, {packed / 1024:.1f} KB gzipped")
    print(
        f"tap to settled table over {len(times)} taps at {options.width}x{options.height}: "
        f"median {statistics.median(times):.0f} ms, worst {max(times):.0f} ms"
    )


if __name__ == "__main__":
    main()
