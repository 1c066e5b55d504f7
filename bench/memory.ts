/**
 * The "Memory" section of bench/RESULTS.md: resident memory of the built server (`node dist/main.js
 * serve`) idle right after start on a new data directory and after 10 s of load, in both modes,
 * measured by bench/memory.sh. A full `npm run bench` includes it (BENCH_MEMORY=0 leaves it out);
 * `npm run bench -- --memory-only` measures it alone and replaces that section of the last results.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const root = fileURLToPath(new URL('..', import.meta.url))

export function memorySection(databaseUrl: string | undefined): string {
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'ignore' })
  const measure = (label: string, url?: string) => {
    // The embedded server is the one without DATABASE_URL, whatever this process was given.
    const { DATABASE_URL: _ignored, ...env } = process.env
    return (
      execFileSync('bash', ['bench/memory.sh', label, ...(url ? [url] : [])], {
        cwd: root,
        encoding: 'utf8',
        env,
      })
        .trim()
        .split('\n')
        .at(-1) ?? ''
    )
  }
  const lines = [measure('embedded'), ...(databaseUrl ? [measure('PostgreSQL', databaseUrl)] : [])]
  return (
    '## Memory (resident set size of the built server)\n\n' +
    'Idle: 3 s after start on a new data directory; then `autocannon -c 10 -d 10` on `/health/ready` ' +
    '(bench/memory.sh; history and where the memory goes: bench/MEMORY.md).\n\n' +
    `\`\`\`\n${lines.join('\n')}\n\`\`\`\n`
  )
}

/** Replaces (or adds) the Memory section of the existing RESULTS.md. */
export function replaceMemorySection(section: string): void {
  const file = fileURLToPath(new URL('./RESULTS.md', import.meta.url))
  const text = readFileSync(file, 'utf8')
  const start = text.indexOf('## Memory')
  const end = start < 0 ? -1 : text.indexOf('\n## ', start + 1)
  const next =
    start < 0
      ? `${text.trimEnd()}\n\n${section}`
      : `${text.slice(0, start)}${section}${end < 0 ? '' : text.slice(end)}`
  writeFileSync(file, next)
}
