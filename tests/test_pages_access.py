"""Every page the kit writes passes axe-core's accessibility check in a real browser with no
critical, serious or moderate violation, and is usable with the keyboard alone.

The pages come from real runs of the grader: a class run's feedback pages and its insights
page, the similarity report of a class holding a disguised copy, the trace page (one plain,
one with a divergence from the reference) and Gradescope's per-test output. axe-core is the
copy `axe-playwright-python` ships (the `test` extra, pinned in constraints.txt).
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from axe_playwright_python.sync_playwright import Axe
from browser import load
from conftest import ROOT, STUDENT_FILES, grader_env, lone, no_traceback, run_grader, self_contained
from playwright.sync_api import Page
from test_similarity import planted_copy

#: The impacts a page may not have (axe's four are minor, moderate, serious, critical):
#: critical and serious, and moderate too since the last ones went (the insights page's main landmark).
BLOCKING = ("critical", "serious", "moderate")
#: Each kind of page the kit writes, by the name the tests give it.
PAGES = ("feedback-full", "feedback-lost", "insights", "similarity", "trace", "trace-divergence", "gradescope")


def _grader(kit: Path, cwd: Path, *args: str | Path) -> None:
    result = run_grader(*args, cwd=cwd, env=grader_env(kit), timeout=300)
    no_traceback(result)
    assert result.returncode in (0, 1), result.stdout + result.stderr


def gradescope_page(results: Path, out: Path) -> None:
    """Gradescope's per-test HTML outputs in a page of their own, as Gradescope lists them:
    a title, a main landmark, each test a section under its name."""
    tests = json.loads(results.read_text(encoding="utf-8"))["tests"]
    sections = "".join(f"<section><h2>{test['name']}</h2>{test['output']}</section>" for test in tests)
    head = "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>Gradescope results</title></head>"
    out.write_text(f"{head}<body><main><h1>Results</h1>{sections}</main></body></html>", encoding="utf-8")


def write_pages(folder: Path, kit: Path = ROOT) -> dict[str, Path]:
    """Every kind of page the kit at `kit` writes, made by its grader in `folder`."""
    submissions = folder / "submissions"
    submissions.mkdir()
    (submissions / "alice.py").write_text(self_contained("correct_reexport"), encoding="utf-8")
    (submissions / "bob.py").write_text(self_contained("flips_values"), encoding="utf-8")
    _grader(kit, folder, kit / "problems", "--submissions", submissions, "--csv", folder / "grades.csv")
    _grader(kit, folder, "insights", folder / "grades-results", "--html", folder / "insights.html")
    similar = folder / "similar"
    similar.mkdir()
    shutil.copyfile(STUDENT_FILES / "model_answer.py", similar / "alice.py")
    carol = (STUDENT_FILES / "similarity_class" / "carol.py").read_text(encoding="utf-8")
    (similar / "carol.py").write_text(carol, encoding="utf-8")
    (similar / "dave.py").write_text(planted_copy(carol), encoding="utf-8")
    _grader(kit, folder, "similarity", similar, "--out", folder / "similarity.html")
    course = kit / "problems" / "course.yaml"
    _grader(kit, folder, course, "--trace", "nctu-1", "--solver", "reference", "--export", folder / "trace.html")
    against = ("--against", "reference", "--solver", lone("reversed_values"))
    _grader(kit, folder, course, "--trace", "nctu-2", *against, "--export", folder / "trace-divergence.html")
    _grader(kit, folder, course, "--solver", submissions / "bob.py", "--format", "gradescope", "--output", folder / "results.json")
    gradescope_page(folder / "results.json", folder / "gradescope.html")
    feedback = folder / "grades-feedback"
    written = {
        "feedback-full": feedback / "alice.html",
        "feedback-lost": feedback / "bob.html",
        "insights": folder / "insights.html",
        "similarity": folder / "similarity.html",
        "trace": folder / "trace.html",
        "trace-divergence": folder / "trace-divergence.html",
        "gradescope": folder / "gradescope.html",
    }
    assert list(written) == list(PAGES) and all(page.is_file() for page in written.values()), written
    return written


def violations(page: Page) -> list[dict[str, Any]]:
    """axe-core's violations on the page open in `page`: each rule's id, impact and nodes."""
    return list(Axe().run(page).response["violations"])


def by_rule(found: list[dict[str, Any]]) -> dict[str, str]:
    """Each violated rule's id: its impact and how many elements break it."""
    return {v["id"]: f"{v['impact']} x{len(v['nodes'])}" for v in found}


