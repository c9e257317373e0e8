#!/usr/bin/env python3
"""`roofline peaks list` grouped by architecture (issue 46): each arch has one heading ("gfx942 —
3 sections: …"), every row under it is of that arch, the arch's section without product (if
any) comes first, the heading names every part and says what --gfx alone takes, and the rows
together are every section of the table the footer counts.

Usage: check_peaks_list.py --binary build/roofline
"""
import argparse
import re
import subprocess
import sys

HEADING = re.compile(r"^(\S+) — (\d+) sections?(?:: (.*)|, without product)$")
ROW = re.compile(r"^(gfx\w+|sm_\w+)\s+(\S+)\s")


def check(text):
    errors, seen, rows = [], set(), 0
    arch, parts, count, listed, first = None, [], 0, 0, True
    for line in text.splitlines():
        m = HEADING.match(line)
        if m:
            if arch is not None and listed != count:
                errors.append(f"{arch}: heading says {count} sections, {listed} rows follow")
            arch, count, listed, first = m.group(1), int(m.group(2)), 0, True
            if arch in seen:
                errors.append(f"{arch}: a second heading (rows of one arch not together)")
            seen.add(arch)
            names = m.group(3) or ""
            common = m.group(3) is None or "one without product" in names
            if m.group(3) is not None and not common and "--product names the part" not in names:
                errors.append(f"{arch}: heading does not say --product names the part: {line}")
            parts = re.findall(r"[\w.-]+", names.split(";")[0].replace("and one without product", ""))
            parts = [p for p in parts if p not in ("and", "which", "gfx", "alone", "takes")]
            continue
        m = ROW.match(line)
        if not m:
            continue
        rows += 1
        if arch is None or m.group(1) != arch:
            errors.append(f"row of {m.group(1)} under the heading of {arch}: {line[:60]}")
            continue
        listed += 1
        product = m.group(2)
        if product == "-":
            if not first:
                errors.append(f"{arch}: its section without product is not its first row")
        elif product not in parts:
            errors.append(f"{arch}: heading does not name its part {product}")
        first = False
    if arch is not None and listed != count:
        errors.append(f"{arch}: heading says {count} sections, {listed} rows follow")
    total = re.search(r"^\((\d+) sections from ", text, re.M)
    if not total or int(total.group(1)) != rows:
        errors.append(f"{rows} rows listed, the footer says {total.group(1) if total else '?'}")
    if len(seen) < 10:
        errors.append(f"only {len(seen)} arch headings")
    return errors


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    args = ap.parse_args()
    p = subprocess.run([args.binary, "peaks", "list"], capture_output=True, text=True)
    errors = [f"exit {p.returncode}"] if p.returncode else check(p.stdout)
    for e in errors:
        print(f"FAIL: {e}")
    if not errors:
        print("peaks list: every arch's sections together under one heading")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
