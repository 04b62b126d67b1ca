"""The manual pages: heed(1) and heed-COMMAND(1), written at
build time by `heed help --man` from the help texts (src/cli/cli_man.c).

1. Every command `heed --help` lists has a page in the build folder, the
   same bytes `heed help --man COMMAND` writes, with the sections a
   manual has.
2. Each renders without a warning: groff -man -ww, and man -l.
3. The options of a page are exactly the options the command accepts:
   the long options of its getopt_long tables (src/cli/cmd_NAME.c and the
   shared tables of cli_config.h), and its short options those of its
   getopt strings; and getopt takes every option the page names.
4. `meson install --tags man` puts every page in share/man/man1.
"""

import os
import re
import shutil
import subprocess
import tempfile

from heedtest import Checks, run_heed

BUILD = os.environ.get("HEED_BUILD_ROOT", "")
SOURCE = os.environ.get("HEED_SOURCE_ROOT",
                        os.path.join(os.path.dirname(__file__), "..", ".."))
SECTIONS = ["NAME", "SYNOPSIS", "DESCRIPTION", "OPTIONS", "EXIT STATUS",
            "FILES", "ENVIRONMENT", "SEE ALSO"]


def commands():
    out = run_heed("--help", check=0).stdout
    block = out.split("Commands:\n", 1)[1].split("\n\n", 1)[0]
    return [line.split()[0] for line in block.splitlines() if line.strip()]


def page_path(cmd):
    return os.path.join(BUILD, "man", f"heed-{cmd}.1" if cmd else "heed.1")


def page_text(cmd):
    with open(page_path(cmd), encoding="utf-8") as f:
        return f.read()


def every_command_has_a_page():
    cmds = commands()
    assert len(cmds) >= 13, cmds
    for cmd in [None] + cmds:
        text = page_text(cmd)
        args = ["help", "--man"] + ([cmd] if cmd else [])
        assert run_heed(*args, check=0).stdout == text, cmd
        heads = re.findall(r"^\.SH (.+)$", text, re.M)
        # heed(1) lists the commands too.
        want = SECTIONS if cmd else SECTIONS[:3] + ["COMMANDS"] + SECTIONS[3:]
        assert heads == want, (cmd, heads)
        name = f"heed\\-{cmd}" if cmd else "heed"
        assert re.search(rf"^\.SH NAME\n{re.escape(name)} \\- \S",
                         text, re.M), (cmd, text[:200])
        if cmd:
            assert f"\\fBheed\\fR {cmd}" in text, cmd  # its synopsis
            assert f"\\fBheed\\-{cmd}\\fR(1)" in page_text(None), cmd
    # A stray page (a command that went away) would be installed too.
    made = sorted(f for f in os.listdir(os.path.join(BUILD, "man"))
                  if f.endswith(".1"))
    assert made == sorted(["heed.1"] + [f"heed-{c}.1" for c in cmds]), made


def pages_render_without_warnings():
    env = dict(os.environ, MANWIDTH="80", LANG="C.UTF-8", MAN_KEEP_FORMATTING="")
    for cmd in [None] + commands():
        p = subprocess.run(["groff", "-man", "-Tutf8", "-ww", "-z",
                            page_path(cmd)], capture_output=True, text=True)
        assert p.returncode == 0 and p.stderr == "", (cmd, p.stderr)
        if shutil.which("man"):
            p = subprocess.run(["man", "--warnings", "-l", page_path(cmd)],
                               capture_output=True, text=True, env=env)
            assert p.returncode == 0 and p.stderr == "", (cmd, p.stderr)
            assert "OPTIONS" in p.stdout and "EXIT STATUS" in p.stdout


def shared_long_options():
    """{macro: [long option names]} of cli_config.h's shared tables."""
    text = open(os.path.join(SOURCE, "src/cli/cli_config.h")).read()
    out = {}
    for macro in ("HEED_CLI_CONFIG_LONGOPTS", "HEED_CLI_PROXY_LONGOPT"):
        body = text.split(f"#define {macro}", 1)[1].split("\n\n", 1)[0]
        out[macro] = re.findall(r'"([a-z][a-z-]*)",\s*\w+_argument', body)
    return out


