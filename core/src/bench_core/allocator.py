"""The C heap policy of a process that builds items: keep freed memory instead of handing it back each item.

Building one item allocates and frees tens of megabytes (the canvas, the PNG encoder's palette indices, the
decoded image and its pixel array for verify).  glibc's default policy serves such blocks with ``mmap`` or
trims the heap top back to the system once they are freed, so the next item faults every page in again: a
measured ~3,000 minor page faults per Polaris item, 15-20 % of its CPU time.  Fixing the two thresholds keeps
those pages mapped and reused from item to item; a process's peak memory is what it was (the largest item),
and at most ``TRIM_THRESHOLD`` of free heap stays mapped between items.

Only the ``bench`` command line and the benchmark scripts call ``keep_freed_memory``: it changes a process-wide
setting, so importing the library never does.  On anything other than glibc it does nothing.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

#: Blocks below this size come from the heap (reused), not from their own ``mmap`` (unmapped on free).
MMAP_THRESHOLD = 32 << 20
#: Free memory at the heap top is returned to the system only beyond this much.
TRIM_THRESHOLD = 128 << 20
#: glibc's ``mallopt`` parameter numbers (malloc.h).
_M_TRIM_THRESHOLD = -1
_M_MMAP_THRESHOLD = -3

_applied = False


def keep_freed_memory() -> bool:
    """Set glibc's mmap and trim thresholds (both: setting one alone turns off glibc's adaptive thresholds)
    for this process and the workers it forks; True when they are set (now or by an earlier call), False
    where the C library is not glibc or refuses."""
    global _applied
    if _applied:
        return True
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
        mallopt = libc.mallopt
        gnu_version = libc.gnu_get_libc_version  # only glibc has it: musl's mallopt is a no-op stub
    except (OSError, AttributeError):
        return False
    del gnu_version
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    _applied = mallopt(_M_MMAP_THRESHOLD, MMAP_THRESHOLD) == 1 and mallopt(_M_TRIM_THRESHOLD, TRIM_THRESHOLD) == 1
    return _applied
