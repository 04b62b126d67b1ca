"""heed serve in a real browser: headless Chromium driven by
Selenium (Debian chromium, chromium-driver, python3-selenium) over the index
of a store filled by a real crawl (servefixture.py). Search through the
form (which lands on the address without empty fields), filter (the
filters folded, results on a phone's first screen), paginate through #next
to the end and back through #prev, open a record, a site with
its SVG charts, an IRC network with its channel filter; the hostile page
renders its title as text, no dialog opens and the console stays clean (no
CSP violation); links from crawled data are nofollow noopener ugc and
http(s); no <img> from crawled data; the ACAP present-snippet limit is
visible; the skip link is the first focusable element; no horizontal
overflow on a phone-sized window.

Chromium may only reach loopback: every other name maps to nothing,
background services (updates, sync, metrics, safe browsing) are off, and
its proxy is a scripted server of the test's own on loopback, so whatever
it still tries elsewhere ends there (loopback itself is never proxied).
Every wait is bounded; the driver and the servers are always stopped.
"""

import shutil
import tempfile
import time
import urllib.parse

from selenium import webdriver
from selenium.common.exceptions import NoAlertPresentException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from heedtest import Checks, ScriptedHttpServer, free_port
from servefixture import (ACAP_DESC, ACAP_LIMIT, HOSTILE_TITLE,
                          IRC_COLOURS_SHOWN, IRC_TOPICS, Index)

WAIT = 20  # seconds, for any page to load or element to appear
# Failures of the server known and reported, as in test_hostile.py: such a
# console error is reported and the rest still counts; once it is gone the
# check fails, for the entry to come off the list.
REL = {"nofollow", "noopener", "ugc"}
CHROMIUM_FLAGS = [
    "--headless=new", "--no-sandbox", "--disable-gpu",
    "--disable-dev-shm-usage", "--no-first-run", "--no-default-browser-check",
    "--disable-background-networking", "--disable-component-update",
    "--disable-sync", "--disable-default-apps", "--disable-extensions",
    "--disable-domain-reliability", "--disable-client-side-phishing-detection",
    "--disable-breakpad", "--disable-crash-reporter", "--no-pings",
    "--metrics-recording-only", "--safebrowsing-disable-auto-update",
    "--disable-features=OptimizationHints,MediaRouter,Translate,"
    "AutofillServerCommunication,CertificateTransparencyComponentUpdater,"
    "NetworkTimeServiceQuerying",
    "--host-resolver-rules=MAP * ~NOTFOUND , EXCLUDE 127.0.0.1",
    "--window-size=1280,900",
]


def start_driver(profile, proxy_port):
    opts = webdriver.ChromeOptions()
    opts.binary_location = "/usr/bin/chromium"
    for flag in CHROMIUM_FLAGS:
        opts.add_argument(flag)
    opts.add_argument(f"--proxy-server=http://127.0.0.1:{proxy_port}")
    opts.add_argument(f"--user-data-dir={profile}")
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service("/usr/bin/chromedriver"),
                              options=opts)
    driver.set_page_load_timeout(WAIT)
    driver.set_script_timeout(WAIT)
    return driver


# The proxy: a sink for every connection Chromium makes anywhere but
# loopback (which it never proxies); it answers 404 and logs what was asked.
proxy = ScriptedHttpServer("127.0.0.1", free_port())
ix = Index(access_log=False)
base = ix.serve.url.rstrip("/")
profile = tempfile.mkdtemp(prefix="heed-chromium-")
driver = None
console = []  # every browser log entry, kept by visit()


def visit(path):
    driver.get(base + path)
    WebDriverWait(driver, WAIT).until(
        lambda d: d.execute_script("return document.readyState") ==
        "complete")
    console.extend(driver.get_log("browser"))


def wait_for(by, value):
    return WebDriverWait(driver, WAIT).until(
        EC.presence_of_element_located((by, value)))


def assert_no_alert():
    try:
        text = driver.switch_to.alert.text
    except NoAlertPresentException:
        return
    raise AssertionError(f"a dialog opened: {text!r}")


def result_titles():
    return [a.text for a in driver.find_elements(
        By.CSS_SELECTOR, "#results li.result a.title")]


