"""A real browser (Debian's Chromium driven by Playwright) opens the page; Chromium's fake camera
plays a Y4M video rendered from a generated game; recognised cards and an announced event must
appear on the page. With SISEPAI_UPDATE_SCREENSHOT=1 it also refreshes the README's screenshot."""

import os
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

from sisepai.datasets.video.game import GameVideo
from tests.service_process import free_port

CHROMIUM = shutil.which("chromium") or "/usr/bin/chromium"
DOCS_SCREENSHOT = Path(__file__).resolve().parents[2] / "docs" / "screenshot.png"
DOCS_TAB = "hand"  # the tab docs/screenshots/ shows in each language
"""The README's picture: refreshed by this test only with SISEPAI_UPDATE_SCREENSHOT=1 (a plain test
run leaves the working tree as it was)."""

pytestmark = [pytest.mark.model,
              pytest.mark.skipif(not Path(CHROMIUM).exists(), reason="Chromium is not installed "
                                 "(scripts/system-deps.sh installs it)")]



FAKE_CAMERA = ["--no-sandbox", "--disable-gpu", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream"]
"""Chromium with a fake camera that the page may use without asking."""


def _camera_playing(video: Path) -> list[str]:
    """:data:`FAKE_CAMERA`, its picture the Y4M ``video`` (played in a loop)."""
    return [*FAKE_CAMERA, f"--use-file-for-fake-video-capture={video}"]


def _start(app, port: int, host: str = "127.0.0.1"):
    import uvicorn

    srv = uvicorn.Server(uvicorn.Config(app, host=host, port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    for _ in range(100):
        if srv.started:
            break
        time.sleep(0.1)
    return srv, thread


def _open_table(page, name: str) -> None:
    """Open a club table from the ledger tab's form, and wait until the table chooser offers it."""
    page.fill("#newtable", name)
    page.click("#tableform button[type=submit]")
    page.wait_for_function(f"() => [...document.querySelectorAll('#tablechoice option')].some(o => o.value === '{name}')")


def _stop(srv, thread) -> None:
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def server(recognizer, tmp_path_factory):
    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings

    port = free_port()
    app = create_app(Settings(db=str(tmp_path_factory.mktemp("db") / "l.sqlite"), load_model=False),
                     recognizer=recognizer)
    running = _start(app, port)
    yield f"http://127.0.0.1:{port}"
    _stop(*running)


def test_live_page_shows_cards_and_announces(server, tmp_path):
    from playwright.sync_api import sync_playwright

    video = tmp_path / "game.y4m"
    GameVideo(seed=5, seconds=12, fps=5, size=(1280, 720), hands_over=False).write(video)
    args = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-sync",
            "--disable-component-update", "--use-fake-device-for-media-stream", "--use-fake-ui-for-media-stream",
            f"--use-file-for-fake-video-capture={video}"]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        page = browser.new_page(viewport={"width": 1100, "height": 900})
        page.goto(server + "/")
        page.click("#start")
        page.wait_for_function("() => document.querySelectorAll('#cards .chip').length > 0", timeout=90_000)
        page.wait_for_function("() => document.querySelector('#events li.ev-card_shown')", timeout=90_000)
        shown = page.locator("#events li.ev-card_shown").first.text_content()
        assert any(verb in shown for verb in ("shows", "discards", "draws")), shown
        # the log starts with the table as it was, and its lines carry no cut-off list numbers
        assert page.locator("#events li.ev-table").count() == 1
        assert page.evaluate("getComputedStyle(document.querySelector('#events')).listStyleType") == "none"
        shot = DOCS_SCREENSHOT if os.environ.get("SISEPAI_UPDATE_SCREENSHOT") == "1" else tmp_path / "page.png"
        page.screenshot(path=str(shot))
        assert shot.stat().st_size > 10_000  # a rendered page, not a blank
        chips = page.locator("#cards .chip").count()
        events = page.locator("#events li").count()
        browser.close()
    assert chips > 0 and events > 0


def test_confirm_a_photographed_hand_on_a_phone_and_record_it(server, tmp_path):
    """Score tab on a phone-sized screen: a photo of a finished hand is read, its cards shown in
    their melds; tapping a card and choosing another rescoring at once; a missing card added;
    Record writes the deal with its cards to the ledger."""
    import cv2
    import httpx
    from playwright.sync_api import sync_playwright

    from sisepai.datasets.scenes.scene import make_scene

    # a hand whose 21 cards all show, and which the shipped recogniser reads exactly: this test is
    # about the page's confirm-and-record flow; how often hands read exactly is in the model card
    scene = make_scene(20, 20, layout="hand", plain=True)
    truth = sorted(c["card"] for c in scene.cards if c["zone"] == "hand")
    photo = tmp_path / "hand.png"
    cv2.imwrite(str(photo), scene.image[..., ::-1])
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2, is_mobile=True,
                                has_touch=True)
        page.goto(server + "/")
        page.click("nav button[data-tab=score]")
        page.set_input_files("#photo", str(photo))
        page.wait_for_function("() => document.querySelectorAll('#melds .chip').length === 21", timeout=60_000)
        assert page.locator("#confirmscore").inner_text().startswith("a win:")
        assert page.locator("#melds .meld").count() >= 6  # shown in meld groups
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390  # fits the phone's width
        read = sorted(page.evaluate("() => Array.from(document.querySelectorAll('#melds .chip')).map(c => c.textContent)"))
        # remove one card: no longer a win; add it back through the picker: a win again
        first = page.locator("#melds .chip").first
        glyph = first.inner_text()
        first.tap()
        page.locator("#fixpicker button.remove").tap()
        page.wait_for_function("() => document.querySelector('#confirmscore').textContent.includes('not a winning hand')")
        page.click("#addcard")
        page.locator("#fixpicker button", has_text=glyph).first.tap()
        page.wait_for_function("() => document.querySelector('#confirmscore').textContent.startsWith('a win:')")
        page.fill("#recplayers", "Ann, Bo, Cy, Di")
        page.fill("#recwinner", "Ann")
        page.click("#record")
        page.wait_for_function("() => document.querySelector('#scoreout').textContent.startsWith('recorded deal')")
        recorded = page.locator("#scoreout").inner_text()
        page.click("#record")  # a second tap adds nothing, and says so
        page.wait_for_function("() => document.querySelector('#scoreout').textContent.includes('already')")
        assert re.search(r"#\d+", recorded)[0] in page.locator("#scoreout").inner_text()
        browser.close()
    deals = httpx.get(server + "/api/ledger").json()["deals"]
    assert sum(d["cards"] == deals[-1]["cards"] for d in deals) == 1
    deal = deals[-1]
    assert deal["winner"] == "Ann" and deal["points"] > 0
    assert sorted(deal["cards"].split()) == truth
    assert len(read) == 21


def test_a_win_seen_live_is_recorded_with_one_tap_and_only_once(server, tmp_path):
    """The camera sees a winning hand laid down at South: the page shows the win, its cards and
    points, and South's player picked as the winner; Record writes the deal with its cards. A
    second tap, and the same hand seen again by a new session (players remembered: one tap), find
    the deal already there: the ledger holds it once."""
    import httpx
    from playwright.sync_api import sync_playwright

    from sisepai.datasets.video.win_video import WinVideo

    before = max((d["id"] for d in httpx.get(server + "/api/ledger").json()["deals"]), default=0)
    video = WinVideo(seed=20, seconds=8, fps=5, before=3.0)
    path = tmp_path / "win.y4m"
    video.write(path)
    args = _camera_playing(path)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page.goto(server + "/")
        page.click("#start")
        page.wait_for_selector("#winseen:not([hidden])", timeout=120_000)
        assert page.locator("#wintitle").inner_text().startswith("South wins: 9 points")
        assert page.locator("#wincards .chip").count() == 21
        page.fill("#winplayers", "Cy, Di, Ann, Bo")  # South, East, North, West
        assert page.locator("#winwinner").input_value() == "Cy"  # the winner's seat picks the player
        page.click("#winrecord")
        page.wait_for_function("() => document.querySelector('#winout').textContent.startsWith('Recorded as deal')")
        page.click("#winrecord")  # a second tap
        page.wait_for_function("() => document.querySelector('#winout').textContent.startsWith('This win is in the ledger')")
        page.click("#stop")
        page.reload()  # a new session sees the same hand again
        page.click("#start")
        page.wait_for_selector("#winseen:not([hidden])", timeout=120_000)
        assert page.locator("#winplayers").input_value() == "Cy, Di, Ann, Bo"  # remembered
        page.click("#winrecord")  # one tap
        page.wait_for_function("() => document.querySelector('#winout').textContent.startsWith('This win is in the ledger')")
        browser.close()
    deals = httpx.get(server + "/api/ledger").json()["deals"]
    mine = [d for d in deals if d["id"] > before]  # this test's deals, whoever won them
    wins = [d for d in mine if d["cards"] and sorted(d["cards"].split()) == video.cards]
    assert len(mine) == len(wins) == 1 and wins[0]["winner"] == "Cy" and wins[0]["points"] == 9
    assert wins[0]["source"] == "auto"


def test_the_page_on_a_lan_token_once_reconnects_and_explains_the_camera(tmp_path):
    from playwright.sync_api import sync_playwright

    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings
    from sisepai.service.tls import local_addresses

    from .test_api import CountingRecognizer

    port = free_port()
    db = str(tmp_path / "l.sqlite")

    def app(rec):
        return create_app(Settings(db=db, load_model=False, token="s3cret", host="0.0.0.0"), recognizer=rec)

    first = CountingRecognizer()
    running = _start(app(first), port, host="0.0.0.0")
    args = FAKE_CAMERA
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        page = browser.new_page()
        prompts = []
        page.on("dialog", lambda d: (prompts.append(d.message), d.accept("s3cret")))
        page.goto(f"http://127.0.0.1:{port}/")
        # the ledger's token: asked once, kept in the browser
        page.click("nav button[data-tab=ledger]")
        for points in ("3", "5"):
            page.fill("#players", "Ann, Bo")
            page.fill("#winner", "Ann")
            page.fill("#points", points)
            page.click("#dealform button[type=submit]")
            page.wait_for_function("() => document.querySelector('#totals').textContent.includes('Ann')")
        assert len(prompts) == 1 and "password" in prompts[0] and "SISEPAI" not in prompts[0]
        # a second table of the club: its own deals and totals, beside the club-wide totals
        page.fill("#newtable", "patio")
        page.click("#tableform button[type=submit]")
        page.wait_for_function("() => document.querySelector('#totals').textContent.includes('At patio')")
        page.fill("#players", "Cy, Bo")
        page.fill("#winner", "Cy")
        page.fill("#points", "7")
        page.click("#dealform button[type=submit]")
        page.wait_for_function("() => document.querySelector('#totals').textContent.includes('Cy')")
        assert "Ann" not in page.text_content("#totals")
        assert all(t in page.text_content("#clubtotals") for t in ("Ann8", "Bo-15", "Cy7"))
        assert page.eval_on_selector("#tablechoice", "s => s.value") == "patio"
        import httpx

        patio = httpx.get(f"http://127.0.0.1:{port}/api/ledger?table=patio").json()
        assert [d["table"] for d in patio["deals"]] == ["patio"] and patio["totals"] == {"Cy": 7, "Bo": -7}
        # live: frames flow; after a server restart the page reconnects and frames flow again
        page.click("nav button[data-tab=live]")
        page.click("#start")
        page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('live')", timeout=30_000)
        deadline = time.time() + 20
        while first.calls == 0 and time.time() < deadline:
            time.sleep(0.2)
        assert first.calls > 0
        _stop(*running)
        page.wait_for_function("() => document.querySelector('#status').textContent.includes('disconnected')", timeout=20_000)
        second = CountingRecognizer()
        running = _start(app(second), port, host="0.0.0.0")
        deadline = time.time() + 40
        while second.calls == 0 and time.time() < deadline:
            time.sleep(0.2)
        assert second.calls > 0  # frames resumed without a reload
        # over plain http on a LAN address the page is not a secure context: it says why
        lan = next((a for a in local_addresses() if ":" not in a and not a.startswith("127.")), None)
        if lan:
            page.goto(f"http://{lan}:{port}/")
            page.click("#start")
            page.wait_for_function("() => document.querySelector('#status').textContent.includes('secure page')")
        browser.close()
    _stop(*running)


def test_the_live_view_says_busy_under_load_recovers_and_stops(tmp_path):
    """Another client keeps the only worker busy: the live view says the server is busy instead
    of freezing, updates again when the load ends, and Stop ends the stream (Start opens one)."""
    from playwright.sync_api import sync_playwright

    from sisepai.service.main import create_app
    from sisepai.service.settings import Settings

    from .test_hardening import BlockingRecognizer, jpeg

    rec = BlockingRecognizer()
    port = free_port()
    running = _start(create_app(Settings(db=str(tmp_path / "l.sqlite"), load_model=False, workers=1, queue=0),
                                recognizer=rec), port)
    import httpx

    load = threading.Thread(target=lambda: httpx.post(f"http://127.0.0.1:{port}/api/recognize", timeout=30,
                                                      files={"file": ("a.jpg", jpeg(), "image/jpeg")}))
    args = FAKE_CAMERA
    try:
        load.start()
        assert rec.started.wait(10)
        with sync_playwright() as pw:
            browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
            page = browser.new_page()
            page.goto(f"http://127.0.0.1:{port}/")
            page.click("#start")
            page.wait_for_function("() => document.querySelector('#status').textContent.includes('busy')",
                                   timeout=20_000)
            rec.release.set()
            load.join(30)
            page.wait_for_function("() => document.querySelector('#status').textContent.startsWith('live ·')",
                                   timeout=20_000)
            assert page.is_disabled("#start")  # one stream per page: no second Start while it runs
            page.click("#stop")
            page.wait_for_function("() => document.querySelector('#status').textContent === 'camera stopped'")
            time.sleep(0.5)  # a frame sent just before Stop may still be answered
            calls = rec.calls
            time.sleep(1.5)
            assert rec.calls == calls  # no frames after Stop
            assert page.is_enabled("#start")
            browser.close()
    finally:
        rec.release.set()
        _stop(*running)


CONTRAST = """() => {
  const lum = (rgb) => { const c = rgb.match(/[\\d.]+/g).slice(0, 3).map((v) => { v = v / 255;
    return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * c[0] + 0.7152 * c[1] + 0.0722 * c[2]; };
  const background = (el) => { for (; el; el = el.parentElement) { const b = getComputedStyle(el).backgroundColor;
    const alpha = (b.match(/[\\d.]+/g) || []).length === 4 ? +b.match(/[\\d.]+/g)[3] : 1;
    if (b !== "transparent" && alpha > 0.5) return b; } return "rgb(255, 255, 255)"; };
  const worst = [];
  for (const el of document.querySelectorAll("button, .chip, nav, label, h2, .note, a, td")) {
    const fg = lum(getComputedStyle(el).color), bg = lum(background(el));
    const ratio = (Math.max(fg, bg) + 0.05) / (Math.min(fg, bg) + 0.05);
    if (ratio < 4.5) worst.push(`${el.tagName}#${el.id}.${el.className} "${el.textContent.slice(0, 12)}" ${ratio.toFixed(2)}`);
  }
  return worst;
}"""


def test_the_page_in_plain_words_for_every_player(server, tmp_path):
    """The page a family meets: roles for the tabs and the events, AA contrast on every control
    (computed from the page's CSS), a picker that closes and has Cancel, cards reachable by
    keyboard, errors in one sentence, a Chinese table name, undo that asks first, one language for
    words and characters, the Gang of Four tab, and My deck's own camera preview."""
    import httpx
    from playwright.sync_api import sync_playwright

    video = tmp_path / "grid.y4m"
    GameVideo(seed=6, seconds=2, fps=5, size=(640, 360), hands_over=False).write(video)
    args = _camera_playing(video)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=args)
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page.goto(server + "/")
        assert page.locator("[role=tab]").count() == 6 and page.locator("#events").get_attribute("aria-live") == "polite"
        assert page.evaluate(CONTRAST) == []
        page.click("#tab-score")
        assert page.locator("#tab-score").get_attribute("aria-selected") == "true"
        assert page.locator("#tab-live").get_attribute("aria-selected") == "false"
        assert "four of a kind 2 points" in page.locator("#rulesline").inner_text()  # each rule set in one line
        # the confirm view of a photographed hand, with one doubtful card
        page.evaluate("""() => { confirmed = { cards: "GK GA GE WK WA WE YR YH YC RR RH RC GP GP GP WP WP WP YP YP RP".split(" "),
                                           doubt: new Set([0]), alternatives: { 0: ["RK"] } };
                                 document.getElementById("confirm").hidden = false; rescore(); }""")
        page.wait_for_function("() => document.querySelectorAll('#melds .chip').length === 21")
        first = page.locator("#melds .chip").first
        assert first.evaluate("el => el.tagName") == "BUTTON"  # reachable by keyboard
        assert page.evaluate(CONTRAST) == []  # the dashed outline of a doubtful card included
        first.focus()
        page.keyboard.press("Enter")
        assert page.locator("#fixpicker").is_visible()
        page.locator("#fixpicker button.cancel").click()
        assert page.locator("#fixpicker").is_hidden()  # Cancel closes it
        first.click()
        page.locator("#fixpicker button[data-code=RK]").click()
        assert page.locator("#fixpicker").is_hidden()  # and so does a choice
        page.wait_for_function("() => document.querySelector('#melds .chip').dataset.code !== undefined")
        # the ledger: errors in one sentence, a Chinese table, undo asks first
        page.click("#tab-ledger")
        _open_table(page, "桌子1")
        page.wait_for_function("() => document.querySelector('#tablestatus').textContent.length > 0")
        assert page.locator("#tablestatus").inner_text() == "Table “桌子1” is open; new deals are recorded there."
        # the manage form: every field labelled where it stands, and a table with no deals deleted
        assert page.evaluate("() => ['managekind', 'managename', 'manageaction', 'manageother'].every("
                             "(id) => document.getElementById(id).closest('label')?.querySelector('span')?.offsetParent)")
        _open_table(page, "spare")
        page.select_option("#managekind", "table")
        page.fill("#managename", "spare")
        page.select_option("#manageaction", "delete")
        assert page.locator("#manageother").is_hidden()  # nothing to name for a deletion
        page.click("#manageform button[type=submit]")
        page.wait_for_function("() => document.querySelector('#ledgerout').textContent.includes('deleted')")
        assert page.locator("#ledgerout").inner_text() == "“spare” deleted (it had no deals)."
        page.wait_for_function("() => ![...document.querySelectorAll('#tablechoice option')].some(o => o.value === 'spare')")
        page.select_option("#tablechoice", "桌子1")
        page.fill("#players", "Ann")
        page.click("#dealform button[type=submit]")
        page.wait_for_function("() => document.querySelector('#ledgerout').textContent.length > 0")
        error = page.locator("#ledgerout").inner_text()
        assert error == "Players: give at least 2." and "[" not in error
        page.fill("#players", "Ann, Bo")
        assert page.locator("#ledgerout").inner_text() == ""  # the error went with the input it answered
        page.fill("#winner", "Ann")
        page.fill("#points", "3")
        page.fill("#discarder", "Bo")
        page.click("#dealform button[type=submit]")
        page.wait_for_function("() => document.querySelector('#totals').textContent.includes('Ann')")
        asked = []
        page.once("dialog", lambda d: (asked.append(d.message), d.dismiss()))
        page.click("#undo")
        page.wait_for_timeout(300)
        assert asked and "Undo the last deal at 桌子1" in asked[0] and "Ann won 3 points" in asked[0]
        assert "filename*=UTF-8''sisepai-ledger-%E6%A1%8C%E5%AD%901.csv" in httpx.get(
            server + "/api/ledger/export.csv", params={"table": "桌子1"}).headers["content-disposition"]
        # the hand's picker stops at a whole hand, and says why
        page.click("#tab-hand")
        page.evaluate("() => { hand = 'GK GA GE WK WA WE YR YH YC RR RH RC GP WP YP RP WC WC WC YK J'.split(' '); renderHand(); }")
        assert page.locator("#picker button:not([disabled])").count() == 0
        assert page.locator("#picker .pickerfull").inner_text().startswith("A hand holds at most 21 cards")
        page.locator("#myhand .chip").first.click()  # one taken back: the picker opens again
        assert page.locator("#picker button:not([disabled])").count() > 0 and page.locator("#picker .pickerfull").count() == 0
        # one language: the tabs' words and the cards' characters in simplified Chinese
        page.select_option("#lang", "zh")
        page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")  # its catalogue loaded
        assert page.locator("#tab-ledger").inner_text() == "账本"
        assert page.locator("#picker button[data-code=GK]").inner_text() == "G将"
        assert page.locator("#picker button[data-code=GK]").get_attribute("title")  # named, not coded
        page.select_option("#lang", "en")
        page.wait_for_function("() => document.documentElement.lang === 'en'")
        # Gang of Four
        page.click("#tab-gof")
        page.fill("#gofhand", "g1 g1 y5 r7 r8 r9 r10 m1")
        page.click("#gofadvise")
        page.wait_for_function("() => document.querySelector('#gofout').textContent.includes('legal plays')")
        page.fill("#gofleft", "0, 3")
        page.click("#gofscore")
        page.wait_for_function("() => document.querySelector('#gofscoreout').textContent.length > 0")
        assert page.locator("#gofscoreout").inner_text() == \
            "Cards left in each hand: give 4 numbers, one for each hand, like 0, 3, 7, 12."
        page.fill("#gofleft", "0, 3, 7, 12")
        assert page.locator("#gofscoreout").inner_text() == ""
        page.click("#gofscore")
        page.wait_for_function("() => document.querySelector('#gofscoreout').textContent.includes('Player 1')")
        scores = page.locator("#gofscoreout").inner_text().splitlines()
        assert scores[0] == "Player 1: 0 cards left, no penalty" and "+" not in "".join(scores)
        assert scores[3].startswith("Player 4: 12 cards left, ") and scores[3].endswith("penalty points")
        # My deck: the camera preview in its own tab, each photo a new try
        page.click("#tab-deck")
        page.wait_for_function("() => document.querySelectorAll('#gridhelp td').length === 29")
        assert page.evaluate(CONTRAST) == []  # the grid to lay, its joker cell included
        page.click("#deckcamera")
        # the preview shows once the camera plays: its picture's size is known a moment before
        page.wait_for_function("() => document.querySelector('#deckvideo').videoWidth > 0"
                               " && !document.querySelector('#deckview').hidden", timeout=30_000)
        assert page.locator("#deckvideo").is_visible()
        page.click("#snap")
        page.click("#snap")
        page.wait_for_function("() => document.querySelector('#deckstatus').textContent.startsWith('photo taken')")
        assert page.evaluate("() => gridShots.length") == 1
        browser.close()


