#!/usr/bin/env python3
"""Messages said once, each settled by the option it names (docs/method.md §16.4).

For every kind of message that names an option, a run on bundled inputs that says it, then the
same run with that option given: the message is gone, or replaced by one that names only what is
still missing. Over every run:

- a message's "… would settle it" clause never names an option the command already gave (an
  option named that does not settle its message);
- stderr says each message once, however many entries it covers, naming them; the terminal body
  says it at the first entry and points there from the others; the report says it in the first
  entry's verdict and once in its Degraded table, and its other entries point to it.

Usage: check_settled_messages.py --binary build/roofline
"""
import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
GOLDEN = os.path.join(REPO, "tests/golden")
DSOCR = os.path.join(REPO, "tests/fixtures/wild/dsocr_ncu_rtx5090/all-stage.cuda_gpu_kern_sum.csv")
SETTLE = re.compile(r"([^;:]*) would settle it")
OPTION = re.compile(r"--[a-z][a-z-]+")

errors = []


def fail(msg):
    errors.append(msg)


class Run:
    """One analyze run: its messages (degraded reasons, skill errors, notes), stderr and stdout,
    and the report."""

    def __init__(self, binary, argv, label):
        self.argv, self.label = argv, label
        p = subprocess.run([binary] + argv, capture_output=True, text=True)
        if p.returncode != 0:
            fail(f"{label}: exit {p.returncode}: {p.stderr[-400:]}")
        self.stderr, self.stdout = p.stderr, p.stdout
        out = argv[argv.index("--out") + 1]
        with open(os.path.join(out, "profile_roofline.json"), encoding="utf-8") as f:
            self.doc = json.load(f)
        with open(os.path.join(out, "profile_roofline.md"), encoding="utf-8") as f:
            self.report = f.read()
        self.degraded = [d["reason"] for d in self.doc["degraded"]]
        self.messages = list(dict.fromkeys(self.degraded + self.doc["skill_errors"] +
                                           self.doc["notes"]))

    def naming(self, phrase):
        """The messages that contain `phrase`."""
        return [m for m in self.messages if phrase in m]

    def settling_options(self):
        """Every option a "would settle it" clause names, with its message."""
        return [(o, m) for m in self.messages for c in SETTLE.findall(m) for o in OPTION.findall(c)]


def given_options(argv):
    return {a for a in argv if a.startswith("--")}


def check_never_names_given(run):
    for option, message in run.settling_options():
        if option in given_options(run.argv):
            fail(f"{run.label}: names {option}, which the command gave and which did not settle "
                 f"it: {message[:300]}")


def expect(cond, msg):
    if not cond:
        fail(msg)


def analyze(binary, t, label, base, extra=()):
    out = os.path.join(t, "out_" + re.sub(r"\W+", "_", label))
    shutil.rmtree(out, ignore_errors=True)
    run = Run(binary, base + ["--out", out] + list(extra), label)
    check_never_names_given(run)
    return run


def golden_input(t, case):
    """A scratch copy of a golden case's input/ (the runs write nothing there, but the cases'
    inputs stay untouched whatever happens)."""
    dst = os.path.join(t, "in_" + case)
    if not os.path.exists(dst):
        shutil.copytree(os.path.join(GOLDEN, case, "input"), dst)
    return dst


def round_run(t, case, rnd="1"):
    return ["analyze", "--round", rnd, "--dir", golden_input(t, case), "--format", "quiet"]


def dsocr_round(binary, t):
    """DeepSeek-OCR on an RTX 5090 (tests/fixtures/wild): a Top-N from an Nsight Systems summary,
    no shapes, no config, no step annotations: eight entries, two causes."""
    d = os.path.join(t, "dsocr")
    os.makedirs(os.path.join(d, "profile/round_1"), exist_ok=True)
    shutil.copy(os.path.join(GOLDEN, "wild_dsocr_ncu_rtx5090/input/env_report.json"), d)
    subprocess.run([binary, "topn", DSOCR, "-o", os.path.join(d, "profile/round_1/profile_topN.json")],
                   check=True, capture_output=True)
    return ["analyze", "--round", "1", "--dir", d, "--head-threshold", "0.5"]


