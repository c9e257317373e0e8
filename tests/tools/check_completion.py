#!/usr/bin/env python3
"""The generated shell completions complete exactly the command line the binary has.

bash (--shell bash): the script loads and registers `_roofline` for roofline; `_roofline` is
called as bash calls it (COMP_WORDS, COMP_CWORD) and COMPREPLY is compared with what the
binary's own `--help` pages declare (cli_help.py): the subcommands at each level, every option
of every command (no more, no fewer), the values of every option with a fixed set of choices
(`--format`, `--color`, `--fail-on`, ...), folders for --dir, nothing for a number, and round
names under --dir in a scratch evaluation folder (`--dir D --round`, `--dir=D`, `-d D -r`, the
default `.`, compare's second `--round`, outcomes' `--baseline-round`; a file and a folder whose
name is not a round are left out).

zsh (--shell zsh): `zsh -n`, then real completions in an interactive zsh under zpty (compinit,
the script on $fpath, `compadd` wrapped to record the matches) for subcommands, options, choices
and round names.

Usage: check_completion.py --binary build/roofline --script build/completions/roofline --shell bash
"""
import argparse
import os
import concurrent.futures
import subprocess
import sys
import tempfile
import time

from cli_help import command_tree

errors = []


def fail(msg):
    errors.append(msg)


def bash_complete(script, words, cwd):
    """COMPREPLY for the command line `words` (the last one is under the cursor)."""
    prog = ('source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(( $# - 1 )); '
            'COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}; _roofline; '
            'printf "%s\\n" "${COMPREPLY[@]}"')
    r = subprocess.run(["bash", "--norc", "--noprofile", "-c", prog, "_", script, *words],
                       capture_output=True, text=True, cwd=cwd)
    if r.returncode != 0 or r.stderr:
        fail(f"bash completion of {words}: exit {r.returncode}, stderr {r.stderr!r}")
    return sorted(w for w in r.stdout.split("\n") if w)


ZSH_HARNESS = r'''
zmodload zsh/zpty || exit 1
zpty z zsh -f -i
zpty -w z "PS1='> '; fpath=($DIR \$fpath); autoload -Uz compinit; compinit -u -C -d ${(q)DUMP}"
zpty -w z "cd ${(q)CWD}"
zpty -w z "compadd() { local -a __m; builtin compadd -O __m \"\$@\"; print -rl -- \$__m >> ${(q)OUT}; builtin compadd \"\$@\" }"
zpty -w z "LISTMAX=100000; zstyle ':completion:*' list-prompt ''; zstyle ':completion:*' menu no"
# _main_complete calls the functions in comppostfuncs when the completion has finished: the
# harness waits for that mark instead of typing ahead (keys pending during a completion change
# what it does).
zpty -w z "__done() { print -r -- done > ${(q)OUT}.done }; comppostfuncs=(__done)"
zpty -w z "print -r -- ready > ${(q)OUT}.ready"
for i in {1..400}; do [[ -e $OUT.ready ]] && break; sleep 0.05; done
zpty -w -n z "$LINE"$'\t'
for i in {1..400}; do [[ -e $OUT.done ]] && break; sleep 0.05; done
zpty -d z
'''


def zsh_dump(script_dir, tmp):
    """compinit's dump of the completion functions with the script's folder first, made once:
    each completion's shell then loads it (compinit -C) instead of scanning fpath again."""
    dump = os.path.join(tmp, "zcompdump")
    subprocess.run(["zsh", "-f", "-c", 'fpath=($DIR $fpath); autoload -Uz compinit; '
                    'compinit -u -d "$DUMP"'], env=dict(os.environ, DIR=script_dir, DUMP=dump,
                                                        HOME=tmp),
                   timeout=60, capture_output=True, check=True)
    return dump


def zsh_complete(script_dir, line, cwd, tmp):
    out = os.path.join(tmp, f"matches{time.monotonic_ns()}")
    env = dict(os.environ, DIR=script_dir, CWD=cwd, OUT=out, LINE=line, HOME=tmp,
               DUMP=os.path.join(tmp, "zcompdump"))
    subprocess.run(["zsh", "-f", "-c", ZSH_HARNESS], env=env, timeout=30, capture_output=True)
    try:
        with open(out, encoding="utf-8") as f:
            return sorted(set(w for w in f.read().split("\n") if w))
    except FileNotFoundError:
        return []


def make_eval(tmp):
    ev = os.path.join(tmp, "eval")
    for r in ("0", "1", "tuning", "bad.name"):
        os.makedirs(os.path.join(ev, "profile", "round_" + r))
    open(os.path.join(ev, "profile", "round_file"), "w").close()
    os.makedirs(os.path.join(ev, "subdir"))
    open(os.path.join(ev, "topn.json"), "w").close()
    return ev


def expect(what, got, want):
    if got != sorted(want):
        fail(f"{what}: got {got}, want {sorted(want)}")