@pytest.fixture(scope="module")
def pages(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    return write_pages(tmp_path_factory.mktemp("pages"))


def show_everything(page: Page) -> None:
    """Open every section of the page open in `page` (axe skips what is hidden) and, on a
    trace page with a divergence, go to its step (the step with the most to show)."""
    page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
    page.evaluate("(mark => mark && mark.click())(document.getElementById('divmark'))")


@pytest.mark.parametrize("name", PAGES)
def test_the_page_has_no_critical_serious_or_moderate_violation(browser: Page, pages: dict[str, Path], name: str) -> None:
    load(browser, pages[name])
    show_everything(browser)
    found = violations(browser)
    blocking = [v for v in found if v["impact"] in BLOCKING]
    assert not blocking, (by_rule(blocking), [node["target"] for v in blocking for node in v["nodes"]][:10])


def test_axe_finds_what_it_should(browser: Page, tmp_path: Path) -> None:
    """The check itself: a page with the violations the trace player and the similarity
    report had (a grid without rows, a scrollable region that cannot take focus, an image
    without a name) is failed with those rules, as critical and serious."""
    bad = tmp_path / "bad.html"
    bad.write_text(
        "<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'><title>bad</title></head><body><main>"
        "<div role='grid'><div role='gridcell'>1</div></div>"
        "<pre style='overflow:auto;max-height:3em'>" + "line\n" * 40 + "</pre>"
        "<img src='data:,'></main></body></html>",
        encoding="utf-8",
    )
    load(browser, bad)
    found = by_rule(violations(browser))
    assert found.keys() >= {"aria-required-children", "aria-required-parent", "scrollable-region-focusable", "image-alt"}, found
    assert all(found[rule].split()[0] in BLOCKING for rule in ("aria-required-children", "aria-required-parent", "image-alt")), found


# --- the keyboard alone ------------------------------------------------------------------


def tab_stops(page: Page, most: int = 80) -> list[str]:
    """What Tab focuses, in order from the top of the page, once round (at most `most`
    presses): each element's id, or its tag and text when it has none."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    stops: list[str] = []
    for _ in range(most):
        page.keyboard.press("Tab")
        stop = page.evaluate(
            "(e => e === document.body ? '' : e.id || e.tagName.toLowerCase() + ':' + e.textContent.trim().slice(0, 40))(document.activeElement)"
        )
        if not stop or stop in stops:
            break
        stops.append(stop)
    return stops


def focus(page: Page, wanted: str) -> None:
    """Press Tab from the top of the page until the element `wanted` (a CSS selector) has focus."""
    page.evaluate("document.activeElement && document.activeElement.blur()")
    for _ in range(80):
        page.keyboard.press("Tab")
        if page.evaluate(f"document.activeElement === document.querySelector({json.dumps(wanted)})"):
            return
    raise AssertionError(f"Tab never reaches {wanted}")


def test_the_trace_player_works_from_the_keyboard(browser: Page, pages: dict[str, Path]) -> None:
    load(browser, pages["trace-divergence"], "step=5")
    stops = tab_stops(browser)
    assert {"slider", "first", "prev", "play", "next", "last", "divmark", "path"} <= set(stops), stops

    def step() -> int:
        return int(browser.evaluate("tracePlayer.step()"))

    focus(browser, "#next")
    browser.keyboard.press("Enter")
    assert step() == 6
    browser.keyboard.press("Space")  # a focused button acts on Space, as every button does
    assert step() == 7
    focus(browser, "#prev")
    browser.keyboard.press("Space")
    assert step() == 6
    focus(browser, "#slider")
    browser.keyboard.press("ArrowRight")
    assert step() == 7
    browser.keyboard.press("Home")
    assert step() == 1
    focus(browser, "#divmark")
    browser.keyboard.press("Enter")
    assert step() == int(browser.evaluate("document.getElementById('divmark').dataset.step")) > 1
    focus(browser, "#last")
    browser.keyboard.press("Enter")
    assert step() == browser.evaluate("tracePlayer.steps")


def test_the_feedback_page_opens_its_sections_from_the_keyboard(browser: Page, pages: dict[str, Path]) -> None:
    load(browser, pages["feedback-lost"])
    summaries = browser.evaluate("document.querySelectorAll('summary').length")
    stops = tab_stops(browser)
    assert sum(stop.startswith("summary:") for stop in stops) == summaries > 0, stops
    closed = "details:not([open]) > summary"
    assert browser.evaluate(f"document.querySelectorAll({json.dumps(closed)}).length") > 0
    before = browser.evaluate("document.querySelectorAll('details[open]').length")
    focus(browser, closed)
    browser.keyboard.press("Enter")
    assert browser.evaluate("document.querySelectorAll('details[open]').length") == before + 1


def test_the_similarity_report_works_from_the_keyboard(browser: Page, pages: dict[str, Path]) -> None:
    load(browser, pages["similarity"])
    stops = tab_stops(browser)
    links = browser.evaluate("document.querySelectorAll('.matrix a').length")
    assert links > 0 and sum(stop.startswith("a:") for stop in stops) >= links, stops
    scrollable = browser.evaluate(
        "[...document.querySelectorAll('*')].filter(e => e.scrollHeight > e.clientHeight + 1"
        " && ['auto', 'scroll'].includes(getComputedStyle(e).overflowY)).length"
    )
    assert scrollable > 0 and browser.evaluate("document.querySelectorAll('[tabindex=\"0\"]').length") >= scrollable
    focus(browser, ".matrix a")
    target = browser.evaluate("document.activeElement.hash")
    browser.keyboard.press("Enter")
    assert browser.evaluate("location.hash") == target
    focus(browser, "#pair-1 .side pre")
    assert browser.evaluate("document.activeElement.scrollTop") == 0
    browser.keyboard.press("PageDown")  # the focused code scrolls (smoothly: wait for it, a hung page fails)
    browser.wait_for_function("document.activeElement.scrollTop > 0")


def test_the_insights_page_moves_to_each_table_from_the_keyboard(browser: Page, pages: dict[str, Path]) -> None:
    load(browser, pages["insights"])
    links = browser.evaluate("[...document.querySelectorAll('nav a')].map(a => a.hash)")
    stops = tab_stops(browser)
    assert len(links) > 1 and sum(stop.startswith("a:") for stop in stops) >= len(links), stops
    focus(browser, f"nav a[href='{links[-1]}']")
    browser.keyboard.press("Enter")
    assert browser.evaluate("location.hash") == links[-1]
