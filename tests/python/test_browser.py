"""The gallery and the score report in a real browser (issue 28): Debian's chromium,
driven by chromium-driver through Selenium, pages opened from file://.

A 200-problem sweep is made with --gallery, and a planted scoring run is scored with
--html. Each page is checked as a reader sees it: every image loads (naturalWidth >
0), the counts shown equal the manifest's, a filter shows exactly the rows with that
value, the report's flip list equals the flips of items.jsonl, hostile texts render
as text, and the console has no error. A 100,000-row gallery must show its first
screen within 2 s and weigh under 1 MB. A relation run (issue 44) is filtered by the
audit's verdict, relation, domain, answer and "Cannot be inferred" (from the selects
and from the URL), its cards list the choices once with the answer marked, and
audit.md's link opens the flagged row's card. Screenshots go to $GEOMRENDER_ARTIFACTS
(default target/ci-artifacts). Nothing here skips: without chromium the tests fail.
"""

import hashlib
import json
import os
import shutil
import subprocess
import time
from collections import Counter
from pathlib import Path
from urllib.parse import unquote, urlparse

import pytest
from selenium import webdriver
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("GEOMRENDER_BIN", str(REPO / "target" / "debug" / "geomrender"))
ARTIFACTS = Path(os.environ.get("GEOMRENDER_ARTIFACTS", REPO / "target" / "ci-artifacts"))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
HOSTILE = "<script>window.__pwned=1</script><img src=x onerror=\"window.__pwned=1\"> 'q' \u202egnp.exe\u2066"


@pytest.fixture(scope="session")
def browser(tmp_path_factory):
    os.environ["SE_OFFLINE"] = "true"  # Selenium Manager must not look for drivers online
    opts = webdriver.ChromeOptions()
    opts.binary_location = CHROMIUM
    for flag in ["--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update",
                 "--disable-sync", "--window-size=1280,1000",
                 f"--user-data-dir={tmp_path_factory.mktemp('chromium-profile')}"]:
        opts.add_argument(flag)
    opts.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(service=Service(executable_path=CHROMEDRIVER), options=opts)
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    yield driver
    driver.quit()


def console_errors(driver):
    return [e for e in driver.get_log("browser") if e["level"] == "SEVERE"]


def open_page(driver, path: Path, ready=True):
    driver.get_log("browser")  # drop what an earlier page logged
    driver.get(path.resolve().as_uri() if "#" not in str(path) else "file://" + str(path))
    if ready:
        WebDriverWait(driver, 20).until(
            lambda d: d.execute_script("return document.body.dataset.ready === '1'"))


def all_images_loaded(driver):
    """Every <img> on the page loads (lazy ones are asked for at once)."""
    driver.execute_script("document.querySelectorAll('img').forEach(i => i.loading = 'eager')")
    WebDriverWait(driver, 30).until(lambda d: d.execute_script(
        "return Array.from(document.images).every(i => i.complete)"))
    broken = driver.execute_script(
        "return Array.from(document.images).filter(i => !(i.naturalWidth > 0)).map(i => i.src)")
    assert broken == [], broken
    return driver.execute_script("return document.images.length")


def layout_shift(driver):
    """Cumulative layout shift of the page so far (Chromium's layout-shift entries)."""
    return driver.execute_async_script("""
        const done = arguments[arguments.length - 1];
        let total = 0;
        new PerformanceObserver(list => {
            for (const e of list.getEntries()) { if (!e.hadRecentInput) { total += e.value; } }
        }).observe({type: 'layout-shift', buffered: true});
        setTimeout(() => done(total), 300);""")


def manifest(dir_: Path):
    return [json.loads(l) for l in (dir_ / "manifest.jsonl").read_text().splitlines() if l.strip()]


def label_of(row):
    v = row.get("variant") or {}
    return ";".join(f"{k}={json.dumps(x) if not isinstance(x, str) else x}" for k, x in v.items()) or "base"


