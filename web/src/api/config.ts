/** What the server tells the console about itself (GET /console-config.json, src/console/console.ts). */
export interface ConsoleConfig {
  /** The Global API as this browser reaches it; null when the server cannot tell (see the README). */
  globalApiUrl: string | null
  /** A raster tile URL template for the maps; null = draw the vector data only. */
  tileUrl: string | null
  tileAttribution: string | null
}

export async function loadConsoleConfig(): Promise<ConsoleConfig> {
  // As index.html preloads it (same URL, mode and credentials), so the preloaded answer is used.
  const response = await fetch('/console-config.json')
  if (!response.ok) throw new Error(`GET /console-config.json answered ${response.status}`)
  const body = (await response.json()) as Partial<ConsoleConfig>
  return {
    globalApiUrl: typeof body.globalApiUrl === 'string' ? body.globalApiUrl : null,
    tileUrl: typeof body.tileUrl === 'string' ? body.tileUrl : null,
    tileAttribution: typeof body.tileAttribution === 'string' ? body.tileAttribution : null,
  }
}
