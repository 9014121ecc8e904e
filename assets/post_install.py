#!/usr/bin/env python3
"""After `meson install` (not into a DESTDIR: packagers' triggers do this):
refreshes the MIME database, the desktop database and the icon cache under
DATADIR, so that the menu entry, the icon and the trace file type take effect
at once. Each tool is optional; a missing one is named, never an error."""
import os
import shutil
import subprocess
import sys

datadir = sys.argv[1]
steps = [
    ('update-mime-database', [os.path.join(datadir, 'mime')]),
    ('update-desktop-database', ['-q', os.path.join(datadir, 'applications')]),
    ('gtk-update-icon-cache', ['-q', '-t', '-f', os.path.join(datadir, 'icons', 'hicolor')]),
]
for tool, args in steps:
    if not shutil.which(tool):
        print(f'scanviz: {tool} not found; run it yourself if the desktop needs it')
        continue
    if subprocess.call([tool] + args) != 0:
        print(f'scanviz: {tool} {" ".join(args)} failed (the files are installed)')