@pytest.fixture(scope="session")
def sweep(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep200")
    subprocess.run([BIN, "sweep", "--count", "200", "--seed", "3", "--backend", "cpu", "-q",
                    "--gallery", "--out", str(out)], check=True, timeout=900)
    return out, manifest(out)


def grid_ids(driver):
    """Ids of every row the index shows under the current filters, page by page."""
    ids = []
    while True:
        ids += [e.get_attribute("data-id") for e in driver.find_elements(By.CSS_SELECTOR, "#grid li")]
        nxt = driver.find_element(By.ID, "next")
        if not nxt.is_enabled():
            return ids
        page = driver.find_element(By.ID, "page").text
        nxt.click()
        WebDriverWait(driver, 10).until(lambda d: d.find_element(By.ID, "page").text != page)


def test_gallery_index_counts_images_and_filters(browser, sweep):
    out, rows = sweep
    index = out / "gallery" / "index.html"
    open_page(browser, index)
    count = lambda k: int(browser.find_element(By.CSS_SELECTOR, f'#counts [data-count="{k}"]').text)
    bases = {r["base_id"] for r in rows}
    assert count("rows") == len(rows) == 2800
    assert count("bases") == len(bases) == 200
    assert count("variants") == len(rows) - len(bases)
    # The first screen: bases, in manifest order, every thumbnail loaded.
    assert all_images_loaded(browser) == 48
    assert layout_shift(browser) < 0.01  # sizes are known before the thumbnails arrive
    assert int(browser.find_element(By.ID, "shown").get_attribute("data-total")) == 200
    browser.save_screenshot(str(ARTIFACTS / "gallery-index.png"))
    # Keyboard: / goes to the search, arrows move between cells.
    browser.find_element(By.TAG_NAME, "body").send_keys("/")
    assert browser.switch_to.active_element.get_attribute("id") == "f-id"
    cells = browser.find_elements(By.CSS_SELECTOR, "#grid a")
    browser.execute_script("arguments[0].focus()", cells[0])
    cells[0].send_keys("\ue014")  # →
    assert browser.switch_to.active_element == cells[1]
    # A filter click: fontsize, then the value 8.
    Select(browser.find_element(By.ID, "f-axis")).select_by_value("fontsize")
    WebDriverWait(browser, 10).until(lambda d: not d.find_element(By.ID, "f-value").get_attribute("disabled"))
    Select(browser.find_element(By.ID, "f-value")).select_by_value("fontsize=8")
    WebDriverWait(browser, 10).until(lambda d: "value=fontsize%3D8" in d.current_url)
    want = [r["id"] for r in rows if r.get("variant") == {"fontsize": 8}]
    assert int(browser.find_element(By.ID, "shown").get_attribute("data-total")) == len(want) == 200
    assert grid_ids(browser) == want
    # Depth on top of it, and every image of one depth.
    Select(browser.find_element(By.ID, "f-axis")).select_by_value("@all")
    Select(browser.find_element(By.ID, "f-depth")).select_by_value("2")
    WebDriverWait(browser, 10).until(lambda d: "depth=2" in d.current_url)
    want = [r["id"] for r in rows if r["params"]["depth"] == 2]
    assert int(browser.find_element(By.ID, "shown").get_attribute("data-total")) == len(want)
    # A search by id (a variant's) finds it alone.
    Select(browser.find_element(By.ID, "f-depth")).select_by_value("")
    target = [r for r in rows if r.get("variant")][5]["id"]
    box = browser.find_element(By.ID, "f-id")
    box.send_keys(target)
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "shown").get_attribute("data-total") == "1")
    assert grid_ids(browser) == [target]
    assert console_errors(browser) == []


def page_name(base_id):
    """The base page's file name, as the tool writes it (src/html.rs page_name), for
    the ids a run writes (no upper case, `_` or long names in these tests)."""
    assert base_id == base_id.lower() and "_" not in base_id, base_id
    return base_id + ".html"


