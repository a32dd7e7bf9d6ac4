"""All benchmarks: python -m benchmarks.run"""
import subprocess
import sys

for mod in ("benchmarks.bench_service", "benchmarks.bench_render", "benchmarks.bench_engine", "benchmarks.bench_hostile",
            "benchmarks.bench_gondor", "benchmarks.bench_risk", "benchmarks.bench_replay", "benchmarks.bench_startup",
            "benchmarks.bench_postgres", "benchmarks.bench_ack", "benchmarks.bench_json", "benchmarks.bench_burst",
            "benchmarks.bench_autopilot", "benchmarks.bench_stats", "benchmarks.bench_record"):
    print(f"== {mod}", flush=True)
    subprocess.run([sys.executable, "-m", mod], check=False)
