/**
 * `npx tsx bench/profile.ts <file.cpuprofile> [top]`: where a profiled Cartage server spent its
 * CPU (from `BENCH_CPU_PROF=<dir> npm run bench`). Prints self time by function and by package
 * or source directory, and inclusive time of Cartage's own functions.
 */
import { readFileSync } from 'node:fs'

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

const [file, topArg] = process.argv.slice(2)
if (!file) throw new Error('usage: tsx bench/profile.ts <file.cpuprofile> [top]')
const top = Number(topArg ?? 25)
const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile

const byId = new Map(profile.nodes.map((node) => [node.id, node]))
const parent = new Map<number, number>()
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id)

/** Microseconds of samples whose top frame is each node. */
const selfTime = new Map<number, number>()
profile.samples.forEach((id, i) => {
  selfTime.set(id, (selfTime.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0))
})
const total = [...selfTime.values()].reduce((a, b) => a + b, 0)

const where = (url: string) => {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url)
  if (pkg) return pkg[1] ?? url
  const own = /\/(src|bench)\/(.+)$/.exec(url)
  if (own) return `${own[1]}/${own[2]?.split('/').slice(0, -1).join('/') || '.'}`
  return url.startsWith('node:') ? 'node (built-in)' : url === '' ? '(native / V8)' : url
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
for (const [id, time] of selfTime) {
  const node = byId.get(id)
  if (!node) continue
  add(fnSelf, label(node), time)
  add(placeSelf, where(node.callFrame.url), time)
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
      `${((100 * time) / total).toFixed(1).padStart(6)}%  ${(time / 1000).toFixed(0).padStart(7)} ms  ${key}\n`,
    )
}
process.stdout.write(`${file}: ${(total / 1e6).toFixed(1)} s sampled\n`)
print('self time by package / directory', placeSelf)
print('self time by function', fnSelf)
print('inclusive time of src/ functions', ownInclusive)
