"""Shared fixtures: location of the real data in ../shared (tests skip when it is absent).

``IRSCALE_SHARED_DATA`` names another directory for it; set it to a missing path (e.g.
``IRSCALE_SHARED_DATA=/nonexistent python -m pytest tests``) to run the suite as a clone
without ``../shared`` runs it. The documentation examples still name ``../shared/data``
relative to the repository; they skip whenever this directory is absent.
"""

from __future__ import annotations

import gc
import os
import signal
import subprocess
import sys
import threading
from collections.abc import Generator, Iterator
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from threadpoolctl import threadpool_limits

from .oracle_imports import import_or_skip_module_libraries
from .property_examples import examples

# Timing is not what these tests check: no per-example deadline (CI machines are shared).
# Hypothesis's 100 examples where a test declares none, scaled as the declared numbers are.
settings.register_profile("irscale", deadline=None, max_examples=examples(100),
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile("irscale")

# BLAS on one thread, in this process and the processes it starts: the matrices of the tests
# are small (tens to thousands of entries), and OpenBLAS's threads only spin on them, the
# more as pytest-xdist runs a worker per core (SLSQP's sweeps of
# tests/test_meta_informativeness.py ran 8 times slower with them on a busy machine). The
# values checked are the same; a thread count set by the caller is kept.
if "OPENBLAS_NUM_THREADS" not in os.environ:
    os.environ.update(OPENBLAS_NUM_THREADS="1", MKL_NUM_THREADS="1")
    threadpool_limits(limits=1, user_api="blas")  # (the libraries loaded already)

#: Tests marked ``slow`` (minutes each: e.g. the brute force of three degrees up to N = 16 in
#: tests/test_scale_counting.py) run only when this is set: ``IRSCALE_SLOW=1 pytest -m slow``.
RUN_SLOW = os.environ.get("IRSCALE_SLOW", "") not in ("", "0")


@pytest.hookimpl(wrapper=True)
def pytest_collection(session: pytest.Session) -> Generator[None, object, object]:
    """Collect with the cyclic garbage collector paused, then freeze what collection made.

    Collection builds what lives to the end of the session: the modules imported (numpy,
    pandas, scipy, irscale, the tests) and some 22,000 items. The collector's passes over
    them while they were made freed little, and every later pass walked them again: those
    of the tests, of the end of the session, of the interpreter's exit. :func:`gc.freeze`
    keeps them out of every later pass (the tests' own objects are collected as before).
    The cycles collection left (some 90,000 objects, a few megabytes) are frozen with them:
    a pass to free them cost 0.5-0.7 s of CPU, 6 % of collection, in every process.
    """
    enabled = gc.isenabled()
    gc.disable()
    try:
        return (yield)
    finally:
        gc.freeze()
        if enabled:
            gc.enable()


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Skip the ``slow`` tests unless :data:`RUN_SLOW`."""
    if RUN_SLOW:
        return
    skip = pytest.mark.skip(reason="slow: set IRSCALE_SLOW=1 to run it")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(tryfirst=True)
def pytest_runtest_setup(item: pytest.Item) -> None:
    """A test module's oracle libraries declared by ``lazy_importorskip`` are imported (or
    the test skipped) before its fixtures and its body: tests/oracle_imports.py."""
    module = getattr(item, "module", None)
    if module is not None:
        import_or_skip_module_libraries(module)


#: The signals irscale's command line handles while it runs (``cli.main``: ^C, SIGTERM,
#: SIGHUP), whose handlers each test leaves as it found them.
HANDLED_SIGNALS = tuple(getattr(signal, name) for name in ("SIGINT", "SIGTERM", "SIGHUP")
                        if hasattr(signal, name))


@pytest.fixture(autouse=True)
def signal_handlers_restored() -> Iterator[None]:
    """The handlers of :data:`HANDLED_SIGNALS` the test found, put back after it.

    A test that runs the command line in process (``cli.main.main``) has irscale install
    its handlers; the console script's path (``main()``, no ``argv``) leaves ^C, SIGTERM and
    SIGHUP ignored once the command is done, as the interpreter exits. Left in place, a
    SIGTERM sent to the suite (CI's timeout, a developer's ``kill``) would be ignored, or
    read as a command's, and the suite would go on: tests/test_suite_signals.py."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    found = {number: signal.getsignal(number) for number in HANDLED_SIGNALS}
    yield
    for number, handler in found.items():
        if handler is not None and signal.getsignal(number) is not handler:
            signal.signal(number, handler)


REPO = Path(__file__).resolve().parents[1]
SHARED_DATA = Path(os.environ.get("IRSCALE_SHARED_DATA") or REPO.parent / "shared" / "data")
CLEF = SHARED_DATA / "clef2016-task2"
URBANO = SHARED_DATA / "urbano-sigir2019"


def require(path: Path) -> Path:
    """``path`` if it exists, else skip the test (a user's clone has no ../shared)."""
    if not path.exists():
        pytest.skip(f"real data not available: {path}")
    return path


def pytrec_per_topic(qrels_path: Path, run_paths: list[str], measures: set[str]
                     ) -> tuple[dict[str, dict[str, int]], list[dict[str, dict[str, float]]]]:
    """The qrels of ``qrels_path`` as pytrec_eval's dict, and pytrec_eval's per-topic
    ``measures`` of every run file (``{topic: {measure: value}}``): the oracle of the
    tests of means over topics."""
    import pytrec_eval

    qrels: dict[str, dict[str, int]] = {}
    for line in open(qrels_path):
        t, _, d, r = line.split()
        qrels.setdefault(t, {})[d] = int(r)
    found = []
    for path in run_paths:
        run: dict[str, dict[str, float]] = {}
        for line in open(path):
            t, _, d, _, s, _ = line.split()
            run.setdefault(t, {})[d] = float(s)
        found.append(pytrec_eval.RelevanceEvaluator(qrels, measures).evaluate(run))
    return qrels, found


@pytest.fixture
def clef() -> Path:
    return require(CLEF)


@pytest.fixture
def urbano() -> Path:
    return require(URBANO)


@pytest.fixture(scope="session")
def site_build(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str]:
    """The documentation site, ``mkdocs build --strict`` of ``mkdocs.yml`` into a temporary
    folder, and what the build printed: built once a session for tests/test_docs_site.py and
    tests/test_docs_browser.py (a module fixture imported by both was built twice, some 20 s
    each)."""
    for plugin in ("mkdocs", "material", "mkdocstrings_handlers.python"):
        pytest.importorskip(plugin, reason=f"{plugin} is not installed (pip install -e "
                                           "'.[docs]')")
    site_dir = tmp_path_factory.mktemp("site")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir",
                           str(site_dir)], cwd=REPO, capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stderr[-4000:]
    return site_dir, done.stdout + done.stderr


@pytest.fixture(scope="session")
def site(site_build: tuple[Path, str]) -> Path:
    """The documentation site's folder (:func:`site_build`)."""
    return site_build[0]
