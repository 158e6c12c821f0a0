"""Rewrites the generated parts of docs/BENCHMARKS.md from a suite run (`bash bench/gpu_run.sh
bench` on the GPU machine writes RUN/bench_table.md, RUN/bench.csv and RUN/benchmarks.png): the
verdict lines, the per-workload table (`bench/summarize.py`) and the table of all cases, and
copies the CSV and the plot into docs/. The prose around them (the card, the build, what
changed) is written by hand.

Usage: python3 bench/update_benchmarks.py RUN"""
import pathlib
import shutil
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
run = pathlib.Path(sys.argv[1])
doc_path = root / "docs" / "BENCHMARKS.md"
doc = doc_path.read_text()
table = (run / "bench_table.md").read_text()


def between(text, start, last_line_start):
    """The span of `text` from `start` to the end of the line beginning at `last_line_start`."""
    begin = text.index(start)
    return begin, text.index("\n", text.index(last_line_start, begin)) + 1


# The verdict lines, from "- forward:" to the line on PyTorch's deterministic backward.
begin, end = between(table, "- forward:", "- PyTorch's backward raises")
verdict = table[begin:end]
begin, end = between(doc, "- forward: geometric-mean", "- PyTorch's backward raises")
doc = doc[:begin] + verdict + doc[end:]
# The per-workload table and its closing "All:" line.
summary = subprocess.run(
    ["python3", str(root / "bench" / "summarize.py"), str(run / "bench.csv")], capture_output=True, text=True, check=True
).stdout
begin, end = between(doc, "| workload | cases |", "All: forward")
doc = doc[:begin] + summary.strip() + "\n" + doc[end:]
# Every case.
doc = doc[: doc.index("## All cases")] + table[table.index("## All cases") :]
doc_path.write_text(doc)
shutil.copy(run / "bench.csv", root / "docs" / "bench.csv")
shutil.copy(run / "benchmarks.png", root / "docs" / "benchmarks.png")
print(f"docs/BENCHMARKS.md, docs/bench.csv, docs/benchmarks.png from {run}")
