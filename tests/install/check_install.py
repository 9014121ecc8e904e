#!/usr/bin/env python3
"""The "install" test: `meson install` into a DESTDIR, then checks what a user
of the installed tree gets, from a folder outside the source and build trees:

  1. every file is where the desktop, man and bash-completion look, and the
     example presenter script (share/scanviz/scripts/chapter-story.txt), which
     the installed scanviz runs, and the students' starting kernel file, the
     chapter's (share/scanviz/kernels/hillis_steele.cu, also as starter.cu),
     which the installed scanviz-trace
     --kernel-file runs, and the exercises, each folder whole (its start.cu
     and solution.cu the files the build wrote from their diffs);
  2. the installed binaries run (nothing from the build or source tree: no
     RPATH/RUNPATH into them, no project shared library) and round-trip a
     trace file;
  3. the desktop entry passes desktop-file-validate, and its Exec line, run as
     a file manager would with a trace file (and as the menu would, without),
     shows that trace (no display: scanviz renders the rounds, says so, exit 0);
  4. the MIME type: update-mime-database and update-desktop-database accept
     it, *.scanviz.json and a plain .json trace are application/x-scanviz-trace
     and open with scanviz.desktop (gio, when installed);
  5. the metainfo passes `appstreamcli validate --no-net --pedantic` and its
     newest release is the project's version;
  6. every man page renders with `man -l` without a warning, and the flags at
     the heads of its OPTIONS entries equal the flags the program's --help
     lists (both ways: see help_flags and man_flags for what counts), each
     naming the same value (help_args, man_args). Both come from the option
     table (src/core/options.def): this checks the generation end to end;
  7. bash completion: bash-completion loads it from the installed folder, Tab
     after `scanviz --op ` offers the operators, Tab after `PROG -` offers
     exactly the flags of PROG --help, and each list of values equals the
     values PROG names when given a bad one.

A missing tool skips only the checks that need it, and names it; the test
then exits 77 unless something failed (CI installs every tool:
.ci/install-deps). Any failure exits 1."""
import argparse
import os
import re
import shlex
import shutil
import struct
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

failures = []
skipped = []


def fail(msg):
    failures.append(msg)
    print('FAIL:', msg, flush=True)


def ok(msg):
    print('ok:', msg, flush=True)


def skip(msg):
    skipped.append(msg)
    print('SKIP:', msg, flush=True)


def check(cond, msg):
    (ok if cond else fail)(msg)
    return cond


def run(cmd, **kw):
    kw.setdefault('capture_output', True)
    kw.setdefault('text', True)
    kw.setdefault('timeout', 180)
    return subprocess.run(cmd, **kw)


def have(tool):
    if shutil.which(tool):
        return True
    skip(f'{tool} is not installed: its checks are left out (.ci/install-deps installs it)')
    return False


# ---- Flags -------------------------------------------------------------------

# A flag: "-x" or "--name", not inside a word ("no-barrier", "2^-3").
FLAG = re.compile(r'(?<![\w-])(--?[A-Za-z0-9][A-Za-z0-9-]*)')


def help_flags(text):
    """The flags --help lists: on each line whose first non-blank character is
    '-', the flags in its head (the text before the first run of two or more
    spaces), e.g. "  -h, --help", "  --random N [--seed S] N random values",
    "  --exclusive, --inclusive   the scan". A lone "-" (stdin) is no flag."""
    flags = set()
    for line in text.splitlines():
        s = line.lstrip()
        if s.startswith('-'):
            flags |= set(FLAG.findall(re.split(r'\s{2,}', s, maxsplit=1)[0]))
    return flags


def head_args(head, args):
    """Adds the flags of one option's head ("-o, --output FILE") to args,
    each with the value words the head gives it ("FILE"; "" for none)."""
    words = head.replace(',', ' ').split()
    value = ' '.join(w for w in words if not FLAG.fullmatch(w) and w != '-')
    for f in FLAG.findall(head):
        args[f] = value


def help_args(text):
    """The value each flag of --help takes, from its head: {"--runs": "R",
    "--verify": ""}; "-o, --output FILE" gives both "-o" and "--output" FILE."""
    args = {}
    for line in text.splitlines():
        s = line.lstrip()
        if s.startswith('-'):
            head_args(re.split(r'\s{2,}', s, maxsplit=1)[0], args)
    return args


