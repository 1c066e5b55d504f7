import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// The README and the documents in docs/ point at each other and at the code: every relative link must
// reach a file (and its #anchor a heading), and every repository path written in code style must exist.

const ROOT = path.join(path.dirname(fileURLToPath(import.meta.url)), '..')
const DOCUMENTS = [
  'README.md',
  'CONTRIBUTING.md',
  ...readdirSync(path.join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => `docs/${name}`),
]
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8')

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens. */
const anchorOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-')
const anchors = (file: string) =>
  new Set([...read(file).matchAll(/^#{1,6} (.+)$/gm)].map((match) => anchorOf(match[1] ?? '')))

describe.each(DOCUMENTS)('%s', (file) => {
  const text = read(file)

  it('links only to files and headings that exist', () => {
    const broken: string[] = []
    for (const [, target = ''] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target)) continue
      const [linked = '', anchor] = target.split('#')
      const resolved = linked ? path.normalize(path.join(path.dirname(file), linked)) : file
      if (!existsSync(path.join(ROOT, resolved))) broken.push(target)
      else if (anchor && resolved.endsWith('.md') && !anchors(resolved).has(anchor)) broken.push(target)
    }
    expect(broken).toEqual([])
  })

  it('names only repository paths that exist', () => {
    const missing = [...text.matchAll(/`((?:src|test|docs|bench|scripts)\/[^`\s]*)`/g)]
      .map((match) => match[1] ?? '')
      .filter((named) => !/[<>{}*]/.test(named))
      .filter((named) => !existsSync(path.join(ROOT, named)))
    expect(missing).toEqual([])
  })
})

describe('README.md', () => {
  it('links every document in docs/', () => {
    const readme = read('README.md')
    for (const file of DOCUMENTS.filter((name) => name.startsWith('docs/')))
      expect(readme, file).toContain(`](${file})`)
  })
})