def test_gallery_base_page_shows_the_base_and_all_its_variants(browser, sweep):
    out, rows = sweep
    first = rows[0]["base_id"]
    family = [r for r in rows if r["base_id"] == first]
    open_page(browser, out / "gallery" / "bases" / page_name(first), ready=False)
    cards = browser.find_elements(By.CSS_SELECTOR, "article.card")
    assert [c.get_attribute("data-label") for c in cards] == [label_of(r) for r in family]
    assert all_images_loaded(browser) == len(family) == 14
    assert layout_shift(browser) < 0.01
    for card, row in zip(cards, family):
        assert card.find_element(By.CSS_SELECTOR, ".question").text == " ".join(row["question"].split())
        img = card.find_element(By.TAG_NAME, "img")
        assert unquote(urlparse(img.get_attribute("src")).path).endswith("/" + row["image"])
        # The solution is collapsed until asked for.
        assert not card.find_element(By.CSS_SELECTOR, ".cot").is_displayed()
    # The audit's note on every variant: what changed, nothing undeclared here.
    notes = [c.find_element(By.CSS_SELECTOR, "dd.audit").text for c in cards[1:]]
    assert all(n and "undeclared" not in n and "identical" not in n for n in notes), notes
    cards[1].find_element(By.TAG_NAME, "summary").click()
    assert cards[1].find_element(By.CSS_SELECTOR, ".cot").is_displayed()
    browser.save_screenshot(str(ARTIFACTS / "gallery-base.png"))
    # Dark follows the system.
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia",
                            {"features": [{"name": "prefers-color-scheme", "value": "dark"}]})
    assert browser.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(21, 22, 26)"
    browser.save_screenshot(str(ARTIFACTS / "gallery-base-dark.png"))
    browser.execute_cdp_cmd("Emulation.setEmulatedMedia", {"features": []})
    assert browser.execute_script("return getComputedStyle(document.body).backgroundColor") == "rgb(255, 255, 255)"
    # The keyboard: → goes to the next base.
    browser.find_element(By.TAG_NAME, "body").send_keys("\ue014")
    second = next(r["base_id"] for r in rows if r["base_id"] != first)
    WebDriverWait(browser, 10).until(lambda d: d.current_url.endswith("/bases/" + page_name(second)))
    assert console_errors(browser) == []


def planted_predictions(rows, path: Path, model_seed: int):
    """Right everywhere but where planted: wrong on every fontsize=8 image of a third
    of the problems (right→wrong flips), and wrong on the base of a fifth of them
    (wrong→right flips on their variants); the outputs carry hostile text."""
    lines = []
    for i, r in enumerate(rows):
        h = int(hashlib.sha256(f"{model_seed}:{r['base_id']}".encode()).hexdigest(), 16)
        wrong = (r.get("variant") == {"fontsize": 8} and h % 3 == 0) or (not r.get("variant") and h % 5 == 0)
        answer = float(r["answer"]) * (3 if wrong else 1) + (7 if wrong else 0)
        text = f"{HOSTILE} so the answer is {answer:g}." if i % 7 == 0 else f"The answer is {answer:g}."
        lines.append(json.dumps({"id": r["id"], "prediction": text}))
    path.write_text("\n".join(lines) + "\n")