def man_args(text):
    """The same from the heads of a rendered man page's OPTIONS entries."""
    args = {}
    in_options = False
    for line in text.splitlines():
        if re.match(r'^[A-Z]', line):
            in_options = line.strip() == 'OPTIONS'
        elif in_options and re.match(r'^ {7}-', line):
            head_args(line, args)
    return args


def man_flags(text):
    """The flags at the heads of the OPTIONS entries of a rendered man page:
    in the section from "OPTIONS" to the next heading, the lines indented by
    exactly 7 spaces that start with '-' (scdoc renders "*--op* _NAME_" and
    its tab-indented paragraph as "       --op NAME" and 11-space lines).
    Flags mentioned in paragraphs or other sections do not count."""
    flags = set()
    in_options = False
    for line in text.splitlines():
        if re.match(r'^[A-Z]', line):
            in_options = line.strip() == 'OPTIONS'
        elif in_options and re.match(r'^ {7}-', line):
            flags |= set(FLAG.findall(line))
    return flags


STOPWORDS = {'expected', 'not', 'or', 'and', 'argument', 'unknown', 'algorithm', 'one',
             'of', 'a', 'an', 'the', 'is', 'item', 'value', 'values', 'try', 'help', 'must',
             'be', 'name', 'use', 'valid', 'choose', 'from', 'zzzbogus'}


def named_values(prog_name, flag, stderr, given='zzzbogus'):
    """The values a program names when a flag gets a bad value, from the first
    line of its message: "scanviz-trace: --op "zzzbogus" (argument 2): expected
    sum, max, min, product or xor" gives {sum, max, min, product, xor}."""
    line = stderr.strip().splitlines()[0] if stderr.strip() else ''
    line = line.replace(prog_name + ':', ' ').replace(flag, ' ')
    line = line.replace(f'"{given}"', ' ').replace(f"'{given}'", ' ')  # the value, quoted
    words = {w.strip('-') for w in re.findall(r'[A-Za-z0-9][A-Za-z0-9-]*', line)}
    return {w for w in words if w and not w.isdigit() and w.lower() not in STOPWORDS}


# ---- Helpers -----------------------------------------------------------------

def png_size(path):
    with open(path, 'rb') as f:
        head = f.read(24)
    if head[:8] != b'\x89PNG\r\n\x1a\n':
        return None
    return struct.unpack('>II', head[16:24])


def under(path, root):
    path, root = os.path.realpath(path), os.path.realpath(root)
    return path == root or path.startswith(root + os.sep)


