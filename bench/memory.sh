#!/usr/bin/env bash
# Resident memory of a built server (npm run build first), idle and after a short load.
# usage: bash bench/memory.sh <label> [DATABASE_URL]
cd "$(dirname "$0")/.."; d=$(mktemp -d)
export CARTAGE_DATA_DIR=$d HOST=127.0.0.1 CORE_PORT=0 GLOBAL_PORT=0 LOG_LEVEL=warn
[ -n "${2:-}" ] && export DATABASE_URL=$2
node dist/main.js serve > $d.log 2>&1 & pid=$!
for i in $(seq 1 120); do grep -q 'Global API' $d.log && break; sleep 1; done
sleep 3; idle=$(grep VmRSS /proc/$pid/status | awk '{print $2}')
core=$(grep -o 'Core API: http://[^ ]*' $d.log | cut -d' ' -f3)
r=$(npx autocannon -c 10 -d 10 -j $core/health/ready 2>/dev/null | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);console.log(j.requests.average+" req/s p50 "+j.latency.p50+" ms")})')
load=$(grep VmRSS /proc/$pid/status | awk '{print $2}'); hwm=$(grep VmHWM /proc/$pid/status | awk '{print $2}')
echo "$1: idle $((idle/1024)) MB, after 10 s x 10 connections on /health/ready: $r, RSS $((load/1024)) MB, peak $((hwm/1024)) MB"
kill $pid; wait $pid; rm -rf $d $d.log
