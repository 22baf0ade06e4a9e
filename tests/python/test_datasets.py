"""The dataset sinks, proven by the libraries that read them (issue 12).

A fresh sweep with every sink is made once (the `geomrender` binary: $GEOMRENDER_BIN,
else target/debug/geomrender); each test reads one format with its own library and
checks it against manifest.jsonl and the image files.
"""

import base64
import importlib.util
import io
import json
import os
import subprocess
from pathlib import Path

import pytest
import yaml
from PIL import Image

REPO = Path(__file__).resolve().parents[2]
BIN = os.environ.get("GEOMRENDER_BIN", str(REPO / "target" / "debug" / "geomrender"))


@pytest.fixture(scope="session")
def run(tmp_path_factory):
    out = tmp_path_factory.mktemp("sweep")
    subprocess.run(
        [BIN, "sweep", "--count", "8", "--seed", "5", "--backend", "cpu", "-q",
         "--variants", "opacity;fontsize=8,24;annotation;jpeg=50",
         "--sink", "parquet,webdataset,vlmevalkit,lmms-eval", "--shard-rows", "25",
         "--out", str(out)],
        check=True,
    )
    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert len(rows) == 8 * 9
    return out, rows


def pixels(data: bytes) -> Image.Image:
    return Image.open(io.BytesIO(data)).convert("RGBA")


def same_pixels(a: Image.Image, b: Image.Image) -> bool:
    return a.convert("RGBA").size == b.size and a.convert("RGBA").tobytes() == b.tobytes()


def test_parquet_loads_with_datasets_and_matches_the_manifest(run):
    import datasets

    out, rows = run
    shards = sorted(str(p) for p in (out / "data").glob("test-*.parquet"))
    assert len(shards) == 3  # 72 rows, 25 a shard
    ds = datasets.load_dataset("parquet", data_files=shards, split="train")
    assert isinstance(ds.features["image"], datasets.Image)
    assert ds["id"] == [r["id"] for r in rows]
    assert ds["question"] == [r["question"] for r in rows]
    assert ds["answer"] == [r["answer"] for r in rows]
    assert ds["base_id"] == [r["base_id"] for r in rows]
    for r, got in zip(rows, ds):
        want = pixels((out / r["image"]).read_bytes())
        assert same_pixels(got["image"], want), r["id"]
        if r["variant"]:
            (axis, value), = r["variant"].items()
            assert got["axis"] == axis
            assert json.loads(got["variant"]) == r["variant"]
        else:
            assert (got["axis"], got["value"]) == ("base", "base")
    # Through the dataset card, from the directory itself.
    card = datasets.load_dataset(str(out), split="test")
    assert card["id"] == ds["id"]


def load_through_card(out: Path, rows: list, cache: Path):
    """The dataset loaded through its card, failing on any warning, after checking
    that the card declares the sizes datasets records itself."""
    import logging
    import warnings

    import datasets

    card = yaml.safe_load((out / "README.md").read_text().split("---\n")[1])
    info = card["dataset_info"]
    assert info["splits"] == [{"name": "test", "num_bytes": info["dataset_size"],
                               "num_examples": len(rows)}]
    assert info["download_size"] == sum(p.stat().st_size for p in (out / "data").glob("*.parquet"))

    seen = []

    class Record(logging.Handler):
        def emit(self, record):
            seen.append(record.getMessage())

    logger = logging.getLogger("datasets")
    handler = Record(level=logging.WARNING)
    logger.addHandler(handler)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            ds = datasets.load_dataset(str(out), split="test", cache_dir=str(cache))
    finally:
        logger.removeHandler(handler)
    assert seen == []
    assert len(ds) == len(rows)
    recorded = ds.info.splits["test"]
    assert (recorded.num_examples, recorded.num_bytes) == (len(rows), info["dataset_size"])
    assert (ds.info.download_size, ds.info.dataset_size) == (info["download_size"], info["dataset_size"])
    return ds