ENGLISH_LEFT = """(langs) => {
  // every stretch of English the catalogue holds (6 letters or more, placeholders cut out) that the
  // page's language does not hold as well: none may be visible
  const fragments = (cat) => Object.values(cat).flatMap((v) => v.split(/\\{[^{}]*(?:\\{[^{}]*\\}[^{}]*)*\\}/))
    .map((f) => f.trim()).filter((f) => f.length >= 6 && /[A-Za-z]{3}/.test(f));
  const own = new Set(fragments(langs.own));
  const english = fragments(langs.en).filter((f) => !own.has(f) && !Object.values(langs.own).some((v) => v.includes(f)));
  const seen = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walker.nextNode()) {
    const el = walker.currentNode.parentElement;
    if (!el || !el.offsetParent || el.closest("code, .chip, bdi, #events, #gofout, #gofscoreout")) continue;
    const text = walker.currentNode.textContent;
    for (const f of english) if (text.includes(f)) seen.push(`${el.id || el.tagName}: ${f}`);
  }
  for (const el of document.querySelectorAll("input[placeholder]")) {
    if (el.offsetParent && english.some((f) => el.placeholder.includes(f))) seen.push(`${el.id} placeholder: ${el.placeholder}`);
  }
  return seen;
}"""


def test_every_word_in_the_players_language_on_a_phone(server, tmp_path):
    """Each tab in English, traditional and simplified Chinese, Cantonese and Vietnamese, on a 390 px phone:
    no English left in another language, nothing wider than the screen, a screenshot of each (with
    SISEPAI_UPDATE_SCREENSHOT=1 each language's hand tab goes to docs/screenshots/); cards are tapped
    from a picker that counts each kind against the deck's copies."""
    import json

    import httpx
    from playwright.sync_api import sync_playwright

    catalogues = {lang: httpx.get(f"{server}/i18n/{lang}.json").json() for lang in ("en", "zh", "zh-Hant", "zh-HK", "vi")}
    assert all(set(c) == set(catalogues["en"]) for c in catalogues.values())  # every key in every language
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
        page.goto(server + "/")
        page.wait_for_function("() => document.querySelectorAll('#picker button').length === 29")
        # a picker: each kind with its character and suit colour, counted against the copies
        page.click("#tab-hand")
        for _ in range(4):
            page.locator("#picker button[data-code=GK]").click()
        gk = page.locator("#picker button[data-code=GK]")
        assert gk.is_disabled() and gk.locator(".count").inner_text() == "4/4" and "4" in gk.get_attribute("title")
        assert page.locator("#myhand .chip").count() == 4 and "G" in gk.get_attribute("class")
        page.click("#shownbtn")
        page.locator("#shownpicker button[data-code=YK]").click()
        shown = page.locator("#shownbtn")
        assert "Y" in shown.get_attribute("class").split() and shown.get_attribute("title") == "Yellow General"
        page.click("#tab-score")
        page.locator("#scorepicker button[data-code=J]").click()
        page.locator("#scorepicker button[data-code=J]").click()
        assert page.locator("#scorecards").input_value() == "J J"
        assert page.locator("#scorepicker button[data-code=J] .count").inner_text() == "2/5"
        page.click("#tab-gof")  # Gang of Four's own cards, counted the same way
        page.locator("#gofpicker button", has_text="pr").first.click()  # the President: one in the deck
        pr = page.locator("#gofpicker button", has_text="pr").first
        assert page.locator("#gofhand").input_value() == "pr" and pr.is_disabled() and pr.locator(".count").inner_text() == "1/1"
        assert pr.get_attribute("title") == "pr: the only copy taken"
        page.fill("#gofhand", "")
        tabs = ["live", "hand", "score", "ledger", "deck", "gof"]
        languages = ("zh-Hant", "zh", "zh-HK", "vi", "en")
        for lang in languages:
            page.select_option("#lang", lang)
            page.wait_for_function(f"() => document.documentElement.lang === {json.dumps({'zh': 'zh-Hans'}.get(lang, lang))}")
            for tab in tabs:
                page.click(f"#tab-{tab}")
                page.wait_for_timeout(100)
                if lang != "en":
                    left = page.evaluate(ENGLISH_LEFT, {"en": catalogues["en"], "own": catalogues[lang]})
                    assert left == [], (lang, tab, left)
                width = page.evaluate("() => document.documentElement.scrollWidth")
                assert width <= 390, (lang, tab, width)  # nothing overflows the phone
                page.screenshot(path=str(tmp_path / f"{lang}-{tab}.png"), full_page=True)
                if tab == DOCS_TAB and os.environ.get("SISEPAI_UPDATE_SCREENSHOT") == "1":
                    shutil.copy(tmp_path / f"{lang}-{tab}.png", DOCS_SCREENSHOT.parent / "screenshots" / f"{lang}.png")
        assert page.locator("#tab-ledger").inner_text() == "Ledger"
        page.select_option("#lang", "zh-Hant")
        page.wait_for_function("() => document.documentElement.lang === 'zh-Hant'")
        assert page.locator("#tab-ledger").inner_text() == "帳本"
        assert page.locator("#picker button[data-code=RR]").get_attribute("title").startswith("紅俥")
        page.select_option("#lang", "zh")
        page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
        assert "G将" in page.locator("#gridhelp").inner_text() and "將" not in page.locator("#gridhelp").inner_text()
        page.select_option("#lang", "vi")
        page.wait_for_function("() => document.documentElement.lang === 'vi'")
        assert page.locator("#picker button[data-code=GK]").get_attribute("title").startswith("Tướng xanh")
        # a refused input in the page's language, from the server's structured reason
        page.click("#tab-ledger")
        page.fill("#players", "Ann")
        page.click("#dealform button[type=submit]")
        # the main table's deals are listed there already (an earlier test recorded one): wait for the refusal
        page.wait_for_function("() => document.querySelector('#ledgerout').textContent.includes('Người chơi')")
        assert page.locator("#ledgerout").inner_text() == "Người chơi: cần ít nhất 2."
        # and a refusal the server decides, from its code and params, with the card named as players say it
        page.fill("#players", "Ann, Bo")
        page.fill("#winner", "Cy")
        page.click("#dealform button[type=submit]")
        page.wait_for_function("() => document.querySelector('#ledgerout').textContent.includes('Cy')")
        assert page.locator("#ledgerout").inner_text() == "Người thắng, Cy, không phải là người chơi của ván này."
        page.click("#tab-score")
        page.fill("#scorecards", "GK GK GK GK GK")
        page.click("#scorebtn")
        page.wait_for_function("() => document.querySelector('#scoreout').textContent.includes('5')")
        assert page.locator("#scoreout").inner_text() == "5 lá Tướng xanh, nhưng bộ bài chỉ có 4."
        page.select_option("#lang", "zh")  # the shown error follows the language
        page.wait_for_function("() => document.documentElement.lang === 'zh-Hans'")
        assert page.locator("#scoreout").inner_text() == "绿将有 5 张，但这副牌只有 4 张。"
        page.select_option("#lang", "vi")
        page.wait_for_function("() => document.documentElement.lang === 'vi'")
        page.click("#tab-ledger")
        # a long name is cut with an ellipsis, and the page stays as wide as the phone
        page.fill("#players", "Bartholomew-Maximilian-Fitzgerald-Smythe, Bo")
        page.fill("#winner", "Bo")
        page.fill("#points", "1")
        page.click("#dealform button[type=submit]")
        page.wait_for_function("() => document.querySelector('#totals').textContent.includes('Bartholomew')")
        assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
        browser.close()
    assert len(list(tmp_path.glob("*.png"))) == len(languages) * len(tabs)


