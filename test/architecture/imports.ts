import { readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import ts from 'typescript'

export const SRC = path.resolve(import.meta.dirname, '../../src')

export interface SourceImport {
  /** Importing file, relative to src/ (`modules/sales/orders/orders.service.ts`). */
  from: string
  /** Imported file, relative to src/ (`.js` read as the `.ts` it is built from). */
  to: string
}

const isTestCode = (file: string) => /\.(test|fixtures)\.ts$/.test(file)

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name)
    if (entry.isDirectory()) return sourceFiles(full)
    return entry.name.endsWith('.ts') && !isTestCode(entry.name) ? [full] : []
  })
}

/** Every import between files of src/ outside tests, read with TypeScript's own scanner. */
export function sourceImports(): SourceImport[] {
  return sourceFiles(SRC).flatMap((file) => {
    const { importedFiles } = ts.preProcessFile(readFileSync(file, 'utf8'), true, true)
    return importedFiles
      .filter((imported) => imported.fileName.startsWith('.'))
      .map((imported) => ({
        from: path.relative(SRC, file),
        to: path.relative(SRC, path.resolve(path.dirname(file), imported.fileName)).replace(/\.js$/, '.ts'),
      }))
  })
}
