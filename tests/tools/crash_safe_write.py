#!/usr/bin/env python3
"""Crash-safe writes (docs/method.md §16): a failed or killed write never damages the previous artifact.

Usage: crash_safe_write.py --binary ROOFLINE --case EVAL_DIR

With the previous artifacts in place, the real binary is made to fail while writing:
  1. ROOFLINE_TEST_WRITE_FAULT=fail — the write stops halfway with ENOSPC (a full disk): exit 3,
     stderr says the artifacts were not written, both artifacts byte-identical to before, no
     temp file left.
  2. ROOFLINE_TEST_WRITE_FAULT=kill — the process SIGKILLs itself halfway through the write (a
     crash): both artifacts byte-identical to before; the half-written temp file is the only
     trace, and the next normal run replaces the artifacts and removes it.
  3. No hook: profile_roofline.json is a (non-empty) directory, so the rename fails: exit 3, the
     directory and its content untouched, the Markdown artifact not half-written, no temp file.
"""
import argparse
import os
import shutil
import signal
import subprocess
import sys
import tempfile

ARTIFACTS = ("profile_roofline.json", "profile_roofline.md")


def snapshot(out):
    return {n: open(os.path.join(out, n), "rb").read() for n in ARTIFACTS
            if os.path.isfile(os.path.join(out, n))}


def temps(out):
    return sorted(n for n in os.listdir(out) if ".tmp." in n)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--case", required=True)
    opts = ap.parse_args()
    errors = []

    def expect(cond, msg):
        if not cond:
            errors.append(msg)

    with tempfile.TemporaryDirectory(prefix="crash-safe-") as scratch:
        evaldir = os.path.join(scratch, "eval")
        shutil.copytree(opts.case, evaldir)
        out = os.path.join(scratch, "out")

        def run(extra_env=None, threshold="5"):
            env = {k: v for k, v in os.environ.items()
                   if k not in ("ROOFLINE_TEST_WRITE_FAULT", "ANALYSIS_SKILL", "HEAD_THRESHOLD_PCT")}
            env.update(extra_env or {})
            return subprocess.run([os.path.abspath(opts.binary), "analyze", "--round", "1", "--dir",
                                   evaldir, "--out", out, "--format", "quiet",
                                   "--head-threshold", threshold],
                                  env=env, capture_output=True, timeout=120)

        first = run()
        expect(first.returncode == 0, f"first run: exit {first.returncode}: {first.stderr!r}")
        before = snapshot(out)
        expect(set(before) == set(ARTIFACTS), f"first run wrote {sorted(before)}")
        # A different threshold changes the artifacts, so a torn write would show.
        changed = run(threshold="6")
        after_changed = snapshot(out)
        expect(after_changed != before, "a different --head-threshold did not change the artifacts")
        run()  # back to the reference artifacts
        expect(snapshot(out) == before, "the reference artifacts are not reproducible")

        failed = run({"ROOFLINE_TEST_WRITE_FAULT": "fail"}, threshold="6")
        stderr = failed.stderr.decode("utf-8", "replace")
        expect(failed.returncode == 3, f"fail hook: exit {failed.returncode}, expected 3: {stderr}")
        expect("artifacts not written" in stderr and "No space left" in stderr,
               f"fail hook: stderr does not explain: {stderr}")
        expect(snapshot(out) == before, "fail hook: the previous artifacts changed")
        expect(temps(out) == [], f"fail hook: temp files left: {temps(out)}")

        killed = run({"ROOFLINE_TEST_WRITE_FAULT": "kill"}, threshold="6")
        expect(killed.returncode == -signal.SIGKILL,
               f"kill hook: exit {killed.returncode}, expected death by SIGKILL")
        expect(snapshot(out) == before, "kill hook: the previous artifacts changed")
        left = temps(out)
        expect(len(left) == 1, f"kill hook: expected the one half-written temp file, got {left}")
        recovered = run(threshold="6")
        expect(recovered.returncode == 0, f"run after the kill: exit {recovered.returncode}")
        expect(snapshot(out) == after_changed, "run after the kill: artifacts not replaced")
        expect(temps(out) == [], f"run after the kill: stale temp file not removed: {temps(out)}")

        blocked = os.path.join(scratch, "blocked")
        os.makedirs(os.path.join(blocked, "profile_roofline.json"))
        with open(os.path.join(blocked, "profile_roofline.json", "keep.txt"), "w") as f:
            f.write("keep")
        proc = subprocess.run([os.path.abspath(opts.binary), "analyze", "--round", "1", "--dir",
                               evaldir, "--out", blocked, "--format", "quiet"],
                              capture_output=True, timeout=120)
        stderr = proc.stderr.decode("utf-8", "replace")
        expect(proc.returncode == 3, f"rename onto a directory: exit {proc.returncode}: {stderr}")
        expect("profile_roofline.json" in stderr and "artifacts not written" in stderr,
               f"rename onto a directory: stderr does not explain: {stderr}")
        expect(open(os.path.join(blocked, "profile_roofline.json", "keep.txt")).read() == "keep",
               "rename onto a directory: the directory content changed")
        expect(not os.path.exists(os.path.join(blocked, "profile_roofline.md")),
               "rename onto a directory: the Markdown was written after the JSON failed")
        expect(temps(blocked) == [], f"rename onto a directory: temp files left: {temps(blocked)}")

    for e in errors:
        print(f"FAIL: {e}")
    print(f"crash-safe writes: {'ok' if not errors else f'{len(errors)} problems'}")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