def test_uncompressed_parquet_loads_with_datasets_to_the_exact_files(tmp_path):
    """`--parquet-compression none`: pyarrow sees every column chunk uncompressed,
    and `datasets` loads the directory with the image bytes the files hold."""
    import datasets
    import hashlib
    import pyarrow.parquet as pq

    out = tmp_path / "none"
    subprocess.run(
        [BIN, "sweep", "--count", "3", "--seed", "5", "--backend", "cpu", "-q",
         "--variants", "opacity=0.25;jpeg=50", "--sink", "parquet",
         "--parquet-compression", "none", "--out", str(out)],
        check=True,
    )
    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    (shard,) = sorted((out / "data").glob("test-*.parquet"))
    meta = pq.ParquetFile(shard).metadata
    codecs = {meta.row_group(g).column(c).compression
              for g in range(meta.num_row_groups) for c in range(meta.num_columns)}
    assert codecs == {"UNCOMPRESSED"}
    ds = datasets.load_dataset(str(out), split="test")
    assert ds["id"] == [r["id"] for r in rows]
    raw = ds.cast_column("image", datasets.Image(decode=False))
    for r, got in zip(rows, raw):
        data = got["image"]["bytes"]
        assert data == (out / r["image"]).read_bytes(), r["id"]
        assert hashlib.sha256(data).hexdigest() == r["sha256"]


def test_dataset_card_loads_without_warnings_and_declares_what_datasets_records(run, tmp_path):
    """The card's dataset_info: a `splits` entry without num_bytes was dropped with
    "The `splits` field in YAML is malformed"; now every size is the one datasets
    records itself (pinned pyarrow) and no warning of any kind is raised."""
    out, rows = run
    load_through_card(out, rows, tmp_path / "cache")


def test_webdataset_shards_iterate_with_webdataset(run):
    import webdataset as wds

    out, rows = run
    urls = sorted(str(p) for p in (out / "wds").glob("geomrender-*.tar"))
    assert len(urls) == 3
    samples = list(wds.WebDataset(urls, shardshuffle=False).decode("pil"))
    assert len(samples) == len(rows)
    for r, s in zip(rows, samples):
        assert "." not in s["__key__"]
        assert s["json"]["id"] == r["id"]
        image = s.get("png") or s.get("jpg")
        assert image is not None, sorted(s)
        assert same_pixels(image, pixels((out / r["image"]).read_bytes())), r["id"]
    assert any("jpg" in s for s in samples)


def test_vlmevalkit_tsv_reads_with_pandas_to_the_exact_files(run):
    import pandas as pd

    out, rows = run
    df = pd.read_csv(out / "vlmevalkit" / "GeomRender.tsv", sep="\t")
    for col in ["index", "image", "question", "answer", "category", "id", "axis", "value", "base_id"]:
        assert col in df.columns
    assert not is_vlmevalkit_mcq(df)  # a custom VQA dataset: the answers are numbers
    assert list(df["index"]) == list(range(len(rows)))
    assert list(df["id"]) == [r["id"] for r in rows]
    assert list(df["question"]) == [r["question"] for r in rows]
    for r, b64 in zip(rows, df["image"]):
        assert base64.b64decode(b64) == (out / r["image"]).read_bytes(), r["id"]


def is_vlmevalkit_mcq(df) -> bool:
    """How VLMEvalKit's build_dataset (vlmeval/dataset/__init__.py) classes a custom
    TSV: `'A' in data and 'B' in data` with an image column is a CustomMCQDataset,
    anything else a CustomVQADataset."""
    return "A" in df and "B" in df and "image" in df


def load_tasks(folder: Path):
    """Every task YAML, with `!function utils.f` resolved to utils.py's f."""
    spec = importlib.util.spec_from_file_location("geomrender_lmms_utils", folder / "utils.py")
    utils = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(utils)

    class Loader(yaml.SafeLoader):
        pass

    def function(loader, node):
        module, name = loader.construct_scalar(node).split(".")
        assert module == "utils"
        return getattr(utils, name)

    Loader.add_constructor("!function", function)
    docs = {}
    for path in sorted(folder.glob("*.yaml")) + [folder / "_default_template_yaml"]:
        docs[path.name] = yaml.load(path.read_text(), Loader=Loader)
    return docs, utils