def check_search_through_the_form():
    visit("/")
    box = wait_for(By.ID, "q")
    box.send_keys("transport")
    box.submit()
    WebDriverWait(driver, WAIT).until(EC.url_contains("/search"))
    wait_for(By.ID, "results")
    titles = result_titles()
    assert sorted(titles) == ["Bridge reopens after repairs",
                              "Ferry timetable changes"], titles
    # The form sends its empty filter fields too; heed sends the browser
    # on to the search without them (303), so the address is the short one.
    assert urllib.parse.urlsplit(driver.current_url).query == \
        "q=transport", driver.current_url
    assert_no_alert()


def check_filter_by_tag_and_site():
    visit("/")
    wait_for(By.ID, "search")
    # The filters sit in a closed <details>: open it as a person would.
    driver.find_element(By.CSS_SELECTOR, "#search summary").click()
    driver.find_element(By.CSS_SELECTOR, "#search input[name=tag]") \
        .send_keys("transport")
    driver.find_element(By.CSS_SELECTOR, "#search input[name=min_views]") \
        .send_keys("1000")
    driver.find_element(By.ID, "q").submit()
    WebDriverWait(driver, WAIT).until(EC.url_contains("tag=transport"))
    assert result_titles() == ["Bridge reopens after repairs"], \
        result_titles()
    query = urllib.parse.urlsplit(driver.current_url).query
    assert sorted(urllib.parse.parse_qsl(query, keep_blank_values=True)) \
        == [("min_views", "1000"), ("tag", "transport")], query
    # Filters in use stay folded, and the summary says how many.
    details = driver.find_element(By.ID, "filters")
    assert details.get_attribute("open") is None
    assert "(2 in use)" in details.find_element(By.TAG_NAME, "summary").text
    site = ix.web.host("blog.test")
    visit("/search?site=" + urllib.parse.quote(site))
    titles = result_titles()
    assert len(titles) == 3 and all("Gartenblog" in t or "Tomaten" in t or
                                    "Sauerteig" in t for t in titles), titles
    # A tag link of a result leads to the tag's page.
    visit("/search?q=volunteers")
    driver.find_element(By.CSS_SELECTOR,
                        "#results ul.tags a[href$='/tags/volunteers']").click()
    WebDriverWait(driver, WAIT).until(EC.url_contains("/tags/volunteers"))
    assert "River cleanup sets a record" in driver.page_source


def check_paginate_to_the_end():
    visit("/search?q=&limit=4")
    seen = []
    for _ in range(50):
        wait_for(By.ID, "results")
        seen += result_titles()
        nxt = driver.find_elements(By.ID, "next")
        if not nxt:
            break
        nxt[0].click()
        WebDriverWait(driver, WAIT).until(EC.staleness_of(nxt[0]))
    else:
        raise AssertionError("more than 50 pages")
    assert len(seen) == len(set(seen)), seen  # titles are all different
    want = len(ix.visible_ids())
    assert len(seen) == want, (len(seen), want, seen)
    # And back through #prev to the first page: the same pages, reversed.
    back = []
    for i in range(50):
        back = result_titles() + back
        if i:
            assert driver.find_elements(By.ID, "next"), driver.current_url
        prev = driver.find_elements(By.ID, "prev")
        if not prev:
            break
        prev[0].click()
        WebDriverWait(driver, WAIT).until(EC.staleness_of(prev[0]))
        wait_for(By.ID, "results")
    assert back == seen, (back, seen)
    assert "cursor=" not in driver.current_url, driver.current_url


def check_pages_link_to_the_api_and_its_document():
    """Every page's footer links to the JSON API and its OpenAPI
    document, visibly, and both links lead there."""
    for path in ("/", "/search?q=bridge", "/irc"):
        visit(path)
        for link_id in ("api", "openapi"):
            link = driver.find_element(By.ID, link_id)
            assert link.is_displayed(), (path, link_id)
    driver.find_element(By.ID, "openapi").click()
    WebDriverWait(driver, WAIT).until(EC.url_contains("/api/v1/openapi"))
    text = driver.find_element(By.TAG_NAME, "body").text
    assert '"openapi"' in text and "/api/v1/search" in text, text[:200]
    visit("/")
    driver.find_element(By.ID, "api").click()
    WebDriverWait(driver, WAIT).until(EC.url_contains("/api/v1/"))
    assert '"counts"' in driver.find_element(By.TAG_NAME, "body").text


