#!/usr/bin/env python3
"""The outcome ledger under concurrency and crashes (docs/method.md §17.3).

Usage: ledger_race.py --binary ROOFLINE --case EVAL_DIR [--runs 20] [--rounds 3] [--pause-ms 20]

EVAL_DIR is a real evaluation folder (env_report.json, config.json, profile/round_R/...); its
first round becomes round 0 of every synthetic run folder, which also gets one
kernels/<kernel>_task/opbench_result.json per kernel of round 0's analysed head.

  1. Race: two writer threads run `roofline outcomes --ledger SHARED` at the same time, one over
     the even run folders and one over the odd ones, each folder --rounds times with a different
     measured speedup each round (runs × rounds processes, two always in flight). Each writer holds the ledger --pause-ms between
     reading and writing it (ROOFLINE_TEST_LEDGER_PAUSE_MS), so the two surely overlap: without
     the lock the last round alone would lose records. The shared ledger starts with a record of
     another run and a line that is not JSON. At the end it must hold every record of every run exactly
     once with its last round's speedup (no record or update lost, none duplicated), both foreign
     lines byte for byte, and no temp file.
  2. Crash: ROOFLINE_TEST_WRITE_FAULT=fail (ENOSPC halfway) exits 3 and leaves the ledger byte
     for byte as it was, no temp file; =kill (SIGKILL halfway) leaves the ledger as it was and
     one half-written temp file, which the next normal run removes while writing the update.
  3. The lock file: no `F.lock` is left beside the ledger after the race, after a failed write or
     after the run that follows the kill (the killed writer leaves it; that run removes it).
"""
import argparse
import glob
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import threading

FOREIGN = ('{"key": ["llama-3.1-70b-fp8-mi300x", "Cijk_Alik_Bljk_F8BS_BH", "opbench"], '
           '"run": "llama-3.1-70b-fp8-mi300x", "verdict": "confirmed"}')
NOT_JSON = '{"key": ["llama-3.1-70b-fp8-mi300x", "ck_fmha_fwd", "director"], "run": "lla'


def env_without_hooks(extra=None):
    env = {k: v for k, v in os.environ.items()
           if k not in ("ROOFLINE_TEST_WRITE_FAULT", "ROOFLINE_LEDGER", "ANALYSIS_SKILL",
                        "HEAD_THRESHOLD_PCT")}
    env.update(extra or {})
    return env


def make_runs(binary, case, scratch, n):
    rounds = sorted(glob.glob(os.path.join(case, "profile", "round_*")))
    src_round = rounds[0]
    proto = os.path.join(scratch, "proto")
    os.makedirs(os.path.join(proto, "profile", "round_0"))
    for f in ("env_report.json", "config.json"):
        if os.path.exists(os.path.join(case, f)):
            shutil.copy(os.path.join(case, f), proto)
    shutil.copy(os.path.join(src_round, "profile_topN.json"), os.path.join(proto, "profile", "round_0"))
    # Round 0's artifact, so each outcomes run reads its predictions instead of re-analysing.
    subprocess.run([binary, "analyze", "--round", "0", "--dir", proto, "--format", "quiet"],
                   check=True, env=env_without_hooks())
    with open(os.path.join(proto, "profile", "round_0", "profile_roofline.json")) as f:
        head = [e["name"] for e in json.load(f)["entries"]]
    runs = []
    for i in range(n):
        run = os.path.join(scratch, f"run_{i:02d}")
        shutil.copytree(proto, run)
        write_outcomes(run, i, head, 0)
        runs.append(run)
    return runs, head


def speedup(i, k, r):
    """The isolated speedup run i reports for head kernel k in round r (each round differs)."""
    return round(1.0 + 0.01 * (i + 1) * (k + 1) + 0.001 * r, 6)


def write_outcomes(run, i, head, r):
    for k, name in enumerate(head):
        task = os.path.join(run, "kernels", f"{name}_task")
        os.makedirs(task, exist_ok=True)
        with open(os.path.join(task, "opbench_result.json"), "w") as f:
            json.dump({"task": name, "isolated_speedup": speedup(i, k, r), "measured": True,
                       "harness_suspect": False}, f)


def outcomes(binary, run, ledger, extra_env=None, pause_ms=0):
    env = dict(extra_env or {})
    if pause_ms:
        env["ROOFLINE_TEST_LEDGER_PAUSE_MS"] = str(pause_ms)
    return subprocess.run([binary, "outcomes", "--dir", run, "--ledger", ledger, "--format", "quiet"],
                          env=env_without_hooks(env), capture_output=True, timeout=120)


def read_lines(path):
    with open(path, encoding="utf-8") as f:
        return f.read().split("\n")[:-1]


def temps(folder):
    return sorted(n for n in os.listdir(folder) if ".tmp." in n)