def test_score_report_lists_exactly_the_flips_of_items_jsonl(browser, sweep, tmp_path):
    out, rows = sweep
    preds = tmp_path / "preds"
    preds.mkdir()
    planted_predictions(rows, preds / "model-a.jsonl", 1)
    planted_predictions(rows, preds / "evil<b>'\u202e.jsonl", 2)
    report = tmp_path / "report"
    subprocess.run([BIN, "score", "--manifest", str(out / "manifest.jsonl"), "--predictions", str(preds),
                    "--out", str(report), "--html"], check=True, timeout=600)
    items = [json.loads(l) for l in (report / "items.jsonl").read_text().splitlines()]
    base = {(i["model"], i["id"]): i for i in items if i["axis"] == "base"}
    flips = set()
    for i in items:
        b = base.get((i["model"], i["base_id"]))
        if i["axis"] != "base" and b and not i["missing"] and not b["missing"] and i["correct"] != b["correct"]:
            flips.add((i["model"], i["id"], "right_to_wrong" if b["correct"] else "wrong_to_right"))
    assert any(f[2] == "right_to_wrong" for f in flips) and any(f[2] == "wrong_to_right" for f in flips)
    open_page(browser, report / "report.html")
    assert browser.execute_script("return window.__pwned") is None
    trs = browser.find_elements(By.CSS_SELECTOR, "#flip-table tbody tr")
    shown = {(t.get_attribute("data-model"), t.get_attribute("data-id"), t.get_attribute("data-direction"))
             for t in trs}
    # The hostile model name is shown with its bidi control made visible.
    evil = "evil<b>'\u27e8U+202E\u27e9"
    flips = {(evil if m.startswith("evil") else m, i, d) for m, i, d in flips}
    assert shown == flips and len(trs) == len(flips)
    assert int(browser.find_element(By.CSS_SELECTOR, '#counts [data-count="flips"]').text) == len(flips)
    assert int(browser.find_element(By.CSS_SELECTOR, '#counts [data-count="items"]').text) == len(rows)
    assert all_images_loaded(browser) == len(flips) + 2  # and the two plots
    assert layout_shift(browser) < 0.01
    # Hostile outputs are text: the <script> is shown, not run.
    outputs = [o.text for o in browser.find_elements(By.CSS_SELECTOR, "td.output")]
    assert any("<script>window.__pwned=1</script>" in o and "\u27e8U+202E\u27e9" in o for o in outputs)
    browser.save_screenshot(str(ARTIFACTS / "report.png"))
    browser.execute_script("document.getElementById('flips').scrollIntoView()")
    browser.save_screenshot(str(ARTIFACTS / "report-flips.png"))
    # Filters: one model, then right→wrong only.
    Select(browser.find_element(By.ID, "f-model")).select_by_value("model-a")
    visible = lambda: {(t.get_attribute("data-model"), t.get_attribute("data-id"), t.get_attribute("data-direction"))
                       for t in trs if t.is_displayed()}
    assert visible() == {f for f in flips if f[0] == "model-a"}
    Select(browser.find_element(By.ID, "f-direction")).select_by_value("right_to_wrong")
    assert visible() == {f for f in flips if f[0] == "model-a" and f[2] == "right_to_wrong"}
    assert int(browser.find_element(By.ID, "shown").get_attribute("data-total")) == len(visible())
    assert browser.execute_script("return window.__pwned") is None
    assert console_errors(browser) == []


def hostile_run(dir_: Path, sweep_dir: Path, rows):
    """A run directory whose questions, solutions and file names are hostile, with
    real images, and one row whose id is hostile (refused: ids name files)."""
    dir_.mkdir()
    (dir_ / "images").mkdir()
    out = []
    for k, r in enumerate(rows[:3]):
        name = f"images/{k} a#b?.png"
        shutil.copy(sweep_dir / r["image"], dir_ / name)
        bid = f"hostile-{k}"
        out.append({**r, "id": bid, "base_id": bid, "variant": {}, "image": name,
                    "question": HOSTILE + " What is x?", "cot": HOSTILE})
    out[2] = {**out[2], "id": out[1]["id"] + "__fontsize-8", "base_id": out[1]["id"], "variant": {"fontsize": 8}}
    evil = {**out[0], "id": HOSTILE, "base_id": HOSTILE}
    lines = [json.dumps(r) for r in out] + ["{not json", json.dumps(evil)]
    (dir_ / "manifest.jsonl").write_text("".join(l + "\n" for l in lines))
    return out


def test_hostile_text_renders_as_text(browser, sweep, tmp_path):
    out, rows = sweep
    run = tmp_path / "hostile"
    hostile = hostile_run(run, out, rows)
    done = subprocess.run([BIN, "gallery", str(run)], capture_output=True, text=True, timeout=300)
    assert done.returncode == 1 and "manifest.jsonl:4" in done.stderr, done.stderr
    assert "manifest.jsonl:5: id " in done.stderr and "is not one this tool writes" in done.stderr, done.stderr
    open_page(browser, run / "gallery" / "index.html")
    Select(browser.find_element(By.ID, "f-axis")).select_by_value("@all")
    WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "shown").get_attribute("data-total") == "3")
    ids = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#grid .id")]
    assert ids == [r["id"] for r in hostile]
    assert all_images_loaded(browser) == 3
    assert browser.execute_script("return window.__pwned") is None
    open_page(browser, run / "gallery" / "bases" / page_name(hostile[1]["id"]), ready=False)
    assert all_images_loaded(browser) == 2
    visible = lambda s: s.replace("\u202e", "\u27e8U+202E\u27e9").replace("\u2066", "\u27e8U+2066\u27e9")
    q = browser.find_elements(By.CSS_SELECTOR, ".question")[0].text
    assert q == " ".join(visible(HOSTILE + " What is x?").split())
    assert browser.find_element(By.TAG_NAME, "h1").text.startswith("Base " + hostile[1]["id"])
    assert browser.execute_script("return window.__pwned") is None
    browser.save_screenshot(str(ARTIFACTS / "gallery-hostile.png"))
    assert console_errors(browser) == []


