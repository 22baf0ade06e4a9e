"""Perception probes and COCO grounding (issue 48), read by the library the format
is for: `pycocotools.coco.COCO` loads `coco/annotations.json` of a run with
`--probes --sink coco` (and two style variants). Every image row has its entry
(same file and sha256); every point box is centred on the probe points of the same
image; every annotation turns into a mask (`annToMask`) whose area is its `area`
within the rasterisation's edge pixels; and each probe's image is its row's image.
"""

import hashlib
import json
import os
import subprocess
from pathlib import Path

import numpy as np
import pytest
from pycocotools.coco import COCO

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("GEOMRENDER_BIN", str(REPO / "target" / "debug" / "geomrender"))


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("probes")
    subprocess.run(
        [BIN, "sweep", "--count", "20", "--seed", "48", "--backend", "cpu", "-q",
         "--variants", "fontsize=12;rotation=90", "--probes", "--sink", "coco",
         "--out", str(out)],
        check=True,
    )
    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    probes = [json.loads(line) for line in (out / "probes.jsonl").read_text().splitlines()]
    return out, rows, probes


def test_pycocotools_loads_an_entry_per_image_row(run):
    out, rows, _ = run
    coco = COCO(str(out / "coco" / "annotations.json"))
    images = coco.loadImgs(coco.getImgIds())
    assert len(images) == len(rows)
    by_id = {img["geomrender_id"]: img for img in images}
    for r in rows:
        img = by_id[r["id"]]
        assert img["file_name"] == r["image"]
        assert img["sha256"] == hashlib.sha256((out / r["image"]).read_bytes()).hexdigest()
        assert (img["width"], img["height"]) == (r["width"], r["height"])
        # Every image has points, segments, shapes and labels.
        cats = {a["category_id"] for a in coco.loadAnns(coco.getAnnIds(imgIds=[img["id"]]))}
        assert cats == {1, 2, 3, 4}, (r["id"], cats)
    assert [c["name"] for c in coco.loadCats(coco.getCatIds())] == ["point", "segment", "shape", "label"]


def test_point_boxes_are_centred_on_the_probe_points_of_their_image(run):
    out, rows, probes = run
    coco = COCO(str(out / "coco" / "annotations.json"))
    image_of = {img["geomrender_id"]: img["id"] for img in coco.loadImgs(coco.getImgIds())}
    checked = 0
    for p in probes:
        anns = coco.loadAnns(coco.getAnnIds(imgIds=[image_of[p["of"]]], catIds=[1]))
        boxes = {a["name"]: a["bbox"] for a in anns}
        for name, (x, y) in p["probe"]["points"].items():
            bx, by, w, h = boxes[name]
            assert abs(bx + w / 2 - x) <= 0.02 and abs(by + h / 2 - y) <= 0.02, (p["id"], name)
            checked += 1
    assert checked > 100


def test_every_annotation_is_a_mask_of_its_area(run):
    out, _, _ = run
    coco = COCO(str(out / "coco" / "annotations.json"))
    shapes = 0
    for a in coco.loadAnns(coco.getAnnIds()):
        mask = coco.annToMask(a)
        img = coco.loadImgs([a["image_id"]])[0]
        assert mask.shape == (img["height"], img["width"])
        x, y, w, h = a["bbox"]
        if a["category_id"] == 3:
            shapes += 1
            # A shape's mask: its area, up to the pixels its outline crosses.
            edge = 2 * (w + h) + 8
            assert abs(int(mask.sum()) - a["area"]) <= edge, a
            assert a["kind"]
        # The mask lies in the box.
        ys, xs = np.nonzero(mask)
        if len(xs):
            assert xs.min() >= x - 1 and xs.max() <= x + w + 1, a
            assert ys.min() >= y - 1 and ys.max() <= y + h + 1, a
    assert shapes > 20


def test_each_probe_asks_about_its_rows_image(run):
    out, rows, probes = run
    by_id = {r["id"]: r for r in rows}
    assert {p["of"] for p in probes} == set(by_id)
    for p in probes:
        r = by_id[p["of"]]
        assert (p["image"], p["sha256"], p["base_id"], p["variant"]) == (
            r["image"], r["sha256"], r["base_id"], r["variant"])
        if "choices" in p:
            assert p["choices"][ord(p["answer"]) - ord("A")] == p["answer_text"]
        else:
            assert p["probe"]["type"] == "counting" and str(p["answer"]) == p["answer_text"]
