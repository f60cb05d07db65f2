"""The extension bouton._bouton for pip (pyproject.toml holds the rest).

It needs libbouton installed (`make install`): pkg-config bouton gives its
headers and libraries.  libbouton.a is linked when it is there (the
library is position-independent), so the package needs nothing at run
time; otherwise -lbouton."""
import os
import shlex
import subprocess

from setuptools import Extension, setup


def pkg_config(*args):
    try:
        out = subprocess.run(["pkg-config", *args, "bouton"], check=True,
                             capture_output=True, text=True).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        raise SystemExit(
            "bouton's Python package needs libbouton installed "
            "(make install; PKG_CONFIG_PATH naming its lib/pkgconfig): "
            "pkg-config bouton failed: %s" % e)
    return shlex.split(out)


cflags = pkg_config("--cflags")
libdir = pkg_config("--variable=libdir")[0]
static = os.path.join(libdir, "libbouton.a")
if os.path.exists(static):
    libs = [f for f in pkg_config("--static", "--libs") if f != "-lbouton"]
    objects = [static]
else:
    libs = pkg_config("--libs")
    objects = []

setup(ext_modules=[Extension(
    "bouton._bouton", ["_bouton.c"],
    include_dirs=[f[2:] for f in cflags if f.startswith("-I")],
    extra_compile_args=[f for f in cflags if not f.startswith("-I")],
    extra_objects=objects,
    library_dirs=[f[2:] for f in libs if f.startswith("-L")],
    libraries=[f[2:] for f in libs if f.startswith("-l")],
    extra_link_args=[f for f in libs if not f.startswith(("-L", "-l"))],
)])