def check_bash(args, tree, tmp):
    r = subprocess.run(["bash", "--norc", "-c", 'source "$1" && complete -p roofline', "_",
                        args.script], capture_output=True, text=True)
    if "-F _roofline" not in r.stdout:
        fail(f"complete -p roofline: {r.stdout!r} {r.stderr!r}")
    ev = make_eval(tmp)
    rounds = ["0", "1", "tuning"]
    run = lambda words, cwd=tmp: bash_complete(args.script, ["roofline", *words], cwd)
    for path, cmd in tree.items():
        if cmd.subcommands:
            expect(f"roofline {' '.join(path)} <TAB>", run([*path, ""]),
                   [s.names[0] for s in cmd.subcommands])
        if path:
            expect(f"roofline {' '.join(path)} -<TAB>", run([*path, "-"]),
                   [n for e in cmd.options for n in e.names])
        for e in cmd.options:
            if e.choices():
                for n in e.names:
                    expect(f"roofline {' '.join(path)} {n} <TAB>", run([*path, n, ""]), e.choices())
    expect("analyze --dir D --round <TAB>", run(["analyze", "--dir", ev, "--round", ""]), rounds)
    expect("analyze --dir D --round t<TAB>", run(["analyze", "--dir", ev, "--round", "t"]),
           ["tuning"])
    expect("analyze --dir=D --round=<TAB>",
           run(["analyze", "--dir", "=", ev, "--round", "=", ""]), rounds)
    expect("analyze --dir=D --round=<TAB> (cursor on '=')",
           run(["analyze", "--dir", "=", ev, "--round", "="]), rounds)
    expect("analyze -d D -r <TAB>", run(["analyze", "-d", ev, "-r", ""]), rounds)
    expect("analyze --round <TAB> (default --dir .)", run(["analyze", "--round", ""], ev), rounds)
    expect("analyze --round <TAB> in a folder without rounds", run(["analyze", "--round", ""]), [])
    expect("compare --dir D --round 0 --round <TAB>",
           run(["compare", "--dir", ev, "--round", "0", "--round", ""]), rounds)
    expect("compare --round 0 --dir D --round 1<TAB>",
           run(["compare", "--round", "0", "--dir", ev, "--round", "1"]), ["1"])
    expect("outcomes --dir D --baseline-round <TAB>",
           run(["outcomes", "--dir", ev, "--baseline-round", ""]), rounds)
    expect("analyze --dir <TAB> (folders only)", run(["analyze", "--dir", ""], ev),
           ["profile", "subdir"])
    expect("analyze --topn t<TAB> (files)", run(["analyze", "--topn", "t"], ev), ["topn.json"])
    expect("calc --bytes <TAB> (a number)", run(["calc", "--bytes", ""], ev), [])
    expect("analyze --dir D --form<TAB>", run(["analyze", "--dir", ev, "--form"]), ["--format"])
    expect("peaks show --f<TAB>", run(["peaks", "show", "--f"]), ["--format"])


def check_zsh(args, tree, tmp):
    r = subprocess.run(["zsh", "-n", args.script], capture_output=True, text=True)
    if r.returncode != 0:
        fail(f"zsh -n {args.script}: {r.stderr}")
        return
    ev = make_eval(tmp)
    script_dir = os.path.dirname(os.path.abspath(args.script))
    # (what, line, cwd, want): every completion is its own interactive zsh, so they run side by
    # side (each writes its own matches file) and are compared in this order.
    cases = []
    add = lambda what, line, want, cwd=tmp: cases.append((what, "roofline " + line, cwd, want))
    subs = [s.names[0] for s in tree[()].subcommands]
    add("zsh: roofline <TAB>", "", subs)
    add("zsh: roofline peaks <TAB>", "peaks ", [s.names[0] for s in tree[("peaks",)].subcommands])
    for path, cmd in tree.items():
        if path and not cmd.subcommands:
            add(f"zsh: roofline {' '.join(path)} --<TAB>", " ".join(path) + " --",
                [n for e in cmd.options for n in e.names if n.startswith("--")])
    add("zsh: roofline analyze --format <TAB>", "analyze --format ", ["json", "quiet", "text"])
    add("zsh: roofline analyze --dir D --round <TAB>", f"analyze --dir {ev} --round ",
        ["0", "1", "tuning"])
    add("zsh: roofline compare --round 0 --round <TAB> (default .)", "compare --round 0 --round ",
        ["0", "1", "tuning"], ev)
    add("zsh: roofline compare --fail-on <TAB>", "compare --fail-on ",
        ["contradiction", "regression"])
    zsh_dump(script_dir, tmp)
    with concurrent.futures.ThreadPoolExecutor(max_workers=4) as pool:
        got = list(pool.map(lambda c: zsh_complete(script_dir, c[1], c[2], tmp), cases))
    for (what, _, _, want), matches in zip(cases, got):
        expect(what, matches, want)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--binary", required=True)
    ap.add_argument("--script", required=True)
    ap.add_argument("--shell", choices=["bash", "zsh"], required=True)
    args = ap.parse_args()
    args.script = os.path.abspath(args.script)  # the checks run in scratch folders
    fresh = subprocess.run([args.binary, "--completion", args.shell], capture_output=True,
                           text=True, check=True).stdout
    with open(args.script, encoding="utf-8") as f:
        if f.read() != fresh:
            fail(f"{args.script} is not what `roofline --completion {args.shell}` prints now")
    tree = command_tree(args.binary)
    with tempfile.TemporaryDirectory() as tmp:
        (check_bash if args.shell == "bash" else check_zsh)(args, tree, tmp)
    if errors:
        print("\n".join(errors), file=sys.stderr)
        print(f"{args.shell} completion: {len(errors)} problem(s)", file=sys.stderr)
        return 1
    print(f"{args.shell} completion: every check passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
