#!/usr/bin/env bash
# A hostile user's pass over the surfaces built last (issue 23): sinks, export,
# merge, shard counts from flags and the environment, score inputs, and links
# planted before and during a run. Each case runs the real binary and is judged
# on four things: no panic, the expected exit (0, or 1/2 with a message that
# names what is wrong), nothing outside the output directory changed, and no
# hang (each command is bounded by `timeout`).
#
#   GEOMRENDER_BIN=target/debug/geomrender bash tests/hostile/surfaces.sh
#
# Ends with "N passed, N failed" and exits 1 if any case failed.
set -u
G=${GEOMRENDER_BIN:?set GEOMRENDER_BIN to the geomrender binary}
G=$(realpath "$G")
W=$(mktemp -d)
trap 'rm -rf "$W"' EXIT
cd "$W" || exit 1

passed=0
failed=0
fails=()
LAST=""

# run TIMEOUT CMD...: runs with a bound; LAST holds stderr, RC the exit status.
run() {
    local t=$1; shift
    LAST=$(timeout "$t" "$@" 2>&1 >/dev/null)
    RC=$?
}

verdict() { # NAME OK? WHY
    if [ "$2" = yes ] && ! grep -q "panicked" <<<"$LAST"; then
        passed=$((passed + 1))
    else
        failed=$((failed + 1))
        fails+=("$1: $3 (exit $RC): ${LAST:0:400}")
    fi
}

# refused NAME NEEDLE [TIMEOUT] -- CMD...: must fail (not time out) naming NEEDLE.
refused() {
    local name=$1 needle=$2 t=60; shift 2
    if [ "$1" != "--" ]; then t=$1; shift; fi
    shift
    run "$t" "$@"
    if [ "$RC" -ne 0 ] && [ "$RC" -ne 124 ] && [ "$RC" -lt 128 ] && grep -qF -- "$needle" <<<"$LAST"; then
        verdict "$name" yes ""
    else
        verdict "$name" no "expected a refusal naming '$needle'"
    fi
}

# works NAME -- CMD...: must succeed.
works() {
    local name=$1; shift 2
    run 120 "$@"
    if [ "$RC" -eq 0 ]; then verdict "$name" yes ""; else verdict "$name" no "expected success"; fi
}

# same NAME A B: the two trees hold the same files with the same bytes (lock
# files, which only say which process held a directory last, aside).
same() {
    if diff -r -x .geomrender.lock "$2" "$3" >/dev/null 2>&1; then verdict "$1" yes ""; else
        LAST="trees differ: $2 $3"; RC=0; verdict "$1" no "changed"; fi
}

# absent NAME NEEDLE DIR: no file under DIR holds NEEDLE.
absent() {
    if grep -rqa -- "$2" "$3" 2>/dev/null; then LAST="found in $3"; RC=0; verdict "$1" no "leaked"
    else verdict "$1" yes ""; fi
}

set_image() { # DIR ROW VALUE: rewrites the image field of manifest row ROW (1-based)
    python3 - "$1/manifest.jsonl" "$2" "$3" <<'EOF'
import json, sys
path, row, value = sys.argv[1], int(sys.argv[2]), sys.argv[3]
lines = open(path).read().splitlines()
r = json.loads(lines[row - 1]); r["image"] = value; lines[row - 1] = json.dumps(r)
open(path, "w").write("\n".join(lines) + "\n")
EOF
}
first_image() { python3 -c "import json,sys; print(json.loads(open(sys.argv[1]).readline())['image'])" "$1/manifest.jsonl"; }

"$G" generate --count 2 --seed 1 --out p2.jsonl 2>/dev/null
"$G" generate --count 6 --seed 2 --out p6.jsonl 2>/dev/null
echo SECRET >secret.txt
mkdir victim && for f in .keep.tmp test-00000-of-00009.parquet geomrender-000000.tar .shard-00000.pending GeomRender.tsv utils.py; do echo precious >"victim/$f"; done
cp -a victim victim.orig
"$G" render p2.jsonl --out base --backend cpu -q 2>/dev/null
R=(render p2.jsonl --backend cpu -q)