def accepted(cmd):
    """(long names, short letters) the command's source hands getopt."""
    shared = shared_long_options()
    files = [f for f in os.listdir(os.path.join(SOURCE, "src/cli"))
             if f == f"cmd_{cmd}.c" or f.startswith(f"cmd_{cmd}_")]
    longs, shorts = set(), set()
    for f in files:
        text = open(os.path.join(SOURCE, "src/cli", f)).read()
        longs.update(re.findall(r'\{\s*"([a-z][a-z-]*)",\s*\w+_argument',
                                text))
        for macro, names in shared.items():
            if re.search(rf"\b{macro}\b", text):
                longs.update(names)
        for s in re.findall(r'getopt_long\(\s*\w+,\s*\w+,\s*"([^"]*)"',
                            text):
            shorts.update(c for c in s if c.isalnum())
    return longs, shorts


def page_options(cmd):
    """(long names, short letters) of the page's OPTIONS section."""
    text = page_text(cmd).split(".SH OPTIONS\n", 1)[1].split("\n.SH ", 1)[0]
    terms = re.findall(r"^\.TP\n(.*)$", text, re.M)
    longs, shorts = set(), set()
    for t in terms:
        longs.update(n.replace("\\-", "-") for n in
                     re.findall(r"\\fB\\-\\-((?:[a-z]|\\-)+)\\fR", t))
        shorts.update(re.findall(r"\\fB\\-([a-zA-Z0-9])\\fR", t))
    return longs, shorts


def page_options_equal_accepted_options():
    wrong = []
    for cmd in commands():
        (pl, ps), (al, as_) = page_options(cmd), accepted(cmd)
        # No table (heed version): then no option in the page either.
        assert al or not (pl or ps), (cmd, "no getopt table found")
        if pl != al or ps != as_:
            wrong.append((cmd, "page only:", sorted(pl - al), sorted(ps - as_),
                          "accepted only:", sorted(al - pl),
                          sorted(as_ - ps)))
    assert not wrong, wrong
    # heed(1)'s own: --help, --version.
    assert page_options(None) == ({"help", "version"}, {"h", "V"})


def getopt_takes_every_option_of_the_pages():
    """Each long option, given to the command with --help after it, is
    recognised (getopt says nothing of it) by the command or one of its
    subcommands. (getopt_long also takes a unique prefix of a longer
    option: the comparison with the tables above is the exact one.)"""
    subs = {"robots": ["check", "explain", "lint"],
            "irc": ["crawl", "check", "list", "reset"],
            "site": ["qualify", "report", "reset"]}
    bad = ("unrecognized option", "invalid option", "requires an argument",
           "doesn't allow")
    tmp = tempfile.mkdtemp(prefix="heed-man-")
    for cmd in commands():
        text = page_text(cmd).split(".SH OPTIONS\n", 1)[1]
        text = text.split("\n.SH ", 1)[0]
        for term in re.findall(r"^\.TP\n(.*)$", text, re.M):
            names = re.findall(r"\\fB\\-\\-((?:[a-z]|\\-)+)\\fR", term)
            if not names:
                continue
            opt = "--" + names[-1].replace("\\-", "-")
            arg = ["X"] if "\\fI" in term else []
            errors = []
            for sub in subs.get(cmd, [None]):
                argv = [cmd] + ([sub] if sub else []) + [opt] + arg + [
                    "--help"]
                p = subprocess.run([os.environ["HEED"], *argv], cwd=tmp,
                                   capture_output=True, text=True,
                                   timeout=30, stdin=subprocess.DEVNULL)
                errors.append((argv, p.stderr))
                if not any(b in p.stderr for b in bad):
                    break
            else:
                raise AssertionError(errors)
    shutil.rmtree(tmp, ignore_errors=True)


def meson_install_puts_the_pages_in_man1():
    meson = shutil.which("meson")
    if not meson:
        print("  (no meson on PATH: install not checked)")
        return
    dest = tempfile.mkdtemp(prefix="heed-man-install-")
    p = subprocess.run([meson, "install", "-C", BUILD, "--no-rebuild",
                        "--tags", "man", "--destdir", dest],
                       capture_output=True, text=True, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    found = []
    for root, _, files in os.walk(dest):
        if root.endswith(os.path.join("man", "man1")):
            found += files
    shutil.rmtree(dest, ignore_errors=True)
    assert sorted(found) == sorted(
        ["heed.1"] + [f"heed-{c}.1" for c in commands()]), found


Checks().main([every_command_has_a_page, pages_render_without_warnings,
               page_options_equal_accepted_options,
               getopt_takes_every_option_of_the_pages,
               meson_install_puts_the_pages_in_man1])
