export function newestMtime(entry: string, skip?: (file: string) => boolean): number
export function buildSources(root: string): string[]
export function buildStamp(root: string): string
export function distIsFresh(root: string): boolean