FAKE_VOICES = """(() => {
  // a device whose voices arrive late (after voiceschanged), as Chromium's do; what is spoken is kept
  const list = %s.map((lang) => ({ lang, name: "voice " + lang, voiceURI: lang, localService: true, default: false }));
  let ready = [];
  window.spoken = [];
  const synth = new EventTarget();
  synth.getVoices = () => ready;
  synth.speak = (u) => window.spoken.push([u.voice && u.voice.lang, u.text]);
  synth.cancel = () => {};
  Object.defineProperty(window, "speechSynthesis", { value: synth, configurable: true });
  window.SpeechSynthesisUtterance = class { constructor(text) { this.text = text; this.lang = ""; this.voice = null; } };
  setTimeout(() => { ready = list; synth.dispatchEvent(new Event("voiceschanged")); }, 100);
})();"""


SPOKEN = {"vi": ("Tới: 12 điểm", "Thiết bị này không có giọng đọc cho Tiếng Việt"),
          "zh-HK": ("東家食糊，12分！", "廣東話（香港）")}  # a sentence, and what the no-voice note says


@pytest.mark.parametrize(("lang", "voices", "voice"), [
    ("vi", ["en-US", "vi_VN"], "vi_VN"), ("vi", ["en-US", "zh-CN"], None),
    ("zh-HK", ["zh-CN", "zh-TW", "yue_HK"], "yue_HK"), ("zh-HK", ["zh-CN", "zh-TW"], None),
], ids=["a Vietnamese voice", "no Vietnamese voice", "a Cantonese voice", "Mandarin voices only"])
def test_events_are_spoken_in_a_voice_the_device_has_or_left_as_words(server, lang, voices, voice):
    """The page speaks in a voice of its language, found in getVoices() once voiceschanged has
    filled it; where the device has none it speaks nothing (no Vietnamese read by an English voice,
    no Cantonese read in Mandarin) and says so once, in the page's language."""
    import json

    from playwright.sync_api import sync_playwright

    text, note_says = SPOKEN[lang]
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=["--no-sandbox", "--disable-gpu"])
        page = browser.new_page()
        page.add_init_script(script=FAKE_VOICES % json.dumps(voices))
        page.goto(server + "/")
        page.select_option("#lang", lang)
        page.wait_for_function(f"() => document.documentElement.lang === {json.dumps(lang)} "
                               "&& speechSynthesis.getVoices().length > 0")
        page.evaluate("(said) => { say(said); say(said); }", text)
        spoken = page.evaluate("() => window.spoken")
        note = page.locator("#voicenote")
        if voice:
            assert spoken == [[voice, text], [voice, text]] and note.is_hidden()
        else:
            assert spoken == [] and note.is_visible() and note_says in note.inner_text()
        browser.close()
