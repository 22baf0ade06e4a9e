"""Rows without an image (issue 47): `modality=text-only` beside the rungs that have
one, read by the libraries the sinks are for. A text-only row is `"image": null` in
the manifest; HF `datasets` gives `None` for its image (Parquet, and through the
card), webdataset a sample of its JSON alone, pandas an empty VLMEvalKit image
cell, and lmms-eval's `doc_to_visual` no visual. The rows with an image are the
exact files, in the same datasets.
"""

import base64
import json
import os
import subprocess
from pathlib import Path

import pytest

from test_datasets import load_tasks, load_through_card, pixels, same_pixels

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("GEOMRENDER_BIN", str(REPO / "target" / "debug" / "geomrender"))
COUNT = 6


@pytest.fixture(scope="module")
def ladder(tmp_path_factory):
    out = tmp_path_factory.mktemp("ladder")
    subprocess.run(
        [BIN, "sweep", "--count", str(COUNT), "--seed", "47", "--backend", "cpu", "-q",
         "--variants", "modality=text-dominant,text-only,vision-only",
         "--sink", "parquet,webdataset,vlmevalkit,lmms-eval", "--shard-rows", "10",
         "--out", str(out)],
        check=True,
    )
    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert len(rows) == COUNT * 4
    imageless = [r for r in rows if r["image"] is None]
    # Exactly the text-only rows have no image, and nothing else about a file.
    assert [r["id"] for r in imageless] == [
        r["id"] for r in rows if r.get("variant", {}).get("modality") == "text-only"]
    assert len(imageless) == COUNT
    for r in imageless:
        assert not {"width", "height", "sha256", "backend", "svg"} & r.keys(), r
    assert not list((out / "images").glob("*text-only*"))
    return out, rows


def test_parquet_gives_none_for_a_text_only_image_with_datasets(ladder, tmp_path):
    import datasets

    out, rows = ladder
    shards = sorted(str(p) for p in (out / "data").glob("test-*.parquet"))
    assert len(shards) == 3
    ds = datasets.load_dataset("parquet", data_files=shards, split="train")
    assert isinstance(ds.features["image"], datasets.Image)
    assert ds["id"] == [r["id"] for r in rows]
    assert ds["question"] == [r["question"] for r in rows]
    for r, got in zip(rows, ds):
        if r["image"] is None:
            assert got["image"] is None, r["id"]
            assert (got["width"], got["height"], got["sha256"]) == (None, None, None)
            assert got["value"] == "text-only"
        else:
            want = pixels((out / r["image"]).read_bytes())
            assert same_pixels(got["image"], want), r["id"]
            assert (got["width"], got["height"]) == (r["width"], r["height"])
    # Through the card, which declares the sizes datasets records, without a warning.
    card = load_through_card(out, rows, tmp_path / "cache")
    assert [i is None for i in card["image"]] == [r["image"] is None for r in rows]


def test_webdataset_sample_of_a_text_only_row_is_its_json_alone(ladder):
    import webdataset as wds

    out, rows = ladder
    urls = sorted(str(p) for p in (out / "wds").glob("geomrender-*.tar"))
    samples = list(wds.WebDataset(urls, shardshuffle=False).decode("pil"))
    assert [s["json"] for s in samples] == rows
    for r, s in zip(rows, samples):
        members = {k for k in s if not k.startswith("__")}
        if r["image"] is None:
            assert members == {"json"}, (r["id"], members)
        else:
            assert members == {"json", "png"}, (r["id"], members)
            assert same_pixels(s["png"], pixels((out / r["image"]).read_bytes()))


def test_vlmevalkit_tsv_image_cell_of_a_text_only_row_is_empty(ladder):
    import pandas as pd

    out, rows = ladder
    df = pd.read_csv(out / "vlmevalkit" / "GeomRender.tsv", sep="\t")
    assert list(df["id"]) == [r["id"] for r in rows]
    assert list(df["question"]) == [r["question"] for r in rows]
    for r, cell in zip(rows, df["image"]):
        if r["image"] is None:
            assert pd.isna(cell), r["id"]
        else:
            assert base64.b64decode(cell) == (out / r["image"]).read_bytes(), r["id"]


def test_lmms_eval_text_only_task_has_no_visual_and_the_texts_prompt(ladder):
    import datasets

    out, rows = ladder
    docs, utils = load_tasks(out / "lmms_eval")
    template = docs.pop("_default_template_yaml")
    files = template["dataset_kwargs"]["data_files"]["test"]
    ds = datasets.load_dataset("parquet", data_files={"test": files}, split="test")
    tasks = {name: t for name, t in docs.items() if "process_docs" in t}
    text_only = [t for t in tasks.values() if any(
        d["value"] == "text-only" for d in t["process_docs"](ds))]
    assert len(text_only) == 1
    picked = text_only[0]["process_docs"](ds)
    assert len(picked) == COUNT
    for doc in picked:
        assert template["doc_to_visual"](doc) == []
        prompt = template["doc_to_text"](doc)
        assert prompt.startswith(doc["question"]) and "final answer is" in prompt
    # Every other row still has its image.
    for doc in ds:
        if doc["value"] != "text-only":
            [image] = template["doc_to_visual"](doc)
            assert image.size == (doc["width"], doc["height"])
