"""A figure of a sweep-reproduce report as a reader's browser shows it (issue 29: "figures at full width").

Opens ``REPORT`` (a ``report.html`` written by ``sweep-reproduce``) in headless Chromium at a window
``--width`` pixels wide and saves the figure whose ``alt`` is ``--figure`` (the preset's figure name)
exactly as laid out on the page, with its size in pixels printed. Needs the ``playwright`` package and
a Chromium (``--browser``, e.g. Debian's ``/usr/bin/chromium``); neither is a dependency of sweep.

    python benchmarks/report_screenshot.py REPORT --figure ipg00_sampling --out shot.png
"""

from __future__ import annotations

import argparse
from pathlib import Path


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("report", type=Path)
    parser.add_argument("--figure", default="ipg00_sampling")
    parser.add_argument("--out", type=Path, default=Path("report_figure.png"))
    parser.add_argument("--width", type=int, default=1280)
    parser.add_argument("--browser", default="/usr/bin/chromium")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=args.browser, args=["--no-sandbox"])
        page = browser.new_page(viewport={"width": args.width, "height": 900})
        page.goto(args.report.resolve().as_uri())
        figure = page.locator(f'img[alt="{args.figure}"]')
        box = figure.bounding_box()
        figure.screenshot(path=str(args.out))
        browser.close()
    size = f"{box['width']:.0f} x {box['height']:.0f} px"
    print(f"{args.figure}: {size} in a {args.width} px window -> {args.out}")


if __name__ == "__main__":
    main()
