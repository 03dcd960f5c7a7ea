import faulthandler

import pytest
import toy_plugin

from bench_core import host as host_module
from bench_core.host import create_host


@pytest.fixture
def toy_host(monkeypatch):
    """A fresh host holding only the core defaults and the toy plugin, installed as the process default."""
    host = create_host(entry_points=False, plugins=[("toy", toy_plugin)])
    monkeypatch.setattr(host_module, "_default_host", host)
    return host


@pytest.fixture(autouse=True)
def _lenient_plugins(monkeypatch):
    """Isolation tests need broken plugins to be recorded, not raised (tox sets BENCH_STRICT_PLUGINS=1)."""
    monkeypatch.delenv("BENCH_STRICT_PLUGINS", raising=False)


#: Seconds a single test may take before the run is stopped with every thread's traceback: a hang (a deadlocked
#: worker pool, say) then fails the run at once, naming where it hung, instead of stalling CI until its limit.
TEST_LIMIT = 600


@pytest.fixture(autouse=True)
def _hang_guard():
    faulthandler.dump_traceback_later(TEST_LIMIT, exit=True)
    yield
    faulthandler.cancel_dump_traceback_later()
