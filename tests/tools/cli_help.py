"""The command tree of the real binary, read from its own `--help` pages (CLI11's formatter), not
from the man page and completion generator that the tests check against it. Shared by
check_manpage.py and check_completion.py."""
import re
import subprocess
from dataclasses import dataclass, field

SECTIONS = ("Positionals", "Options", "Subcommands")
COLUMN = 30  # CLI11's description column


@dataclass
class Entry:
    names: list            # ["-r", "--round"], ["gfx"] or ["analyze"]
    lines: list            # the entry's help lines, as printed

    def descriptions(self):
        """The two readings of where the description starts: at the description column of the
        first line (names and type shorter than the column), or on the next line (longer)."""
        rest = [l.strip() for l in self.lines[1:]]
        first = self.lines[0][COLUMN:].strip() if len(self.lines[0]) > COLUMN else ""
        return [" ".join(w for w in [first] + rest if w), " ".join(w for w in rest if w)]

    def choices(self):
        """The values of an IsMember check ({a,b,c} after the type), else None."""
        m = re.search(r"\{([^{}]*)\}", self.lines[0])
        return m.group(1).split(",") if m else None


@dataclass
class Command:
    path: tuple
    options: list = field(default_factory=list)
    positionals: list = field(default_factory=list)
    subcommands: list = field(default_factory=list)


def parse_help(text, path):
    cmd = Command(path)
    section = None
    for line in text.splitlines():
        if not line.strip():
            section = None
            continue
        if not line.startswith(" "):
            section = line[:-1] if line.endswith(":") and line[:-1] in SECTIONS else None
            continue
        if section is None:
            continue
        if line.startswith("  ") and not line.startswith("   "):
            token = line.split()[0]
            names = token.split(",") if section == "Options" else [token]
            entry = Entry(names, [line])
            {"Options": cmd.options, "Positionals": cmd.positionals,
             "Subcommands": cmd.subcommands}[section].append(entry)
        else:
            target = {"Options": cmd.options, "Positionals": cmd.positionals,
                      "Subcommands": cmd.subcommands}[section]
            if target:
                target[-1].lines.append(line)
    return cmd


def command_tree(binary):
    """{path tuple: Command} for the program (path ()) and every subcommand, recursively."""
    tree = {}

    def visit(path):
        out = subprocess.run([binary, *path, "--help"], capture_output=True, text=True,
                             check=True).stdout
        cmd = parse_help(out, path)
        tree[path] = cmd
        for sub in cmd.subcommands:
            visit(path + (sub.names[0],))

    visit(())
    return tree


def normalize(text):
    """Blanks collapsed; an ellipsis as three dots (the man page writes it so, see man_page.cpp)."""
    return " ".join(text.replace("\u2026", "...").split())