def test_lmms_eval_tasks_load_and_score(run):
    import datasets

    out, rows = run
    docs, utils = load_tasks(out / "lmms_eval")
    template = docs.pop("_default_template_yaml")
    group = docs.pop("geomrender.yaml")
    assert template["dataset_path"] == "parquet"
    files = template["dataset_kwargs"]["data_files"]["test"]
    ds = datasets.load_dataset("parquet", data_files={"test": files}, split="test")
    assert len(ds) == len(rows)
    cells = {(r["variant"] and "+".join(r["variant"]) or "base") for r in rows}
    assert len(group["task"]) == len(docs) >= len(cells)
    total = 0
    for name, task in docs.items():
        assert task["include"] == "_default_template_yaml"
        assert task["task"] in group["task"] and name == task["task"] + ".yaml"
        picked = task["process_docs"](ds)
        assert len(picked) > 0
        assert len({(d["axis"], d["value"]) for d in picked}) == 1
        total += len(picked)
    assert total == len(rows)
    doc = ds[0]
    prompt = template["doc_to_text"](doc)
    assert prompt.startswith(doc["question"]) and "final answer is" in prompt
    assert template["doc_to_visual"](doc)[0].size == (doc["width"], doc["height"])
    score = template["process_results"]
    right = f"... Therefore the final answer is {doc['answer'] * 1.02:.4f}."
    wrong = f"... Therefore the final answer is {doc['answer'] * 1.2 + 1:.4f}."
    assert score(doc, [right]) == {"relaxed_accuracy": 1.0}
    assert score(doc, [wrong]) == {"relaxed_accuracy": 0.0}
    assert score(doc, ["I cannot tell."]) == {"relaxed_accuracy": 0.0}


def score(run_dir: Path, predictions: Path, out: Path) -> dict:
    subprocess.run(
        [BIN, "score", "--manifest", str(run_dir / "manifest.jsonl"),
         "--predictions", str(predictions), "--out", str(out)],
        check=True,
    )
    report = json.loads((out / "report.json").read_text())
    return {"rows": report["rows"], "counts": report["counts"], "models": report["models"]}


def test_harness_results_score_like_geomrender_jsonl(run, tmp_path):
    """Known-correct predictions written as geomrender JSONL, as lmms-eval samples and
    as VLMEvalKit result tables give the same report numbers."""
    import pandas as pd

    out, rows = run
    def text(i, r):
        value = r["answer"] * 1.01 if i % 3 else r["answer"] * 1.5 + 1
        return f"Some reasoning. Therefore the final answer is {value:.4f}."

    skipped = {5, 17}  # images without a prediction
    own = tmp_path / "mymodel.jsonl"
    own.write_text("".join(
        json.dumps({"id": r["id"], "prediction": text(i, r)}) + "\n"
        for i, r in enumerate(rows) if i not in skipped))
    lmms = tmp_path / "logs" / "mymodel"
    lmms.mkdir(parents=True)
    samples = lmms / "20261201_120000_samples_geomrender.jsonl"
    samples.write_text("".join(
        json.dumps({"doc_id": i, "doc": {"id": r["id"], "question": r["question"], "answer": r["answer"]},
                    "target": str(r["answer"]), "resps": [[text(i, r)]], "filtered_resps": [text(i, r)],
                    "relaxed_accuracy": 0.0})
        + "\n"
        for i, r in enumerate(rows) if i not in skipped))
    tsv = pd.read_csv(out / "vlmevalkit" / "GeomRender.tsv", sep="\t").drop(columns=["image"])
    tsv["prediction"] = [text(i, r) for i, r in enumerate(rows)]
    tsv = tsv.drop(index=sorted(skipped))
    xlsx = tmp_path / "vlm" / "mymodel_GeomRender.xlsx"
    xlsx.parent.mkdir()
    tsv.to_excel(xlsx, index=False)
    # By index alone (no id column), as a .csv.
    csv = tmp_path / "vlm" / "mymodel_GeomRender.csv"
    tsv.drop(columns=["id"]).to_csv(csv, index=False)

    want = score(out, own, tmp_path / "r-own")
    assert want["models"][0]["model"] == "mymodel"
    assert want["counts"]["missing"] == len(skipped)
    for name, path in [("lmms", samples), ("xlsx", xlsx), ("csv", csv)]:
        got = score(out, path, tmp_path / f"r-{name}")
        assert got == want, name