def locks(folder):
    return sorted(n for n in os.listdir(folder) if n.endswith(".lock"))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--case", required=True)
    ap.add_argument("--runs", type=int, default=20)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--pause-ms", type=int, default=20)
    opts = ap.parse_args()
    binary = os.path.abspath(opts.binary)
    errors = []

    def expect(cond, msg):
        if not cond:
            errors.append(msg)

    with tempfile.TemporaryDirectory(prefix="ledger-race-") as scratch:
        runs, head = make_runs(binary, opts.case, scratch, opts.runs)
        shared = os.path.join(scratch, "shared")
        os.makedirs(shared)
        ledger = os.path.join(shared, "roofline_outcomes.jsonl")
        with open(ledger, "w") as f:
            f.write(FOREIGN + "\n" + NOT_JSON + "\n")

        failures = []

        def writer(mine):
            for r in range(opts.rounds):
                for i, run in mine:
                    write_outcomes(run, i, head, r)  # every round changes every record
                    p = outcomes(binary, run, ledger, pause_ms=opts.pause_ms)
                    if p.returncode != 0:
                        failures.append(f"{os.path.basename(run)}: exit {p.returncode}: {p.stderr!r}")

        indexed = list(enumerate(runs))
        threads = [threading.Thread(target=writer, args=(indexed[w::2],)) for w in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        processes = len(runs) * opts.rounds
        expect(not failures, f"writers failed: {failures[:3]}")
        lines = read_lines(ledger)
        expect(lines[0] == FOREIGN, "the other run's record is not kept byte for byte")
        expect(lines[1] == NOT_JSON, "the line that is not JSON is not kept byte for byte")
        records = [json.loads(l) for l in lines[2:]]
        keys = [tuple(r["key"]) for r in records]
        want = {(os.path.basename(r), k, "opbench") for r in runs for k in head}
        expect(len(keys) == len(set(keys)), f"duplicated records: {len(keys) - len(set(keys))}")
        missing = want - set(keys)
        expect(not missing, f"{len(missing)} records lost, e.g. {sorted(missing)[:2]}")
        expect(set(keys) <= want, f"unexpected records: {sorted(set(keys) - want)[:2]}")
        last = {(os.path.basename(r), name): speedup(i, k, opts.rounds - 1)
                for i, r in enumerate(runs) for k, name in enumerate(head)}
        stale = [r["key"] for r in records
                 if r["measured"]["isolated_speedup"] != last.get(tuple(r["key"][:2]))]
        expect(not stale, f"{len(stale)} records lost their last update, e.g. {stale[:2]}")
        expect(temps(shared) == [], f"temp files left: {temps(shared)}")
        expect(locks(shared) == [], f"lock file left after the race: {locks(shared)}")
        print(f"race: {processes} outcomes processes over {len(runs)} runs, 2 at a time: "
              f"{len(set(keys))} of {len(want)} records, {len(keys) - len(set(keys))} duplicates, "
              f"{len(stale)} stale")

        # Crash mid-write: change one outcome, then make the write fail or die halfway.
        before = open(ledger, "rb").read()
        target = os.path.join(runs[0], "kernels", f"{head[0]}_task", "opbench_result.json")
        with open(target, "w") as f:
            json.dump({"task": head[0], "isolated_speedup": 1.5, "measured": True}, f)
        p = outcomes(binary, runs[0], ledger, {"ROOFLINE_TEST_WRITE_FAULT": "fail"})
        stderr = p.stderr.decode("utf-8", "replace")
        expect(p.returncode == 3, f"fail hook: exit {p.returncode}, expected 3: {stderr}")
        expect("ledger not written" in stderr and "No space left" in stderr,
               f"fail hook: stderr does not explain: {stderr}")
        expect(open(ledger, "rb").read() == before, "fail hook: the ledger changed")
        expect(temps(shared) == [], f"fail hook: temp files left: {temps(shared)}")
        expect(locks(shared) == [], f"fail hook: lock file left: {locks(shared)}")
        p = outcomes(binary, runs[0], ledger, {"ROOFLINE_TEST_WRITE_FAULT": "kill"})
        expect(p.returncode == -signal.SIGKILL, f"kill hook: exit {p.returncode}, expected SIGKILL")
        expect(open(ledger, "rb").read() == before, "kill hook: the ledger changed")
        expect(len(temps(shared)) == 1, f"kill hook: expected one half-written temp file: {temps(shared)}")
        p = outcomes(binary, runs[0], ledger)
        expect(p.returncode == 0, f"run after the kill: exit {p.returncode}: {p.stderr!r}")
        after = read_lines(ledger)
        expect(len(after) == len(lines), "run after the kill: the record count changed")
        changed = [l for l in after[2:]
                   if json.loads(l)["key"][:2] == [os.path.basename(runs[0]), head[0]]]
        expect(len(changed) == 1 and json.loads(changed[0])["measured"]["isolated_speedup"] == 1.5,
               "run after the kill: the update is not in the ledger")
        expect(temps(shared) == [], f"run after the kill: stale temp file not removed: {temps(shared)}")
        expect(locks(shared) == [], f"run after the kill: lock file not removed: {locks(shared)}")

    for e in errors:
        print(f"FAIL: {e}")
    print(f"ledger race and crash: {'ok' if not errors else f'{len(errors)} problems'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