def test_a_100000_row_gallery_opens_fast_and_light(browser, sweep, tmp_path):
    """100,000 rows as a sweep has them (7,143 bases of 14 images; the images are
    the 200-problem sweep's, reused): first screen < 2 s, page weight < 1 MB."""
    out, rows = sweep
    big = tmp_path / "big"
    big.mkdir()
    (big / "images").mkdir()
    for img in (out / "images").iterdir():  # the run's own files, hard-linked, not copied
        os.link(img, big / "images" / img.name)
    with open(big / "manifest.jsonl", "w") as f:
        for n in range(100_000):
            r = rows[n % len(rows)]
            b = n // 14
            base = f"big-{b:06d}"
            rid = base + r["id"][len(r["base_id"]):]  # the variant's `__axis-value`
            f.write(json.dumps({**r, "id": rid, "base_id": base}) + "\n")
    done = subprocess.run([BIN, "gallery", "--no-audit", str(big)], capture_output=True, text=True, timeout=900)
    assert done.returncode in (0, 1), done.stderr
    index = big / "gallery" / "index.html"
    open_page(browser, index)
    WebDriverWait(browser, 20).until(lambda d: d.execute_script("return document.body.dataset.loaded === '1'"))
    # From the navigation's start to the first screen drawn and its thumbnails loaded
    # (marks set by gallery.js); the weight: every file the page loaded (scripts,
    # stylesheet, images), since Chromium keeps no resource timing for file://.
    timing = browser.execute_script("""
        const at = n => performance.getEntriesByName(n)[0].startTime;
        const fcp = performance.getEntriesByName('first-contentful-paint')[0];
        return {grid: at('gallery-first-screen'), images: at('gallery-images'),
                fcp: fcp ? fcp.startTime : null,
                files: [...document.scripts].map(s => s.src).filter(Boolean)
                  .concat([...document.querySelectorAll('link[rel=stylesheet]')].map(l => l.href))
                  .concat([...document.images].map(i => i.src))};""")
    first_screen = timing["images"]
    weight = index.stat().st_size + sum(Path(unquote(urlparse(u).path)).stat().st_size
                                        for u in set(timing["files"]))
    print(f"100,000-row gallery: grid drawn at {timing['grid']:.0f} ms, first screen with its "
          f"thumbnails at {first_screen:.0f} ms, first contentful paint {timing['fcp']} ms; "
          f"page weight {weight} bytes in {len(set(timing['files'])) + 1} files")
    (ARTIFACTS / "gallery-100k.json").write_text(json.dumps({**timing, "bytes": weight}))
    assert int(browser.find_element(By.CSS_SELECTOR, '#counts [data-count="rows"]').text) == 100_000
    assert first_screen < 2000
    assert weight < 1_000_000
    assert all_images_loaded(browser) == 48
    browser.save_screenshot(str(ARTIFACTS / "gallery-100k.png"))
    assert console_errors(browser) == []


@pytest.fixture(scope="session")
def relations(tmp_path_factory):
    """A relation sweep (text mode, "Cannot be inferred" among the answers) with one
    planted defect: a variant row drawing its base's very files (flagged identical)."""
    out = tmp_path_factory.mktemp("relations")
    subprocess.run([BIN, "sweep", "--task", "relations", "--count", "30", "--seed", "4",
                    "--indeterminate", "0.3", "--variants", "opacity=0.25;relabel=1",
                    "--format", "png,svg", "--backend", "cpu", "-q", "--out", str(out)],
                   check=True, timeout=900)
    rows = manifest(out)
    assert rows[1]["base_id"] == rows[0]["id"]
    for k in ["image", "sha256", "svg", "svg_sha256"]:
        rows[1][k] = rows[0][k]
    (out / "manifest.jsonl").write_text("".join(json.dumps(r) + "\n" for r in rows))
    done = subprocess.run([BIN, "gallery", str(out)], capture_output=True, text=True, timeout=600)
    assert done.returncode == 0 and "1 flagged" in done.stderr, done.stderr
    return out, rows


def shown_total(driver):
    return int(driver.find_element(By.ID, "shown").get_attribute("data-total"))