def check_open_a_record():
    visit("/search?q=bridge")
    driver.find_element(By.CSS_SELECTOR, "#results a.title").click()
    title = wait_for(By.ID, "title")
    assert title.text == "Bridge reopens after repairs", title.text
    fields = driver.find_element(By.ID, "fields").text
    assert "transport" in fields and "5000" in fields.replace(",", "") \
        .replace(" ", "").replace("\u202f", ""), fields
    sources = driver.find_elements(By.CSS_SELECTOR, "#fields span.source")
    assert sources, "no field sources"
    orig = [a for a in driver.find_elements(By.TAG_NAME, "a")
            if "news/1.html" in (a.get_attribute("href") or "")]
    assert orig and set(orig[0].get_attribute("rel").split()) >= REL


def check_site_page_has_svg_charts():
    visit("/sites/" + urllib.parse.quote(ix.web.host("news.test"), safe=""))
    wait_for(By.ID, "site")
    charts = driver.find_elements(By.CSS_SELECTOR, "figure.chart svg")
    assert charts, "no chart"
    for svg in charts:
        size = svg.size
        assert size["width"] > 0 and size["height"] > 0, size
    assert driver.find_element(By.ID, "optout").is_displayed()


def check_irc_network_and_channel_filter():
    visit("/irc")
    table = wait_for(By.ID, "networks")
    assert "ServeNet" in table.text and "DenyNet" not in driver.page_source
    link = [a for a in table.find_elements(By.TAG_NAME, "a")
            if "/irc/" in a.get_attribute("href")]
    assert link, table.text
    link[0].click()
    channels = wait_for(By.ID, "channels")
    for name in IRC_TOPICS:
        assert name in channels.text, channels.text
    assert "<b>not bold</b>" in channels.text
    form = driver.find_element(By.ID, "channel-search")
    box = form.find_element(By.CSS_SELECTOR, "input[name=q]")
    box.send_keys("garden")
    box.submit()
    WebDriverWait(driver, WAIT).until(EC.url_contains("q=garden"))
    text = wait_for(By.ID, "channels").text
    assert "#gardening" in text and "#ferries" not in text, text


def check_hostile_page_is_text():
    visit("/search?q=hostileword")
    driver.find_element(By.CSS_SELECTOR, "#results a.title").click()
    title = wait_for(By.ID, "title")
    assert title.text == HOSTILE_TITLE, title.text
    assert_no_alert()
    # No element from crawled data: the page has no image and no script.
    assert driver.find_elements(By.TAG_NAME, "img") == []
    assert driver.find_elements(By.TAG_NAME, "script") == []
    assert driver.execute_script("return document.images.length") == 0
    for a in driver.find_elements(By.TAG_NAME, "a"):
        href = a.get_attribute("href") or ""
        if href.startswith(base + "/") or href.startswith(base + "#"):
            continue
        assert href.startswith(("http://", "https://")), href
        assert set((a.get_attribute("rel") or "").split()) >= REL, href
    for path in ("/", "/tags", "/sites/" + urllib.parse.quote(
            ix.web.host("hostile.test"), safe="")):
        visit(path)
        assert_no_alert()
        assert driver.find_elements(By.TAG_NAME, "img") == []


def check_snippet_limit_visible():
    visit("/search?q=limited")
    snip = wait_for(By.CSS_SELECTOR, "#results p.snippet").text
    core = snip.rstrip("…").rstrip()
    assert 0 < len(core) <= ACAP_LIMIT and ACAP_DESC.startswith(core), snip
    assert snip != ACAP_DESC
    driver.find_element(By.CSS_SELECTOR, "#results a.title").click()
    why = wait_for(By.ID, "withheld").text
    assert str(ACAP_LIMIT) in why, why


def check_skip_link_is_first_focus():
    for path in ("/", "/search?q=bridge"):
        visit(path)
        driver.find_element(By.TAG_NAME, "body").send_keys(Keys.TAB)
        active = driver.switch_to.active_element
        assert "skip" in (active.get_attribute("class") or "").split(), \
            active.get_attribute("outerHTML")
        assert active.get_attribute("href").endswith("#main")
        active.send_keys(Keys.ENTER)
        WebDriverWait(driver, WAIT).until(EC.url_contains("#main"))


