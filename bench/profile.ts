/**
 * `npx tsx bench/profile.ts <file.cpuprofile> [--top 25] [--callers writev] [--requests 100000] [--after fn]`:
 * where a profiled server spent its CPU (from `BENCH_CPU_PROF=<dir> npm run bench`). Prints self
 * time by package or source directory and by function, inclusive time of Cartage's own functions
 * and, with --callers, the call paths into that function. With --requests (how many the server
 * answered while profiled) times are also shown in microseconds per request, so a Cartage profile
 * and a baseline profile can be compared line by line. With --after (a function only requests run,
 * e.g. a route's handler), samples before the first one inside it are left out: the process's start
 * (loading and compiling modules, building the routes) then does not count against the requests.
 */
import { readFileSync } from 'node:fs'
import { parseArgs } from 'node:util'

interface ProfileNode {
  id: number
  callFrame: { functionName: string; url: string; lineNumber: number }
  children?: number[]
}
interface Profile {
  nodes: ProfileNode[]
  samples: number[]
  timeDeltas: number[]
}

const { values: options, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    top: { type: 'string' },
    callers: { type: 'string' },
    requests: { type: 'string' },
    after: { type: 'string' },
  },
})
const file = positionals[0]
if (!file)
  throw new Error(
    'usage: tsx bench/profile.ts <file.cpuprofile> [--top N] [--callers fn] [--requests N] [--after fn]',
  )
const top = Number(options.top ?? 25)
const focus = options.callers
const requests = Number(options.requests ?? 0)
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile

const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)

/** With --after: the first sample whose stack holds that function (0 without it). */
function firstSampleInside(functionName: string | undefined): number {
  if (!functionName) return 0
  const inside = new Map<number, boolean>()
  const isInside = (id: number): boolean => {
    const known = inside.get(id)
    if (known !== undefined) return known
    const up = parent.get(id)
    const answer = byId.get(id)?.callFrame.functionName === functionName || (up !== undefined && isInside(up))
    inside.set(id, answer)
    return answer
  }
  const first = profile.samples.findIndex(isInside)
  if (first < 0) throw new Error(`no sample runs inside ${functionName}`)
  return first
}
const start = firstSampleInside(options.after)

/** Microseconds of samples whose top frame is each node. */
const selfTime = new Map<number, number>()
profile.samples.forEach((id, i) => {
  if (i >= start) selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
})
const total = [...selfTime.values()].reduce((a, b) => a + b, 0)

/** Native frames (idle, GC, syscalls such as writev) keep their own name; the rest group by package. */
const where = ({ url, functionName }: ProfileNode['callFrame']) => {
  if (url === '') return `(native) ${functionName}`
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg) return pkg[1] ?? url
  const own = /\/(src|bench)\/(.+)$/.exec(url)
  if (own) return `${own[1]}/${own[2]?.split('/').slice(0, -1).join('/') || '.'}`
  return url.startsWith('node:') ? 'node (built-in)' : url
}
const label = ({ callFrame: f }: ProfileNode) =>
  `${f.functionName || '(anonymous)'} ${f.url.replace(/^.*\/(node_modules|src|bench)\//, '$1/')}:${f.lineNumber + 1}`

function add(map: Map<string, number>, key: string, value: number) {
  map.set(key, (map.get(key) ?? 0) + value)
}
const fnSelf = new Map<string, number>()
const placeSelf = new Map<string, number>()
/** Inclusive time of functions in src/: every sample counts once for each distinct src frame on its stack. */
const ownInclusive = new Map<string, number>()
/** Call paths (nearest package or src frames) into `focus`. */
const focusPaths = new Map<string, number>()
const FOCUS_DEPTH = 4
function pathInto(id: number): string {
  const frames: string[] = []
  for (let at = parent.get(id); at !== undefined && frames.length < FOCUS_DEPTH; at = parent.get(at)) {
    const frame = byId.get(at)
    // Node's own stream plumbing says nothing about who wrote: show packages and src only.
    if (frame?.callFrame.url && !frame.callFrame.url.startsWith('node:')) frames.push(label(frame))
  }
  return frames.join(' < ')
}
for (const [id, time] of selfTime) {
  const node = byId.get(id)
  if (!node) continue
  add(fnSelf, label(node), time)
  add(placeSelf, where(node.callFrame), time)
  if (focus && node.callFrame.functionName === focus) add(focusPaths, pathInto(id), time)
  const seen = new Set<string>()
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const frame = byId.get(at)
    if (frame && /\/src\//.test(frame.callFrame.url) && !seen.has(label(frame))) {
      seen.add(label(frame))
      add(ownInclusive, label(frame), time)
    }
  }
}

const print = (title: string, map: Map<string, number>) => {
  process.stdout.write(`\n${title}\n`)
  for (const [key, time] of [...map].sort((a, b) => b[1] - a[1]).slice(0, top))
    process.stdout.write(
      `${((100 * time) / total).toFixed(1).padStart(6)}%  ${(time / 1000).toFixed(0).padStart(7)} ms` +
        `${requests > 0 ? `${(time / requests).toFixed(1).padStart(8)} µs/req` : ''}  ${key}\n`,
    )
}
const idle = [...selfTime].reduce(
  (sum, [id, time]) => (byId.get(id)?.callFrame.functionName === '(idle)' ? sum + time : sum),
  0,
)
const busy = total - idle
process.stdout.write(
  `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy` +
    `${requests > 0 ? ` = ${(busy / requests).toFixed(1)} µs per request` : ''}\n`,
)
print('self time by package / directory', placeSelf)
print('self time by function', fnSelf)
print('inclusive time of src/ functions', ownInclusive)
if (focus) print(`call paths into ${focus}`, focusPaths)