# ---- export: reads only the run's own images --------------------------------------
refused export-missing-dir "no such directory" -- "$G" export nope --to parquet
touch afile
refused export-on-a-file "not a directory" -- "$G" export afile --to parquet
mkdir empty
refused export-no-manifest "no finished manifest.jsonl" -- "$G" export empty --to parquet
for case in "../secret.txt" "/etc/passwd" "images/../../secret.txt" "images/" ""; do
    cp -a base e1; set_image e1 1 "$case"; cp -a e1 e1.before
    refused "export-image-path[$case]" "manifest.jsonl:1" -- "$G" export e1 --to webdataset,parquet,vlmevalkit
    same "export-image-path[$case]-wrote-nothing" e1 e1.before
    rm -rf e1 e1.before
done
for target in secret.txt /dev/zero /dev/null; do
    cp -a base e2; img=$(first_image e2); rm "e2/$img"; ln -s "$(realpath -m "$target")" "e2/$img"
    refused "export-image-link[$target]" "symbolic link" 20 -- "$G" export e2 --to webdataset,vlmevalkit
    absent "export-image-link[$target]-no-secret" SECRET e2
    rm -rf e2
done
# A hand-edited variant key (an axis the table lacks, 300 characters long) names
# task files: refused before any dataset file is written (issue 44).
cp -a base e5
python3 - e5/manifest.jsonl <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines()
r = json.loads(lines[0]); r["variant"] = {"fontsize" + "x" * 300: 24}; lines[0] = json.dumps(r)
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
EOF
cp -a e5 e5.before
refused export-hand-edited-variant-key "manifest.jsonl:1" -- "$G" export e5 --to lmms-eval,webdataset,parquet,vlmevalkit
same export-hand-edited-variant-key-wrote-nothing e5 e5.before
cp -a base e3; img=$(first_image e3); rm "e3/$img"; mkfifo "e3/$img"
refused export-image-fifo "FIFO" 20 -- "$G" export e3 --to webdataset
cp -a base e4; img=$(first_image e4); echo SECRET >"e4/$img"
refused export-image-changed "SHA-256" -- "$G" export e4 --to vlmevalkit
absent export-image-changed-no-secret SECRET e4/vlmevalkit
cp -a base e5; sed -i '1s/"sha256":"[0-9a-f]*",//' e5/manifest.jsonl
refused export-row-without-sha "manifest.jsonl:1" -- "$G" export e5 --to parquet
cp -a base e6; sed -i '2s/.*/{"id": broken/' e6/manifest.jsonl
refused export-broken-row "manifest.jsonl:2" -- "$G" export e6 --to parquet
cp -a base e7; python3 - e7/manifest.jsonl <<'EOF'
import json, sys
lines = open(sys.argv[1]).read().splitlines(); r = json.loads(lines[0]); r["id"] = "../x"; lines[0] = json.dumps(r)
open(sys.argv[1], "w").write("\n".join(lines) + "\n")
EOF
refused export-id-with-slash "not one this tool writes" -- "$G" export e7 --to webdataset
cp -a base e8; : >e8/manifest.jsonl
works export-empty-manifest -- "$G" export e8 --to parquet,webdataset,vlmevalkit,lmms-eval
cp -a base e9; "$G" export e9 --to parquet,webdataset 2>/dev/null; cp -a e9 e9.first
works export-twice -- "$G" export e9 --to parquet,webdataset
same export-twice-same-bytes e9 e9.first
for link in data wds vlmevalkit lmms_eval; do
    cp -a base "el-$link"; ln -s "$W/victim" "el-$link/$link"
    refused "export-link-$link" "symbolic link" -- "$G" export "el-$link" --to parquet,webdataset,vlmevalkit,lmms-eval
    same "export-link-$link-victim" victim victim.orig
done
cp -a base ef; touch ef/lmms_eval
refused export-folder-is-a-file "not a directory" -- "$G" export ef --to lmms-eval
works export-files-only -- "$G" export base --to files

# ---- render and sweep: sinks and links planted before a run ----------------------------
for link in data wds vlmevalkit lmms_eval images; do
    mkdir "rl-$link"; ln -s "$W/victim" "rl-$link/$link"
    refused "render-link-$link" "symbolic link" -- "$G" "${R[@]}" --out "rl-$link" --sink parquet,webdataset,vlmevalkit,lmms-eval
    same "render-link-$link-victim" victim victim.orig