def check_phone_first_screen_shows_results():
    """At 390 px the first screen of a results page shows results, not the
    filter fields, even with filters in use."""
    driver.set_window_size(390, 844)
    try:
        for path in ("/search?q=transport",
                     "/search?q=transport&sort=views&min_views=1"):
            visit(path)
            first = wait_for(By.CSS_SELECTOR, "#results li.result")
            box = driver.execute_script(
                "return [arguments[0].getBoundingClientRect().bottom,"
                " window.innerHeight]", first)
            assert box[0] <= box[1], (path, box)  # the whole first result
            # The filter fields are folded away (a closed <details>
            # skips its content's rendering: checkVisibility says so).
            assert driver.find_element(By.ID, "filters") \
                .get_attribute("open") is None, path
            assert driver.execute_script(
                "return document.querySelector('#filters input[name=site]')"
                ".checkVisibility()") is False, path
    finally:
        driver.set_window_size(1280, 900)


def check_no_horizontal_overflow_on_a_phone():
    driver.set_window_size(375, 812)
    try:
        paths = ["/", "/search?q=transport", "/search?q=hostileword",
                 "/sites/" + urllib.parse.quote(ix.web.host("news.test"),
                                                safe=""),
                 "/irc", "/irc/" + urllib.parse.quote(ix.irc.key, safe=""),
                 "/tags", "/bots"]
        h1 = ix.page_id(ix.web.host("hostile.test"), "/h1.html")
        paths.append(f"/records/{h1}")
        bad = []
        for path in paths:
            visit(path)
            width = driver.execute_script(
                "return [document.documentElement.scrollWidth,"
                " window.innerWidth]")
            if width[0] > width[1]:
                bad.append((path, width))
        assert not bad, bad
    finally:
        driver.set_window_size(1280, 900)


# What a page must never hold, whatever it shows (run in the page): its
# width past the viewport, on* attributes, javascript:/data: links, media
# elements, and crawled text that may carry bidi controls outside an
# isolating element. Returns a list of problems.
PAGE_AUDIT = r'''
const out = [];
const doc = document.documentElement;
if (doc.scrollWidth > window.innerWidth)
  out.push('wider than the viewport: ' + doc.scrollWidth + ' > ' +
           window.innerWidth);
for (const el of document.querySelectorAll('*')) {
  for (const a of el.attributes)
    if (a.name.startsWith('on')) out.push('attribute ' + a.name);
  if (['IMG', 'SCRIPT', 'IFRAME', 'OBJECT', 'EMBED', 'VIDEO', 'AUDIO']
      .includes(el.tagName)) out.push('element ' + el.tagName);
}
for (const a of document.querySelectorAll('a[href]'))
  if (/^\s*(javascript|data|vbscript):/i.test(a.getAttribute('href')))
    out.push('link ' + a.getAttribute('href').slice(0, 40));
const bidi = /[\u202a-\u202e\u2066-\u2069\u0590-\u08ff]/;
const walker = document.createTreeWalker(document.body,
                                         NodeFilter.SHOW_TEXT);
for (let n = walker.nextNode(); n; n = walker.nextNode()) {
  if (!bidi.test(n.data)) continue;
  const iso = n.parentElement.closest('bdi, [dir]');
  if (!iso) out.push('bidi text not isolated: ' + n.data.slice(0, 40));
}
if (/\x03\d|\x02|\x0f|\x1d/.test(document.body.innerText))
  out.push('IRC formatting codes shown');
return out;
'''


def every_page_kind():
    news = urllib.parse.quote(ix.web.host("news.test"), safe="")
    hostile = urllib.parse.quote(ix.web.host("hostile.test"), safe="")
    pages = ["/", "/search?q=transport", "/search?q=hostileword",
             "/search?q=longword", "/search?q=bidiword",
             "/search?site=" + hostile, f"/sites/{news}",
             f"/sites/{hostile}", "/sites", "/tags", "/tags/bidi",
             "/irc", "/irc/" + urllib.parse.quote(ix.irc.key, safe=""),
             "/irc/" + urllib.parse.quote(ix.irc.key, safe="") +
             "?sort=name", "/bots"]
    for path in ("/h1.html", "/long.html", "/bidi.html", "/bad-utf8.html"):
        pages.append(f"/records/{ix.page_id(ix.web.host('hostile.test'), path)}")
    return pages