def render(problems: Path, out: Path, *args: str) -> list:
    subprocess.run(
        [BIN, "render", str(problems), "--out", str(out), "--backend", "cpu", "-q",
         "--sink", "lmms-eval", *args],
        check=True,
    )
    return [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]


def problems(path: Path, count: int, seed: int) -> Path:
    subprocess.run([BIN, "generate", "--count", str(count), "--seed", str(seed),
                    "--out", str(path)], check=True)
    return path


def load_as_lmms_eval(folder: Path, cache: Path):
    """The task's dataset as lmms-eval builds it: the template's dataset_path and
    dataset_kwargs handed to datasets.load_dataset, then its test_split."""
    import datasets

    docs, _ = load_tasks(folder)
    template = docs["_default_template_yaml"]
    ds = datasets.load_dataset(template["dataset_path"], cache_dir=str(cache),
                               **template["dataset_kwargs"])
    return ds[template["test_split"]]


def test_lmms_eval_data_files_read_their_own_run_when_the_path_holds_glob_characters(tmp_path):
    """`--out 'r[1]'` beside a run in `r1`: unescaped, HF datasets' glob read `r[1]`'s
    data_files as the class `[1]` and loaded r1's shards."""
    other = render(problems(tmp_path / "a.jsonl", 2, 1), tmp_path / "r1")
    mine = render(problems(tmp_path / "b.jsonl", 3, 2), tmp_path / "r[1]", "--variants", "fontsize=8")
    assert {r["id"] for r in other}.isdisjoint({r["id"] for r in mine})
    ds = load_as_lmms_eval(tmp_path / "r[1]" / "lmms_eval", tmp_path / "cache")
    assert sorted(ds["id"]) == sorted(r["id"] for r in mine)
    # And the other way round: r1's tasks still read r1.
    ds = load_as_lmms_eval(tmp_path / "r1" / "lmms_eval", tmp_path / "cache")
    assert sorted(ds["id"]) == sorted(r["id"] for r in other)


def test_lmms_eval_grid_cells_each_have_their_own_task(tmp_path):
    """`--grid` over 8/8.5 × 5/5.5: the cells 8+5.5 and 8.5+5 used to share one task
    name (and one selector in utils.py), so one cell's images were never evaluated.
    Every image must be reached through exactly one task."""
    out = tmp_path / "grid"
    rows = render(problems(tmp_path / "p.jsonl", 2, 1), out, "--grid",
                  "--variants", "fontsize=8,8.5;linewidth=5,5.5")
    folder = out / "lmms_eval"
    docs, _ = load_tasks(folder)
    template = docs.pop("_default_template_yaml")
    group = docs.pop("geomrender.yaml")
    names = [task["task"] for task in docs.values()]
    assert len(set(names)) == len(names) == len(group["task"]) == 5  # base + 4 cells
    assert sorted(group["task"]) == sorted(names)
    utils = (folder / "utils.py").read_text()
    selectors = [line for line in utils.splitlines() if line.startswith("def process_docs_")]
    assert len(set(selectors)) == len(selectors) == len(names)
    ds = load_as_lmms_eval(folder, tmp_path / "cache")
    reached = {}
    for task in docs.values():
        for doc in task["process_docs"](ds):
            reached.setdefault(doc["id"], []).append(task["task"])
    assert sorted(reached) == sorted(r["id"] for r in rows)
    assert all(len(tasks) == 1 for tasks in reached.values()), reached
    assert "geomrender_fontsize__8__linewidth__5_p5" in names
    assert "geomrender_fontsize__8_p5__linewidth__5" in names


