"""Documented limits: past them factcov refuses with a clear error instead of running unbounded.

Each is checked where the input is read, so a run fails before it has written anything.
See docs/reliability.md for why each value was chosen.
"""

from __future__ import annotations

# One JSONL line (an instance or a generation), in bytes: a longer line is refused, not
# read whole into memory (a file with no newline, such as /dev/zero, stops here).
MAX_LINE_BYTES = 16 * 1024 * 1024
# One generation's text, in characters (spaCy's own default max_length): extraction is
# linear, but a text this long is not a generation worth scoring.
MAX_TEXT_CHARS = 1_000_000
# JSON nesting depth of one line; deeper is refused before Python's recursion limit.
MAX_JSON_DEPTH = 200
# Integer literals longer than this many digits are refused (a float cannot hold them).
MAX_INT_DIGITS = 300
# Bootstrap resamples for confidence intervals.
MAX_BOOTSTRAP = 100_000
# Characters of one text embedded in report.html's explorer (claims past it are listed, not highlighted).
REPORT_TEXT_CHARS = 20_000
# Characters of generation text scored in one chunk (besides the chunk's count): a few
# near-limit texts make a chunk of their own, so peak memory stays bounded by this.
CHUNK_TEXT_CHARS = 2_000_000
# Bytes of one HTTP answer (weather fetch, llm extractor).
MAX_HTTP_BODY_BYTES = 32 * 1024 * 1024
# Requests in flight at once and attempts per request (generate, refine): past these a typo
# (--concurrency 1000000000, --retries 10**9 against a dead server) runs without end.
MAX_CONCURRENCY = 256
MAX_RETRIES = 100
# --rounds of refine.
MAX_ROUNDS = 100
# Worker processes of --jobs: each is a whole Python with the domain loaded (~200 MB);
# --jobs 100000 started processes until the machine stalled.
MAX_JOBS = 256