done
mkdir sl; ln -s "$W/victim" sl/contact
refused sweep-link-contact "symbolic link" -- "$G" sweep --count 2 --out sl --backend cpu -q --variants opacity=0.1
same sweep-link-contact-victim victim victim.orig
mkdir rf; touch rf/images
refused render-images-is-a-file "not a directory" -- "$G" "${R[@]}" --out rf
refused render-out-is-a-file "afile" -- "$G" "${R[@]}" --out afile
refused render-sink-svg-only "--format png" -- "$G" "${R[@]}" --out svg1 --format svg --sink parquet
"$G" "${R[@]}" --out st --sink parquet,webdataset,vlmevalkit,lmms-eval 2>/dev/null
echo mine >st/data/notes.txt
run 60 "$G" render p6.jsonl --backend cpu -q --out st --force
if [ "$RC" -eq 0 ] && [ ! -e st/wds ] && [ ! -e st/README.md ] && [ -f st/data/notes.txt ] && grep -q "removed" <<<"$LAST"; then
    verdict stale-datasets-removed yes ""; else verdict stale-datasets-removed no "old datasets stayed"; fi
echo "# mine" >st/README.md
works user-readme-kept-run -- "$G" render p6.jsonl --backend cpu -q --out st
grep -q "# mine" st/README.md && verdict user-readme-kept yes "" || verdict user-readme-kept no "README.md replaced"
"$G" "${R[@]}" --out sd --sink parquet 2>/dev/null
rm sd/data/*.parquet; mkdir sd/data/test-00000-of-00001.parquet
refused render-shard-name-is-a-dir "test-00000-of-00001.parquet" -- "$G" "${R[@]}" --out sd --sink parquet

# ---- merge and shards ---------------------------------------------------------------------
refused merge-missing-dir "no such directory" -- "$G" merge nope
refused merge-no-shards "no shards/ folder" -- "$G" merge empty
mkdir -p m1/shards/0-of-99999999999
refused merge-huge-count "100000" 20 -- "$G" merge m1
mkdir -p m2/shards/foo
refused merge-stray-folder "not a shard folder" -- "$G" merge m2
for i in 0 1; do "$G" "${R[@]}" --out m3 --shard "$i/2" 2>/dev/null; done
cp -a m3 m3.clean
rm -rf m3/shards/1-of-2
refused merge-missing-shard "shard(s) 1 of 2 missing" -- "$G" merge m3
rm -rf m3; cp -a m3.clean m3; rm m3/shards/1-of-2/done.json
refused merge-unfinished "not finished" -- "$G" merge m3
rm -rf m3; cp -a m3.clean m3; echo garbage >m3/shards/1-of-2/done.json
refused merge-garbage-done "done.json" -- "$G" merge m3
rm -rf m3; cp -a m3.clean m3; head -c 5000000 /dev/zero | tr '\0' ' ' >m3/shards/1-of-2/done.json
refused merge-huge-done "done.json" -- "$G" merge m3
rm -rf m3; cp -a m3.clean m3; img=$(first_image m3/shards/1-of-2); echo SECRET >"m3/shards/1-of-2/$img"; cp -a m3 m3.before
refused merge-tampered-image "changed after the shard finished" -- "$G" merge m3
same merge-tampered-wrote-nothing m3 m3.before
rm -rf m3; cp -a m3.clean m3; ln -s "$W/victim" m3/images
refused merge-link-images "symbolic link" -- "$G" merge m3
same merge-link-images-victim victim victim.orig
rm -rf m3; cp -a m3.clean m3; mv m3/shards/1-of-2 m3/s1; ln -s "$W/m3/s1" m3/shards/1-of-2
refused merge-link-shard "symbolic link" -- "$G" merge m3
rm -rf m3; cp -a m3.clean m3
works merge-clean -- "$G" merge m3
cp -a m3 m3.once
works merge-again -- "$G" merge m3
same merge-idempotent m3 m3.once
mkdir -p ms; ln -s "$W/victim" ms/shards
refused shard-link-shards "symbolic link" -- "$G" "${R[@]}" --out ms --shard 0/2
mkdir -p ms2/shards; ln -s "$W/victim" ms2/shards/0-of-2
refused shard-link-shard-folder "symbolic link" -- "$G" "${R[@]}" --out ms2 --shard 0/2
same shard-links-victim victim victim.orig
refused shard-flag-huge "100000" -- "$G" "${R[@]}" --out sh1 --shard 0/100000000000
refused shard-env-huge "SLURM_ARRAY_TASK_COUNT" -- env SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=18446744073709551615 "$G" "${R[@]}" --out sh2 --shard auto
refused shard-env-zero "SLURM_ARRAY_TASK_COUNT" -- env SLURM_ARRAY_TASK_ID=0 SLURM_ARRAY_TASK_COUNT=0 "$G" "${R[@]}" --out sh3 --shard auto
refused shard-env-min-over-max "SLURM_ARRAY_TASK_MIN" -- env SLURM_ARRAY_TASK_ID=3 SLURM_ARRAY_TASK_MIN=5 SLURM_ARRAY_TASK_MAX=2 "$G" "${R[@]}" --out sh4 --shard auto
refused shard-geomrender-env-zero "GEOMRENDER_SHARD" -- env GEOMRENDER_SHARD=0/0 "$G" "${R[@]}" --out sh5 --shard auto
[ ! -e sh1 ] && [ ! -e sh2 ] && verdict shard-refusals-create-nothing yes "" || verdict shard-refusals-create-nothing no "created --out"

# ---- score inputs -------------------------------------------------------------------------
refused score-predictions-dev-zero "bytes" 60 -- "$G" score --manifest base/manifest.jsonl --predictions /dev/zero --out sc1
refused score-manifest-dev-zero "bytes" 60 -- "$G" score --manifest /dev/zero --predictions p2.jsonl --out sc2
python3 - <<'EOF'
import json, zipfile
ids = [json.loads(l)["id"] for l in open("base/manifest.jsonl")]
with open("long.jsonl", "w") as f:
    f.write(json.dumps({"id": ids[0], "prediction": "x" * (70 << 20)}) + "\n")
    f.write(json.dumps({"id": ids[1], "prediction": "Therefore the final answer is 1."}) + "\n")
with zipfile.ZipFile("bomb.xlsx", "w", zipfile.ZIP_DEFLATED) as z:
    z.writestr("[Content_Types].xml", "<Types/>")
    with z.open("xl/worksheets/sheet1.xml", "w", force_zip64=True) as w:
        block = b"A" * (1 << 20)
        for _ in range(1024):
            w.write(block)
EOF
run 120 "$G" score --manifest base/manifest.jsonl --predictions long.jsonl --out sc3
if [ "$RC" -ne 124 ] && grep -q "long.jsonl:1" <<<"$LAST"; then verdict score-long-prediction yes ""; else verdict score-long-prediction no "no line error"; fi
refused score-xlsx-bomb "bomb.xlsx" 60 -- "$G" score --manifest base/manifest.jsonl --predictions bomb.xlsx --predictions-format vlmevalkit --out sc4

# ---- score: letters, hedges, over-long outputs, "cannot be determined" (issue 44) --------
"$G" generate --task relations --count 8 --seed 3 --out rel8.jsonl 2>/dev/null
"$G" render rel8.jsonl --out relbase --backend cpu -q 2>/dev/null
python3 - <<'EOF'
import json
rows = [json.loads(l) for l in open("relbase/manifest.jsonl")]
def pred(name, texts):
    with open(name, "w") as f:
        for r, t in zip(rows, texts):
            f.write(json.dumps({"id": r["id"], "prediction": t}) + "\n")
pred("hedge.jsonl", ["The answer is A, B, C or D", "A or B", "A and B", "(A) or (D)",
                     "The answer is either B or C.", "Answer: A, B", "It is option A or option B.", "A/C"])
forms = ["answer: ({})", "The correct option is {}.", "{}", "**({})**", "Answer: {}) that one",
         "I choose option {}", "the answer is {}.", "Final answer: ({})"]
pred("lower.jsonl", [f.format(r["answer"].lower()) for f, r in zip(forms, rows)])
pred("undecided.jsonl", ["It cannot be determined."] * len(rows))
pred("huge.jsonl", ["The answer is A. " + "x" * (2 << 20)] + ["Therefore the final answer is A."] * (len(rows) - 1))
json.dump({"cbi": sum(1 for r in rows if r["choices"][ord(r["answer"]) - 65] == "Cannot be inferred"),
           "n": len(rows)}, open("rel8.truth.json", "w"))
EOF
# check NAME DIR EXPRESSION: the Python expression holds of DIR/report.json (r: its model m,
# its base row b) and rel8.truth.json (t), after a run that exited 0.
check() {
    local ok=no
    if [ "$RC" -eq 0 ]; then
        ok=$(python3 -c 'import json,sys; r=json.load(open(sys.argv[1]+"/report.json")); t=json.load(open("rel8.truth.json")); m=r["models"][0]; b=[x for x in r["rows"] if x["axis"]=="base"][0]; print("yes" if eval(sys.argv[2]) else "no")' "$2" "$3" 2>&1)
    fi
    verdict "$1" "$ok" "report.json: $3 does not hold"
}
run 60 "$G" score --manifest relbase/manifest.jsonl --predictions hedge.jsonl --out s44a
check score-hedges-are-unparsed s44a 'm["rules"].get("hedged") == t["n"] and b["unparsed"] == t["n"] and b["correct"] == 0'
run 60 "$G" score --manifest relbase/manifest.jsonl --predictions lower.jsonl --out s44b
check score-lower-case-letters-read s44b 'b["correct"] == t["n"] and m["unparsed"] == 0'
run 60 "$G" score --manifest relbase/manifest.jsonl --predictions undecided.jsonl --out s44c
check score-cannot-be-determined-is-cbi s44c 'b["correct"] == t["cbi"] and t["cbi"] > 0'
run 120 "$G" score --manifest relbase/manifest.jsonl --predictions huge.jsonl --out s44d
check score-over-long-output-counted s44d 'm["rules"].get("too_long") == 1 and b["n"] == t["n"] and b["unparsed"] == 1'

# ---- gallery: image paths, links, FIFOs and changed files ---------------------------------
for case in "../secret.txt" "/etc/passwd" "images/../../secret.txt" "images/" ""; do
    cp -a base g1; set_image g1 1 "$case"
    refused "gallery-image-path[$case]" "manifest.jsonl:1" -- "$G" gallery --no-audit g1
    absent "gallery-image-path[$case]-no-secret" SECRET g1/gallery
    rm -rf g1
done
for target in secret.txt /dev/zero; do
    cp -a base g2; img=$(first_image g2); rm "g2/$img"; ln -s "$(realpath -m "$target")" "g2/$img"
    refused "gallery-image-link[$target]" "symbolic link" 20 -- "$G" gallery --no-audit g2
    absent "gallery-image-link[$target]-no-secret" SECRET g2/gallery
    rm -rf g2
done
cp -a base g3; img=$(first_image g3); rm "g3/$img"; mkfifo "g3/$img"
refused gallery-image-fifo "FIFO" 20 -- "$G" gallery --no-audit g3
cp -a base g4; img=$(first_image g4); echo SECRET >"g4/$img"
refused gallery-image-changed "SHA-256" -- "$G" gallery --no-audit g4
absent gallery-image-changed-no-secret SECRET g4/gallery
for link in gallery gallery/thumbs gallery/bases gallery/data; do
    name="gl-${link//\//-}"; cp -a base "$name"; mkdir -p "$(dirname "$name/$link")"; ln -s "$W/victim" "$name/$link"
    refused "gallery-link-$link" "symbolic link" -- "$G" gallery --no-audit "$name"
    same "gallery-link-$link-victim" victim victim.orig
done
refused gallery-no-manifest "no manifest.jsonl" -- "$G" gallery empty
refused gallery-thumb-size "thumbnail size" -- "$G" gallery --thumb-size 5000 base
works gallery-twice -- "$G" gallery base
cp -a base/gallery gallery.first
works gallery-again -- "$G" gallery base
same gallery-again-same-bytes base/gallery gallery.first

echo
for f in "${fails[@]}"; do echo "FAILED $f"; done
echo "hostile surfaces: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
