#!/usr/bin/env python3
"""Aggregates a JFR recording's execution samples: where the CPU went.

usage: jfr-top.py RECORDING.jfr [--thread NAME] [--top N]

Runs `jfr print --events jdk.ExecutionSample --stack-depth 96` and prints
  1. self: the top frame of each sample (the method running), as a share of samples;
  2. inclusive: each method once per sample in which it is on the stack;
  3. by code base: per sample, the first frame (from the top) in dev.rota, or Hadoop, or other;
  4. by thread.
Only samples of threads whose name contains NAME are counted (default: all; "main" is the
benchmark's heartbeat thread).
"""
import collections
import re
import subprocess
import sys


def samples(path, depth=96):
    out = subprocess.run(
        ["jfr", "print", "--events", "jdk.ExecutionSample", "--stack-depth", str(depth), path],
        check=True, capture_output=True, text=True).stdout
    thread, frames, in_stack = None, [], False
    for line in out.splitlines():
        s = line.strip()
        if s.startswith("jdk.ExecutionSample"):
            thread, frames, in_stack = None, [], False
        elif s.startswith("sampledThread = "):
            m = re.search(r'"(.*)"', s)
            thread = m.group(1) if m else s
        elif s.startswith("stackTrace = ["):
            in_stack = True
        elif in_stack and s == "]":
            in_stack = False
        elif in_stack and s and s != "...":
            frames.append(re.sub(r"\s+line:.*$", "", s))
        elif s == "}" and frames:
            yield thread, frames
            frames = []


def main():
    args = sys.argv[1:]
    if not args:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    path, thread_filter, top = args[0], None, 25
    if "--thread" in args:
        thread_filter = args[args.index("--thread") + 1]
    if "--top" in args:
        top = int(args[args.index("--top") + 1])
    self_c, incl_c, base_c = collections.Counter(), collections.Counter(), collections.Counter()
    thread_c = collections.Counter()
    n = 0
    for thread, frames in samples(path):
        if thread_filter and (thread is None or thread_filter not in thread):
            continue
        n += 1
        thread_c[re.sub(r"\s*\(.*$", "", thread or "?")] += 1
        self_c[frames[0]] += 1
        for f in set(frames):
            incl_c[f] += 1
        first = next((f for f in frames if f.startswith("dev.rota.")), None)
        if first:
            base_c["dev.rota (first Rota frame: " + first.split("(")[0] + ")"] += 1
        elif any(f.startswith("org.apache.hadoop.") for f in frames):
            base_c["Hadoop only"] += 1
        else:
            base_c["other (JDK, Mockito, ...)"] += 1
    if n == 0:
        print("no execution samples" + (" for thread " + thread_filter if thread_filter else ""))
        return
    print(f"{n} execution samples" + (f" of threads '{thread_filter}'" if thread_filter else ""))
    for title, c in (("self (top frame)", self_c), ("inclusive (on the stack)", incl_c),
                     ("by code base", base_c), ("by thread", thread_c)):
        print(f"\n## {title}")
        for k, v in c.most_common(top):
            print(f"{100.0 * v / n:6.1f}%  {v:6d}  {k}")


if __name__ == "__main__":
    main()
