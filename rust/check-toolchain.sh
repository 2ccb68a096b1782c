# The README's first command runs this before `pip install .`: it says, before pip starts, how
# the engine will be compiled and about how long it takes. maturin, the build backend, looks
# for `cargo` on PATH and, without one, downloads a minimal Rust toolchain (maturin/__init__.py:
# puccinialin's setup_rust) unless MATURIN_NO_INSTALL_RUST is set. POSIX sh: builtins only.
if command -v cargo >/dev/null 2>&1; then
    echo "irscale: compiling the engine with $(cargo --version 2>&1) (rustc 1.85 or later and a"
    echo "  C linker needed): about 2.5 minutes of CPU time, 5 minutes on a 2-core machine shared"
    echo "  with other work (less on idle cores), with nothing on screen but pip's \"still"
    echo "  running...\"; pip install -v . shows cargo's progress, one line per crate compiled"
elif [ -n "${MATURIN_NO_INSTALL_RUST:-}" ]; then
    echo "irscale: no cargo on PATH and MATURIN_NO_INSTALL_RUST is set, so nothing can compile the" >&2
    echo "  engine: install Rust (https://rustup.rs) and run the command again" >&2
    exit 1
else
    echo "irscale: no cargo on PATH: pip's build backend (maturin) will first download a minimal"
    echo "  Rust toolchain through rustup into ~/.cache/puccinialin (about 667 MB on disk, reused by"
    echo "  later installs; rm -rf ~/.cache/puccinialin reclaims it), then compile the engine"
    echo "  (a C linker, cc, needed). The whole install took 20 minutes on a 2-core machine shared"
    echo "  with other work, with nothing on screen but pip's \"still running...\"; pip install -v ."
    echo "  shows the download and the compilation. To use your own Rust instead, stop it (^C),"
    echo "  install Rust from https://rustup.rs and run the command again; MATURIN_NO_INSTALL_RUST=1"
    echo "  before the command refuses the download."
fi