def main():
    ap = argparse.ArgumentParser()
    for a in ('meson', 'build-dir', 'prefix', 'bindir', 'datadir', 'mandir', 'completion-dir',
              'version', 'app-id', 'programs', 'man-pages'):
        ap.add_argument('--' + a, required=True)
    o = ap.parse_args()
    programs = [p for p in o.programs.split(',') if p]
    man_pages = [p for p in o.man_pages.split(',') if p]
    source_dir = os.path.realpath(os.path.join(os.path.dirname(__file__), '..', '..'))
    build_dir = os.path.realpath(o.build_dir)

    if not o.meson:
        skip('meson is not on PATH: cannot run meson install')
        return 77
    tmp = tempfile.mkdtemp(prefix='scanviz-install-')
    try:
        return check_all(o, programs, man_pages, source_dir, build_dir, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


EXERCISE_FILES = ('statement.txt', 'check.txt', 'hint-1.txt', 'hint-2.txt', 'hint-3.txt',
                  'start.cu', 'solution.cu')


def check_exercises(installed, built, trace, env, work):
    """Every exercise of the installed sequence is a whole folder: its texts,
    and start.cu and solution.cu as the build wrote them from their diffs
    (none of the sources the build reads: no .diff, no meson.build); the
    installed scanviz-trace finds them and passes an installed solution."""
    names = []
    if os.path.isfile(os.path.join(installed, 'sequence')):
        for line in open(os.path.join(installed, 'sequence'), encoding='utf-8'):
            name = line.split('#')[0].strip()
            if name:
                names.append(name)
    if not check(len(names) >= 8, f'{len(names)} exercises installed in {installed}'):
        return
    bad = []
    for name in names:
        got = sorted(os.listdir(os.path.join(installed, name)))
        if got != sorted(EXERCISE_FILES):
            bad.append(f'{name}: {got}')
        for f in ('start.cu', 'solution.cu'):
            a, b = os.path.join(installed, name, f), os.path.join(built, name, f)
            if not (os.path.isfile(a) and os.path.isfile(b) and
                    open(a, 'rb').read() == open(b, 'rb').read()):
                bad.append(f'{name}/{f} is not the built file')
    check(not bad, 'every installed exercise folder is whole' + (f': {bad}' if bad else ''))
    if not (have('c++') or have('g++') or have('clang++')):
        return skip('no C++ compiler: the installed solution is not run')
    env = dict(env, SCANVIZ_EXERCISES=installed)
    r = run([trace, '--exercise', 'barrier', '--kernel-file',
             os.path.join(installed, 'barrier', 'solution.cu')], cwd=work, env=env)
    check(r.returncode == 0 and 'passed' in r.stdout,
          f'scanviz-trace --exercise barrier passes the installed solution: exit '
          f'{r.returncode} {r.stdout.strip()[-200:]} {r.stderr.strip()[-200:]}')


def check_all(o, programs, man_pages, source_dir, build_dir, tmp):
    dest = os.path.join(tmp, 'dest')
    r = run([o.meson, 'install', '-C', build_dir, '--no-rebuild', '--destdir', dest],
            timeout=300)
    if not check(r.returncode == 0, f'meson install --destdir {dest}'):
        print(r.stdout[-4000:], r.stderr[-4000:])
        return 1
    root = dest + os.path.abspath(o.prefix)

    def at(p):  # a meson install dir (relative to the prefix, or absolute) in DESTDIR
        return dest + (p if os.path.isabs(p) else os.path.join(os.path.abspath(o.prefix), p))

    bindir, datadir, mandir = at(o.bindir), at(o.datadir), at(o.mandir)
    completion_dir = at(o.completion_dir)
    print('installed:')
    for d, _, files in sorted(os.walk(dest)):
        for f in sorted(files):
            print('  ', os.path.relpath(os.path.join(d, f), dest))

    # 1. Every file where the desktop, man and bash-completion look.
    gui = 'scanviz' in programs
    want = [os.path.join(bindir, p) for p in programs]
    want += [os.path.join(completion_dir, p) for p in programs]
    want += [os.path.join(mandir, 'man1', p) for p in man_pages]
    doc = os.path.join(datadir, 'doc', 'scanviz')
    want += [os.path.join(doc, f) for f in ('README.md', 'LICENSE', 'user-guide.md',
                                            'trace-format.md', 'architecture.md',
                                            'performance.md', 'timeline-format.md',
                                            'images/guide-round-03.png',
                                            'images/guide-lookback-h200.png')]
    desktop = os.path.join(datadir, 'applications', 'scanviz.desktop')
    icon = os.path.join(datadir, 'icons', 'hicolor', 'scalable', 'apps', 'scanviz.svg')
    metainfo = os.path.join(datadir, 'metainfo', o.app_id + '.metainfo.xml')
    mime_xml = os.path.join(datadir, 'mime', 'packages', o.app_id + '.xml')
    story = os.path.join(datadir, 'scanviz', 'scripts', 'chapter-story.txt')
    starter = os.path.join(datadir, 'scanviz', 'kernels', 'hillis_steele.cu')
    want += [starter, os.path.join(datadir, 'scanviz', 'kernels', 'starter.cu')]
    h200_timeline = os.path.join(datadir, 'scanviz', 'bench', 'h200-timeline.json')
    want += [h200_timeline]
    if gui:
        want += [desktop, icon, metainfo, mime_xml, story,
                 os.path.join(datadir, 'scanviz', 'scripts', 'shuffle-scan.txt'),
                 os.path.join(datadir, 'scanviz', 'scripts', 'shuffle-scan.cu')]
    missing = [os.path.relpath(p, dest) for p in want if not os.path.isfile(p)]
    check(not missing, f'{len(want)} files installed' + (f'; missing: {missing}' if missing else ''))
    if not man_pages:
        skip('no man pages were built (scdoc not found at meson setup)')

    # 2. The installed binaries, from a folder outside both trees.
    work = os.path.join(tmp, 'work')
    os.makedirs(work)
    env = dict(os.environ)
    env['PATH'] = bindir + os.pathsep + env.get('PATH', '')
    env.pop('LD_LIBRARY_PATH', None)
    env['NO_COLOR'] = '1'
    exe = {p: os.path.join(bindir, p) for p in programs}
    if have('readelf'):
        for p, path in exe.items():
            d = run(['readelf', '-d', path]).stdout
            paths = re.findall(r'\((?:RPATH|RUNPATH)\)\s+Library (?:rpath|runpath): \[(.*)\]', d)
            bad = [x for x in ':'.join(paths).split(':') if x and
                   (under(x, build_dir) or under(x, source_dir))]
            libs = re.findall(r'\(NEEDED\)\s+Shared library: \[(.*)\]', d)
            own = [x for x in libs if x.startswith('libsv') or 'scanviz' in x]
            check(not bad and not own,
                  f'{p}: no RPATH into the build/source tree, no project library '
                  f'(needs {", ".join(libs)})')
    helps = {}
    for p, path in exe.items():
        r = run([path, '--version'], cwd=work, env=env)
        check(r.returncode == 0 and o.version in r.stdout,
              f'{p} --version from {work}: {r.stdout.strip()!r}')
        r = run([path, '--help'], cwd=work, env=env)
        check(r.returncode == 0 and r.stdout, f'{p} --help')
        helps[p] = r.stdout
    trace = os.path.join(work, 'max.scanviz.json')
    r = run([exe['scanviz-trace'], '--input', '5 2 8 1 9', '--op', 'max', '--backend', 'cpu',
             '--format', 'json', '-o', trace], cwd=work, env=env)
    check(r.returncode == 0 and os.path.isfile(trace), 'scanviz-trace writes a trace file')
    r = run([exe['scanviz-trace'], '--open', trace, '--verify'], cwd=work, env=env)
    check(r.returncode == 0 and 'verify: OK' in r.stdout,
          'scanviz-trace --open --verify reads it back: ' + r.stdout.strip().splitlines()[-1]
          if r.stdout.strip() else 'scanviz-trace --open --verify printed nothing')

    # The students' starting file runs, from outside both trees, on the CPU
    # runtime (the C++ compiler is a run-time need: skipped without one).
    if os.path.isfile(starter) and (have('c++') or have('g++') or have('clang++')):
        mine = os.path.join(work, 'my_scan.cu')
        shutil.copyfile(starter, mine)
        r = run([exe['scanviz-trace'], '--kernel-file', mine, '--backend', 'cpu'], cwd=work,
                env=env)
        same = open(starter, 'rb').read() == open(os.path.join(source_dir, 'kernels',
                                                               'hillis_steele.cu'), 'rb').read()
        check(same, 'the installed starting file is kernels/hillis_steele.cu byte for byte')
        check(r.returncode == 0 and 'output: right' in r.stdout,
              f'scanviz-trace --kernel-file the installed hillis_steele.cu: exit {r.returncode} '
              f'{r.stderr.strip()[-300:]}')

    check_exercises(os.path.join(datadir, 'scanviz', 'exercises'),
                    os.path.join(build_dir, 'assets', 'exercises'), exe['scanviz-trace'], env, work)

    # 3. The desktop entry: valid, and its Exec line opens a trace.
    if gui:
        if have('desktop-file-validate'):
            r = run(['desktop-file-validate', desktop])
            check(r.returncode == 0 and not r.stdout.strip() and not r.stderr.strip(),
                  'desktop-file-validate scanviz.desktop' + (': ' + r.stdout + r.stderr
                                                             if r.returncode or r.stdout else ''))
        entry = {}
        for line in open(desktop, encoding='utf-8'):
            if '=' in line and not line.startswith('#'):
                k, v = line.rstrip('\n').split('=', 1)
                entry[k] = v
        check(entry.get('Icon') == 'scanviz' and os.path.isfile(icon),
              'Icon=scanviz is the installed hicolor icon')
        try:
            svg = ET.parse(icon).getroot()
            check(svg.tag.endswith('svg'), 'the icon is well-formed SVG')
        except ET.ParseError as e:
            fail(f'the icon is not well-formed XML: {e}')
        check('application/x-scanviz-trace' in entry.get('MimeType', '').split(';'),
              'MimeType= has application/x-scanviz-trace')
        argv = shlex.split(entry.get('Exec', ''))
        check(argv[:1] == ['scanviz'] and '%f' in argv, f'Exec={entry.get("Exec")}')
        noenv = {k: v for k, v in env.items() if k not in ('DISPLAY', 'WAYLAND_DISPLAY')}
        for label, files, expect in (('a file manager opening max.scanviz.json', [trace],
                                      'n = 5 · max'),
                                     ('the menu (no file)', [], 'n = 8 · sum')):
            cmd = [exe['scanviz'] if a == 'scanviz' else a for a in argv]
            cmd = [x for a in cmd for x in (files if a == '%f' else [a])]
            folder = os.path.join(tmp, 'exec-' + str(len(files)))
            os.makedirs(folder)
            r = run(cmd, cwd=folder, env=noenv)
            pngs = sorted(os.listdir(os.path.join(folder, 'scanviz-rounds'))) \
                if os.path.isdir(os.path.join(folder, 'scanviz-rounds')) else []
            size = png_size(os.path.join(folder, 'scanviz-rounds', pngs[0])) if pngs else None
            check(r.returncode == 0 and expect in r.stdout and len(pngs) == 4 and
                  size == (1280, 720),
                  f'the Exec line as {label}, without a display: exit {r.returncode}, '
                  f'"{expect}" in the trace it prints, {len(pngs)} rounds rendered at {size}')
            if r.returncode:
                print(r.stderr[-2000:])

        # The installed example script runs as the guide says (here without
        # a display: the rounds are exported, the script checked first).
        if os.path.isfile(story):
            folder = os.path.join(tmp, 'story')
            r = run([exe['scanviz'], '--backend', 'cpu', '--script', story, '--export', folder],
                    cwd=work, env=noenv)
            check(r.returncode == 0 and os.path.isdir(folder),
                  f'scanviz --script {os.path.relpath(story, dest)} --export: exit {r.returncode}'
                  + (': ' + r.stderr.strip()[-300:] if r.returncode else ''))

        # The shipped H200 look-back timeline opens in the Measure view
        # (exported here: no display), as the user guide says.
        if os.path.isfile(h200_timeline):
            png = os.path.join(tmp, 'lookback.png')
            r = run([exe['scanviz'], '--timeline', h200_timeline, '--export-plot', png],
                    cwd=work, env=noenv)
            check(r.returncode == 0 and png_size(png) == (1280, 720),
                  f'scanviz --timeline {os.path.relpath(h200_timeline, dest)} --export-plot: '
                  f'exit {r.returncode}' + (': ' + r.stderr.strip()[-300:] if r.returncode else ''))

    # 4. The MIME type, registered as the desktop would.
    if gui and have('update-mime-database') and have('update-desktop-database'):
        xdg = os.path.join(tmp, 'xdg')
        os.makedirs(os.path.join(xdg, 'mime', 'packages'))
        shutil.copytree(os.path.join(datadir, 'applications'), os.path.join(xdg, 'applications'))
        shutil.copy(mime_xml, os.path.join(xdg, 'mime', 'packages'))
        xdg_env = dict(env, XDG_DATA_DIRS=xdg + ':/usr/share')  # else it notes that on stderr
        r = run(['update-mime-database', os.path.join(xdg, 'mime')], env=xdg_env)
        check(r.returncode == 0 and not r.stderr.strip(),
              'update-mime-database accepts the MIME XML' + (': ' + r.stderr if r.stderr else ''))
        globs = open(os.path.join(xdg, 'mime', 'globs2'), encoding='utf-8').read()
        check(':application/x-scanviz-trace:*.scanviz.json' in globs,
              'globs2: *.scanviz.json is application/x-scanviz-trace')
        r = run(['update-desktop-database', os.path.join(xdg, 'applications')], env=xdg_env)
        cache = os.path.join(xdg, 'applications', 'mimeinfo.cache')
        text = open(cache, encoding='utf-8').read() if os.path.isfile(cache) else ''
        check(r.returncode == 0 and 'application/x-scanviz-trace=scanviz.desktop' in text,
              'mimeinfo.cache: application/x-scanviz-trace=scanviz.desktop')
        if have('gio'):
            genv = dict(env, XDG_DATA_DIRS=xdg + ':/usr/share',
                        XDG_DATA_HOME=os.path.join(tmp, 'home-data'),
                        XDG_CONFIG_HOME=os.path.join(tmp, 'home-config'))
            # A file with no known suffix is recognised by its content (the
            # "format" tag). A plain .json trace stays application/json: GIO
            # (xdgmime) trusts a single glob match and does not sniff.
            plain = os.path.join(work, 'trace-without-suffix')
            shutil.copy(trace, plain)
            other = os.path.join(work, 'other.json')
            with open(other, 'w') as f:
                f.write('{"format": "something else"}\n')
            for path, want_type in ((trace, 'application/x-scanviz-trace'),
                                    (plain, 'application/x-scanviz-trace'),
                                    (other, 'application/json')):
                r = run(['gio', 'info', '-a', 'standard::content-type', path], env=genv)
                got = re.search(r'standard::content-type: (\S+)', r.stdout)
                got = got.group(1) if got else r.stderr.strip()
                check(got == want_type, f'gio: {os.path.basename(path)} is {got}')
            r = run(['gio', 'mime', 'application/x-scanviz-trace'], env=genv)
            check('scanviz.desktop' in r.stdout.splitlines()[0] if r.stdout else False,
                  'gio mime: ' + (r.stdout.splitlines()[0] if r.stdout else r.stderr.strip()))

    # 5. AppStream.
    if gui and have('appstreamcli'):
        r = run(['appstreamcli', 'validate', '--no-net', '--pedantic', metainfo])
        check(r.returncode == 0 and 'pedantic' not in r.stdout.split('successful')[-1],
              'appstreamcli validate --no-net --pedantic: ' + r.stdout.strip().splitlines()[-1]
              if r.stdout.strip() else r.stderr)
        if r.returncode:
            print(r.stdout)
        r = run(['appstreamcli', 'validate-tree', '--no-net', root])
        check(r.returncode == 0, 'appstreamcli validate-tree --no-net (metainfo, desktop entry '
              'and icon together): ' + (r.stdout.strip().splitlines() or [''])[-1])
        comp = ET.parse(metainfo).getroot()
        releases = comp.findall('./releases/release')
        newest = max(releases, key=lambda e: e.get('date', '')) if releases else None
        check(newest is not None and newest.get('version') == o.version and
              newest.find('description') is not None,
              f'the newest release in the metainfo is {o.version}, with notes')
        check(comp.findtext('launchable') == 'scanviz.desktop' and
              comp.findtext('icon') == 'scanviz', 'metainfo names the desktop entry and icon')

    # 6. Man pages: they render, and their OPTIONS match --help.
    if man_pages and have('man'):
        menv = dict(env, MANWIDTH='80', LC_ALL='C.UTF-8', MANPAGER='cat', PAGER='cat')
        for page in man_pages:
            prog = page.rsplit('.', 1)[0]
            path = os.path.join(mandir, 'man1', page)
            r = run(['man', '--warnings', '-l', path], env=menv, cwd=work)
            text = re.sub(r'.\x08', '', r.stdout)
            check(r.returncode == 0 and not r.stderr.strip() and
                  re.search(r'^NAME\n\s+' + re.escape(prog) + ' - ', text, re.M) is not None,
                  f'man -l {page} renders without warnings' +
                  (': ' + r.stderr.strip() if r.stderr.strip() else ''))
            if prog not in helps:
                skip(f'{prog} was not built: its man page is not compared with --help')
                continue
            h, m = help_flags(helps[prog]), man_flags(text)
            check(h and h == m,
                  f'{page}: the OPTIONS flags equal {prog} --help\'s ({len(h)})' +
                  (f'; in --help, not in the man page: {sorted(h - m)}' if h - m else '') +
                  (f'; in the man page, not in --help: {sorted(m - h)}' if m - h else ''))
            ha, ma = help_args(helps[prog]), man_args(text)
            differ = sorted(f for f in set(ha) | set(ma) if ha.get(f) != ma.get(f))
            check(h == m and not differ,
                  f'{page}: each flag names the same value as in --help' +
                  ''.join(f'; {f}: --help "{ha.get(f)}", man "{ma.get(f)}"' for f in differ))

    # 7. bash completion, loaded the way bash-completion loads it.
    bc = '/usr/share/bash-completion/bash_completion'
    if not os.path.isfile(bc):
        skip(f'{bc} is missing (Debian package bash-completion): completion not checked')
    elif have('bash'):
        share = os.path.dirname(os.path.dirname(completion_dir.rstrip('/')))
        on_path = completion_dir.rstrip('/').endswith('/bash-completion/completions')
        script = r'''
set +e
source "$BC"
prog=$1 line=$2
if [ "$ON_PATH" = 1 ]; then __load_completion "$prog" || echo "NOT LOADED"; else source "$DIR/$prog"; fi
spec=$(complete -p "$prog" 2>/dev/null) || { echo "NO COMPSPEC"; exit 0; }
fn=$(sed -n 's/.* -F \([^ ]*\) .*/\1/p' <<<"$spec")
read -ra COMP_WORDS <<<"$line"
[[ $line == *" " ]] && COMP_WORDS+=("")
COMP_CWORD=$(( ${#COMP_WORDS[@]} - 1 ))
COMP_LINE=$line COMP_POINT=${#line}
"$fn" "$prog" "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
printf 'COMPREPLY %s\n' "${COMPREPLY[@]}"
for f in $FLAGS; do v=$(_scanviz_values "$f") && echo "VALUES $f $v"; done
'''
        benv = dict(env, BC=bc, DIR=completion_dir, ON_PATH='1' if on_path else '0',
                    XDG_DATA_DIRS=share + ':/usr/share')
        r = run(['bash', '-n', os.path.join(completion_dir, programs[0])])
        check(r.returncode == 0, 'the completion script parses (bash -n)')

        def complete(prog, line, flags=''):
            r = run(['bash', '-c', script, 'bash', prog, line], env=dict(benv, FLAGS=flags),
                    cwd=work)
            out = r.stdout.splitlines()
            if 'NOT LOADED' in out or 'NO COMPSPEC' in out:
                fail(f'bash-completion did not load a completion for {prog} from '
                     f'{completion_dir}: {r.stdout.strip()} {r.stderr.strip()}')
                return None, {}
            reply = {x.split(' ', 1)[1] for x in out if x.startswith('COMPREPLY ')}
            values = {x.split()[1]: set(x.split()[2:]) for x in out if x.startswith('VALUES ')}
            return reply, values

        reply, _ = complete('scanviz' if gui else 'scanviz-trace',
                            ('scanviz' if gui else 'scanviz-trace') + ' --op ')
        check(reply == {'sum', 'max', 'min', 'product', 'xor'},
              f'Tab after "scanviz --op " offers {sorted(reply or [])}')
        for prog in programs:
            h = help_flags(helps[prog])
            reply, values = complete(prog, prog + ' -', ' '.join(sorted(h)))
            if reply is None:
                continue
            check(reply == h, f'Tab after "{prog} -" offers the {len(h)} flags of --help' +
                  (f'; missing: {sorted(h - reply)}' if h - reply else '') +
                  (f'; not in --help: {sorted(reply - h)}' if reply - h else ''))
            for flag, vals in sorted(values.items()):
                r = run([exe[prog], flag, 'zzzbogus'], cwd=work, env=env)
                named = named_values(prog, flag, r.stderr)
                check(r.returncode == 2 and named == vals,
                      f'{prog} {flag}: completion offers {sorted(vals)}, the program '
                      f'names {sorted(named)} for a bad value (exit {r.returncode})')
                if prog == 'scanviz-trace':  # cheap: no value gets the bad-value message
                    bad = []
                    for v in sorted(vals):
                        r = run([exe[prog], flag, v, '--input', '1 2 3'] +
                                (['--backend', 'cpu'] if flag != '--backend' else []),
                                cwd=work, env=env)
                        if r.returncode == 2 and named_values(prog, flag, r.stderr, v) == vals:
                            bad.append(v)
                    check(not bad, f'scanviz-trace {flag} accepts each value' +
                          (f'; refused: {bad}' if bad else ''))

    print(f'{len(failures)} failed, {len(skipped)} skipped checks')
    if failures:
        return 1
    return 77 if skipped else 0


if __name__ == '__main__':
    sys.exit(main())