def check_regime_config_rows(binary, t):
    """The regime, the config and the rows: each named while missing, none once given."""
    base = dsocr_round(binary, t) + ["--format", "quiet"]
    gemm, elem = "GEMM without shapes", "elementwise byte model without shapes"
    r = analyze(binary, t, "dsocr", base)
    for kind in (gemm, elem):
        ms = r.naming(kind)
        expect(len(ms) == 1, f"dsocr: one '{kind}' message expected, got {len(ms)}")
        for m in ms:
            expect("--regime decode|prefill" in m and "--config FILE" in m,
                   f"dsocr: '{kind}' must name --regime and --config: {m[:300]}")
            # Without operand rows the rows rule cannot decide: --conc settles nothing here.
            expect("--conc" not in m, f"dsocr: --conc named, which settles nothing: {m[:300]}")
    conc = analyze(binary, t, "dsocr --conc", base, ["--conc", "8"])
    expect(conc.degraded == r.degraded,
           "dsocr: --conc changed the messages although none named it (so it should have been)")
    pre = analyze(binary, t, "dsocr --regime prefill", base, ["--regime", "prefill"])
    for m in pre.naming(gemm):
        expect(m.endswith("--config FILE would settle it") and "--regime" not in m,
               f"dsocr --regime prefill: the GEMM message must name only --config: {m[:300]}")
    for m in pre.naming(elem):
        expect("--isl and --config FILE would settle it" in m and "--regime" not in m,
               f"dsocr --regime prefill: the elementwise message must name --isl and --config: "
               f"{m[:300]}")
    isl = analyze(binary, t, "dsocr --regime prefill --isl", base,
                  ["--regime", "prefill", "--isl", "788"])
    for m in isl.naming(elem):
        expect(m.endswith("hidden_size (no config.json); --config FILE would settle it"),
               f"dsocr --isl 788: the elementwise message must name only --config: {m[:300]}")
    config = os.path.join(GOLDEN, "hf_prefill_h100/input/config.json")
    full = analyze(binary, t, "dsocr --regime prefill --isl --config", base,
                   ["--regime", "prefill", "--isl", "788", "--config", config])
    expect(not full.naming(elem), "dsocr with --config: the elementwise message should be gone")
    expect(not full.settling_options(),
           f"dsocr with everything given: a message still names an option: "
           f"{full.settling_options()[:1]}")
    check_said_once(binary, t, base)


def check_said_once(binary, t, base):
    """Four GEMMs share one cause: stderr says it once naming all four, the terminal body at the
    first and points there from the others, the report in the first verdict and its Degraded
    table's one row."""
    text = analyze(binary, t, "dsocr text", [a if a != "quiet" else "text" for a in base])
    cause = next(d["reason"] for d in text.doc["degraded"] if "GEMM without shapes" in d["reason"])
    covered = [d for d in text.doc["degraded"] if d["reason"] == cause]
    expect(len(covered) == 4, f"dsocr: four entries expected under the GEMM cause, {len(covered)}")
    lines = [l for l in text.stderr.splitlines() if cause in l]
    expect(len(lines) == 1, f"dsocr: stderr says the GEMM cause {len(lines)} times, not once")
    if lines:
        expect("gemm · gemvx, gemm · gemvx#2," in lines[0],
               f"dsocr: stderr's line names the entries it covers: {lines[0][:200]}")
    expect(text.stdout.count(cause) == 1,
           f"dsocr: the terminal body says the GEMM cause {text.stdout.count(cause)} times")
    expect(text.stdout.count("the same cause as entry 1 (gemm · gemvx), said there") == 3,
           "dsocr: the other three GEMMs point to entry 1 in the terminal body")
    said = md_escaped(cause)
    expect(text.report.count(said) == 2,
           f"dsocr: the report says the GEMM cause {text.report.count(said)} times, not twice "
           f"(the first verdict and the Degraded table)")
    expect(text.report.count("the same cause as entry 1 (gemm · gemvx), said there") == 6,
           "dsocr: the other three GEMMs' verdicts and notes point to entry 1 in the report")
    rows = [l for l in text.report.splitlines() if l.startswith("| ") and said in l]
    expect(len(rows) == 1 and "`gemm · gemvx#2`" in rows[0],
           "dsocr: the Degraded table has one row for the GEMM cause, naming its entries")


