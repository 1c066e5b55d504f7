import type { FastifyInstance } from 'fastify'

interface Listener {
  listen(options: { host: string; port: number }): Promise<string>
  close(): Promise<unknown>
  server: FastifyInstance['server']
}

/**
 * Listens on 127.0.0.1 port 0, prints the ports as one JSON line for the parent process, and
 * closes the servers and then the database on SIGTERM.
 */
export async function listenAndAnnounce(apps: Record<string, Listener>, closeDatabase: () => Promise<void>) {
  const ports: Record<string, number> = {}
  for (const [name, app] of Object.entries(apps)) {
    await app.listen({ host: '127.0.0.1', port: 0 })
    const address = app.server.address()
    if (typeof address !== 'object' || !address) throw new Error(`${name} is not on a TCP port`)
    ports[name] = address.port
  }
  process.stdout.write(`${JSON.stringify(ports)}\n`)
  process.once('SIGTERM', () => {
    void Promise.allSettled(Object.values(apps).map((app) => app.close()))
      .then(closeDatabase)
      .finally(() => process.exit(0))
  })
}