def check_hostile_text_never_breaks_a_page():
    bad = []
    try:
        for width in (390, 1280):
            driver.set_window_size(width, 900)
            for path in every_page_kind():
                visit(path)
                assert_no_alert()
                for problem in driver.execute_script(PAGE_AUDIT):
                    bad.append((width, path, problem))
    finally:
        driver.set_window_size(1280, 900)
    assert not bad, bad[:10]
    # The reversed title stays inside its own element: the label after it
    # on the record page reads left to right, and the description's
    # unclosed override is closed where the description ends.
    rid = ix.page_id(ix.web.host("hostile.test"), "/bidi.html")
    visit(f"/records/{rid}")
    title = driver.find_element(By.CSS_SELECTOR, "#title bdi")
    assert "\u202e" in title.get_attribute("textContent")
    desc = driver.find_elements(By.XPATH,
                                "//dt[bdi='description']/following::dd[1]")
    html = desc[0].get_attribute("innerHTML")
    assert html.count("\u202e") == 1 and "\u202c</bdi>" in html, html
    # The long title is cut in the results, whole on its record.
    visit("/search?q=longword")
    shown = driver.find_element(By.CSS_SELECTOR, "#results a.title").text
    assert shown.endswith("…") and len(shown) <= 121, len(shown)
    # IRC formatting codes are gone; the colours' digits too.
    visit("/irc/" + urllib.parse.quote(ix.irc.key, safe=""))
    chans = driver.find_element(By.ID, "channels").text
    assert IRC_COLOURS_SHOWN in chans, chans
    # Table headers and counts are never broken inside a word.
    for th in driver.find_elements(By.CSS_SELECTOR, "#channels th"):
        assert th.size["height"] < 2 * 24, (th.text, th.size)


def check_console_clean():
    visit("/")
    # A page that names no icon costs a /favicon.ico request and a 404,
    # a SEVERE entry: the pages name an empty one.
    severe = [e for e in console if e.get("level") == "SEVERE"]
    assert not severe, severe[:5]
    csp = [e for e in console if "Content Security Policy" in
           e.get("message", "")]
    assert not csp, csp[:5]


def check_nothing_but_the_index_contacted():
    # Chromium's background services still try a few hosts whatever the
    # flags say (update.googleapis.com, the default search engine,
    # accounts.google.com): they reach the sink, never the network.
    asked = sorted({urllib.parse.urlsplit("//" + e["path"].split("//")[-1])
                    .netloc for e in proxy.log()})
    print(f"     asked of the proxy sink (not reached): {asked}")
    assert not [a for a in asked if "127.0.0.1" in a], asked
    # The sink works: a page elsewhere goes to it.
    before = len(proxy.log())
    driver.set_page_load_timeout(5)
    try:
        driver.get("http://192.0.2.1/")
    except Exception:
        pass  # the proxy answers 404
    finally:
        driver.set_page_load_timeout(WAIT)
    deadline = time.monotonic() + WAIT
    while len(proxy.log()) == before and time.monotonic() < deadline:
        time.sleep(0.1)
    assert len(proxy.log()) > before, "the proxy sink saw nothing"


try:
    driver = start_driver(profile, proxy.port)
    Checks().main([
        check_search_through_the_form,
        check_filter_by_tag_and_site,
        check_paginate_to_the_end,
        check_pages_link_to_the_api_and_its_document,
        check_open_a_record,
        check_site_page_has_svg_charts,
        check_irc_network_and_channel_filter,
        check_hostile_page_is_text,
        check_snippet_limit_visible,
        check_skip_link_is_first_focus,
        check_phone_first_screen_shows_results,
        check_no_horizontal_overflow_on_a_phone,
        check_hostile_text_never_breaks_a_page,
        check_console_clean,
        check_nothing_but_the_index_contacted,
    ])
finally:
    if driver is not None:
        driver.quit()
    proxy.close()
    ix.close()
    shutil.rmtree(profile, ignore_errors=True)