def md_escaped(text):
    """The report's escaping of plain text (docs/method.md §16.2) for the characters messages
    hold."""
    for c in "\\<|*":
        text = text.replace(c, "\\" + c)
    return text


def gone_with(binary, t, label, base, phrase, option, rest=None):
    """`phrase` names `option` in the base run; with `option` given it is gone, and a message
    left about the same thing names only `rest` (else nothing)."""
    r = analyze(binary, t, label, base)
    named = [m for m in r.naming(phrase) if option[0] in " ".join(SETTLE.findall(m))]
    expect(named, f"{label}: no message '{phrase}' naming {option[0]}")
    g = analyze(binary, t, f"{label} {' '.join(option)}", base, option)
    left = g.naming(phrase)
    if rest is None:
        expect(not left, f"{label} {' '.join(option)}: '{phrase}' still said: {left[:1]}")
    else:
        expect(left and all(re.findall(OPTION, " ".join(SETTLE.findall(m))) == rest for m in left),
               f"{label} {' '.join(option)}: '{phrase}' should name {rest}: {left[:1]}")
    return g


def check_each_option(binary, t):
    # --classify: an op class unknown.
    gone_with(binary, t, "classify", round_run(t, "l2_unmodelled"), "op class unknown",
              ["--classify", "sample_from_logits_kernel=elementwise"])
    # --config: a model that needs the config.
    gone_with(binary, t, "config", round_run(t, "names_ck_fmha_mi300x"),
              "attention byte model needs the model config.json", ["--config", os.path.join(
                  GOLDEN, "profiler_topn_h200/input/config.json")])
    # --isl and --osl: a decode attention's context, each named while it is missing.
    trace = ["analyze", os.path.join(GOLDEN, "vllm_dense_graph_place_h200/input/"
                                     "vllm_dense_decode.pt.trace.json.gz"),
             "--config", os.path.join(GOLDEN, "vllm_dense_graph_place_h200/input/config.json"),
             "--format", "quiet"]
    gone_with(binary, t, "isl", trace, "decode attention byte model needs", ["--isl", "1024"],
              rest=["--osl"])
    gone_with(binary, t, "isl osl", trace + ["--isl", "1024"], "decode attention byte model needs",
              ["--osl", "256"])
    # --product: no arch.
    gone_with(binary, t, "product", round_run(t, "l5_broken_env"), "no arch",
              ["--product", "mi300x"])
    # --tp: a collective without peers.
    gone_with(binary, t, "tp", round_run(t, "given_tp_absent"), "no tp given", ["--tp", "8"])
    # --regime: the decode step's rows the trace counts then give M.
    topn = round_run(t, "profiler_topn_h200", "0") + ["--head-threshold", "0.1", "--max-entries",
                                                      "25"]
    elem = "elementwise byte model without shapes"
    gone_with(binary, t, "regime", topn, elem, ["--regime", "decode"])
    # --conc and --config together, each dropped from the message once given.
    names = round_run(t, "names_by_grammar_b200")
    gone_with(binary, t, "rows", names, elem, ["--conc", "64"], rest=["--config"])


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    args = ap.parse_args()
    binary = os.path.abspath(args.binary)
    with tempfile.TemporaryDirectory() as t:
        check_regime_config_rows(binary, t)
        check_each_option(binary, t)
    for e in errors:
        print(f"FAIL: {e}")
    if errors:
        return 1
    print("every message names only what settles it, and says it once per cause")
    return 0


if __name__ == "__main__":
    sys.exit(main())