# --- Issue 26: GeomRel relation items (multiple choice) ------------------------------

LETTERS = "ABCDE"


@pytest.fixture(scope="session")
def relations(tmp_path_factory):
    """A relation run: 8 GeomRel items with a fontsize variant each, every sink,
    5-row shards."""
    tmp = tmp_path_factory.mktemp("relations")
    problems = tmp / "relations.jsonl"
    subprocess.run([BIN, "generate", "--task", "relations", "--count", "8", "--seed", "3",
                    "--out", str(problems)], check=True, capture_output=True)
    out = tmp / "run"
    subprocess.run(
        [BIN, "render", str(problems), "--backend", "cpu", "-q", "--variants", "fontsize=8",
         "--sink", "parquet,webdataset,vlmevalkit,lmms-eval", "--shard-rows", "5",
         "--out", str(out)],
        check=True,
    )
    rows = [json.loads(line) for line in (out / "manifest.jsonl").read_text().splitlines()]
    assert len(rows) == 16 and all(r["task"] == "relations" for r in rows)
    return out, rows


def test_relation_parquet_has_the_letter_and_the_options_as_typed_columns(relations, tmp_path):
    import datasets

    out, rows = relations
    shards = sorted(str(p) for p in (out / "data").glob("test-*.parquet"))
    assert len(shards) == 4  # 16 rows, 5 a shard
    ds = datasets.load_dataset("parquet", data_files=shards, split="train")
    assert ds.features["answer"] == datasets.Value("string")
    assert ds.features["choices"] == datasets.List(datasets.Value("string"))
    assert ds["id"] == [r["id"] for r in rows]
    for column in ["question", "answer", "choices", "answer_text", "task", "relation", "domain",
                   "subset", "mode"]:
        assert ds[column] == [r[column] for r in rows], column
    for r, got in zip(rows, ds):
        assert got["choices"][LETTERS.index(got["answer"])] == r["answer_text"]
        assert same_pixels(got["image"], pixels((out / r["image"]).read_bytes())), r["id"]
    # Through the card: the list feature's size is the one datasets records.
    card = load_through_card(out, rows, tmp_path / "cache")
    assert card.features == ds.features and card["choices"] == ds["choices"]


def test_relation_tsv_is_read_by_vlmevalkit_as_multiple_choice(relations):
    import pandas as pd

    out, rows = relations
    df = pd.read_csv(out / "vlmevalkit" / "GeomRender.tsv", sep="\t")
    assert is_vlmevalkit_mcq(df)
    assert list(df["id"]) == [r["id"] for r in rows]
    assert list(df["answer"]) == [r["answer"] for r in rows]
    assert list(df["l2-category"]) == [r["relation"] for r in rows]
    for r, (_, line) in zip(rows, df.iterrows()):
        assert base64.b64decode(line["image"]) == (out / r["image"]).read_bytes(), r["id"]
        # The options as ImageMCQDataset.build_prompt (vlmeval/dataset/image_mcq.py)
        # collects them: every letter column whose cell is not NaN.
        options = {c: line[c] for c in LETTERS if c in line and not pd.isna(line[c])}
        assert options == dict(zip(LETTERS, r["choices"])), r["id"]
        prompt = f"Question: {line['question']}\nOptions:\n" + "".join(
            f"{k}. {v}\n" for k, v in options.items())
        for letter, text in options.items():
            assert prompt.count(f"{letter}. {text}") == 1, (r["id"], prompt)
        assert r["question"].startswith(line["question"] + " Answer choices: A. ")


def test_relation_webdataset_samples_carry_the_manifest_row(relations):
    import webdataset as wds

    out, rows = relations
    urls = sorted(str(p) for p in (out / "wds").glob("geomrender-*.tar"))
    samples = list(wds.WebDataset(urls, shardshuffle=False).decode("pil"))
    assert [s["json"] for s in samples] == rows
    assert all(s["json"]["answer"] in LETTERS and s["json"]["choices"] for s in samples)


