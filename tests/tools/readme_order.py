#!/usr/bin/env python3
"""The README's two commands run in either order on one checkout: the main command's analyze step
(what it writes lands in the checkout) and then the repository checks that look at the checkout
(docs.architecture) still pass.

A scratch checkout of the tracked files is made (a git repository, as a clone is), the main
command's analyze step from the README is run in it with the built binary in place of
./build/roofline, and check_architecture.py is run on the scratch checkout.

Usage: readme_order.py --binary build/roofline
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def main_command():
    text = open(os.path.join(REPO, "README.md"), encoding="utf-8").read()
    block = re.search(r"<!-- main-command -->\s*```sh\n(.*?)\n```", text, re.S).group(1)
    # The analyze step: from the fixture's `T=` onwards (the install and build steps before it
    # are what the binary under test already is).
    return block[block.index("T="):]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    binary = os.path.abspath(ap.parse_args().binary)
    files = subprocess.run(["git", "-C", REPO, "ls-files", "-z"], capture_output=True, check=True)
    with tempfile.TemporaryDirectory() as t:
        root = os.path.join(t, "checkout")
        for f in files.stdout.decode().split("\0"):
            if not f or not os.path.isfile(os.path.join(REPO, f)):
                continue
            os.makedirs(os.path.dirname(os.path.join(root, f)), exist_ok=True)
            shutil.copy2(os.path.join(REPO, f), os.path.join(root, f))
        git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-C", root]
        subprocess.run(git[:5] + ["init", "-q", root], check=True)
        subprocess.run(git + ["add", "-A"], check=True)
        subprocess.run(git + ["commit", "-qm", "scratch"], check=True)
        step = main_command().replace("./build/roofline", binary)
        run = subprocess.run(["bash", "-euo", "pipefail", "-c", step], cwd=root,
                             capture_output=True, text=True)
        if run.returncode != 0:
            print(f"FAIL: the main command's analyze step exited {run.returncode}:\n{run.stderr}")
            return 1
        written = [d for d in os.listdir(root) if os.path.isdir(os.path.join(root, d))
                   and os.path.exists(os.path.join(root, d, "profile_roofline.json"))]
        if not written:
            print("FAIL: the main command wrote no artifacts into the checkout")
            return 1
        check = subprocess.run([sys.executable, os.path.join(REPO, "tests/tools/check_architecture.py"),
                                root], capture_output=True, text=True)
        print(check.stdout + check.stderr, end="")
        if check.returncode != 0:
            print(f"FAIL: docs.architecture after the main command (it wrote {written[0]}/)")
            return 1
        print(f"readme_order: the main command wrote {written[0]}/; docs.architecture still passes")
        return 0


if __name__ == "__main__":
    sys.exit(main())