def test_relation_filters_select_exactly_their_rows(browser, relations):
    out, rows = relations
    index = out / "gallery" / "index.html"
    # From the URL: each filter alone, every image.
    cases = {
        "audit=flagged": [r for r in rows[1:2]],
        "cbi=yes": [r for r in rows if r["answer_text"] == "Cannot be inferred"],
        "cbi=no": [r for r in rows if r["answer_text"] != "Cannot be inferred"],
        "answer=" + rows[0]["answer"]: [r for r in rows if r["answer"] == rows[0]["answer"]],
        "domain=" + rows[0]["domain"]: [r for r in rows if r["domain"] == rows[0]["domain"]],
        "relation=" + rows[0]["relation"]: [r for r in rows if r["relation"] == rows[0]["relation"]],
    }
    assert cases["cbi=yes"] and cases["cbi=no"]
    for query, want in cases.items():
        browser.get("about:blank")  # a new document, not a change of fragment
        open_page(browser, Path(f"{index}#axis=@all&{query}"))
        WebDriverWait(browser, 10).until(lambda d: d.find_element(By.ID, "shown").get_attribute("data-total"))
        assert shown_total(browser) == len(want), query
        assert grid_ids(browser) == [r["id"] for r in want], query
    # From the selects: a relation, then "Cannot be inferred" on top (the URL follows).
    browser.get("about:blank")
    open_page(browser, index)
    Select(browser.find_element(By.ID, "f-axis")).select_by_value("@all")
    relation = rows[0]["relation"]
    Select(browser.find_element(By.ID, "f-relation")).select_by_value(relation)
    WebDriverWait(browser, 10).until(lambda d: f"relation={relation}" in d.current_url)
    Select(browser.find_element(By.ID, "f-cbi")).select_by_value("no")
    WebDriverWait(browser, 10).until(lambda d: "cbi=no" in d.current_url)
    want = [r["id"] for r in rows if r["relation"] == relation and r["answer_text"] != "Cannot be inferred"]
    assert shown_total(browser) == len(want)
    assert grid_ids(browser) == want
    # A cell says what the item is, not a depth.
    facts = [e.text for e in browser.find_elements(By.CSS_SELECTOR, "#grid .facts")]
    assert facts and all(relation in f and "depth" not in f for f in facts), facts
    browser.save_screenshot(str(ARTIFACTS / "gallery-relations.png"))
    assert console_errors(browser) == []


def test_relation_cards_list_their_choices_once_and_audit_md_links_to_them(browser, relations):
    out, rows = relations
    md = (out / "audit.md").read_text()
    flagged = rows[1]["id"]
    line = next(l for l in md.splitlines() if l.startswith(f"- [`{flagged}`]("))
    target = out / line.split("](", 1)[1].split(")", 1)[0]
    assert str(target).endswith(f"bases/{page_name(rows[0]['id'])}#{flagged}")
    open_page(browser, target, ready=False)
    assert browser.execute_script("return document.querySelector('.card:target').id") == flagged
    cards = browser.find_elements(By.CSS_SELECTOR, "article.card")
    family = [r for r in rows if r["base_id"] == rows[0]["id"]]
    assert [c.get_attribute("id") for c in cards] == [r["id"] for r in family]
    for card, row in zip(cards, family):
        assert "Answer choices" not in card.find_element(By.CSS_SELECTOR, ".question").text
        items = card.find_elements(By.CSS_SELECTOR, "ol.choices li")
        assert [i.text.split(" ✓")[0] for i in items] == row["choices"]
        marked = card.find_elements(By.CSS_SELECTOR, "ol.choices li.answer")
        assert len(marked) == 1 and marked[0].text.startswith(row["answer_text"])
        assert card.find_element(By.CSS_SELECTOR, "dd.item").text == \
            f"{row['relation']} · {row['domain']} · {row['subset']} · {row['mode']}"
    assert "identical to the base" in cards[1].find_element(By.CSS_SELECTOR, "dd.audit").text
    assert not browser.find_elements(By.XPATH, "//dt[text()='Depth']")
    assert all_images_loaded(browser) == len(family)
    browser.save_screenshot(str(ARTIFACTS / "gallery-relation-card.png"))
    assert console_errors(browser) == []