def test_relation_lmms_eval_tasks_list_the_options_once_and_score_the_letter(relations):
    import datasets

    out, rows = relations
    docs, utils = load_tasks(out / "lmms_eval")
    template = docs.pop("_default_template_yaml")
    assert [m["metric"] for m in template["metric_list"]] == ["accuracy"]
    assert template["doc_to_target"] == "answer"
    files = template["dataset_kwargs"]["data_files"]["test"]
    ds = datasets.load_dataset("parquet", data_files={"test": files}, split="test")
    docs.pop("geomrender.yaml")
    assert sum(len(task["process_docs"](ds)) for task in docs.values()) == len(rows)
    score = template["process_results"]
    for doc in ds:
        prompt = template["doc_to_text"](doc)
        for letter, text in zip(LETTERS, doc["choices"]):
            assert prompt.count(f"{letter}. {text}") == 1, prompt
        assert prompt.startswith(doc["question"]) and prompt.endswith(utils.CHOICE_INSTRUCTION)
        right, wrong = doc["answer"], LETTERS[(LETTERS.index(doc["answer"]) + 1) % len(doc["choices"])]
        assert score(doc, [f"... Therefore the final answer is {right}."]) == {"accuracy": 1.0}
        assert score(doc, [f"({right})"]) == {"accuracy": 1.0}
        assert score(doc, [f"... Therefore the final answer is {wrong}."]) == {"accuracy": 0.0}
        assert score(doc, ["I cannot tell."]) == {"accuracy": 0.0}
    # A question that does not list its options gets them appended.
    doc = dict(ds[0], question="How are AB and CD related?")
    prompt = template["doc_to_text"](doc)
    assert prompt.startswith("How are AB and CD related? Answer choices: A. ")
    assert prompt.count("A. ") == 1


def test_relation_harness_results_score_like_geomrender_jsonl(relations, tmp_path):
    """Letters written as geomrender JSONL, as lmms-eval samples and as a VLMEvalKit
    result table of the multiple-choice TSV give the same report numbers."""
    import pandas as pd

    out, rows = relations
    def text(i, r):
        letter = r["answer"] if i % 3 else LETTERS[(LETTERS.index(r["answer"]) + 1) % len(r["choices"])]
        return f"Some reasoning. Therefore the final answer is {letter}."

    skipped = {4}
    own = tmp_path / "mymodel.jsonl"
    own.write_text("".join(json.dumps({"id": r["id"], "prediction": text(i, r)}) + "\n"
                           for i, r in enumerate(rows) if i not in skipped))
    lmms = tmp_path / "logs" / "mymodel"
    lmms.mkdir(parents=True)
    samples = lmms / "20261201_120000_samples_geomrender.jsonl"
    samples.write_text("".join(
        json.dumps({"doc_id": i, "doc": {"id": r["id"], "answer": r["answer"], "choices": r["choices"]},
                    "target": r["answer"], "resps": [[text(i, r)]], "filtered_resps": [text(i, r)],
                    "accuracy": 0.0}) + "\n"
        for i, r in enumerate(rows) if i not in skipped))
    tsv = pd.read_csv(out / "vlmevalkit" / "GeomRender.tsv", sep="\t").drop(columns=["image"])
    tsv["prediction"] = [text(i, r) for i, r in enumerate(rows)]
    xlsx = tmp_path / "vlm" / "mymodel_GeomRender.xlsx"
    xlsx.parent.mkdir()
    tsv.drop(index=sorted(skipped)).to_excel(xlsx, index=False)

    want = score(out, own, tmp_path / "r-own")
    assert want["counts"]["missing"] == len(skipped)
    for name, path in [("lmms", samples), ("xlsx", xlsx)]:
        assert score(out, path, tmp_path / f"r-{name}") == want, name
