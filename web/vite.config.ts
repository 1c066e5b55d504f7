import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vite'

const web = path.dirname(fileURLToPath(import.meta.url))

// React's JSX through esbuild (no Babel plugin: a production build needs none; `npm run
// console:dev` reloads the page on a change instead of hot-swapping components).
export default defineConfig({
  root: web,
  base: '/',
  publicDir: path.join(web, 'public'),
  esbuild: { jsx: 'automatic' },
  build: {
    outDir: path.join(web, 'dist'),
    emptyOutDir: true,
    assetsDir: 'assets',
    target: 'es2022',
    // Every supported browser has module preload; no polyfill, and no inline script (the CSP has none).
    modulePreload: { polyfill: false },
    reportCompressedSize: false,
    // web/dist/.vite/manifest.json (not served): which files each screen loads, for the bench.
    manifest: true,
    chunkSizeWarningLimit: 400,
    rollupOptions: {
      // TanStack Query marks its modules "use client" (for React Server Components); meaningless here.
      onwarn(warning, warn) {
        if (warning.code !== 'MODULE_LEVEL_DIRECTIVE') warn(warning)
      },
      output: {
        // React changes less often than the console: its own long-cached file.
        manualChunks: (id) => (/node_modules\/(react|react-dom|scheduler)\//.test(id) ? 'react' : undefined),
      },
    },
  },
  server: {
    // `npm run console:dev`: the Vite dev server in front of a running Core API.
    proxy: Object.fromEntries(
      ['/api', '/console-config.json', '/health'].map((p) => [
        p,
        { target: process.env.CORE_URL ?? 'http://localhost:8080', changeOrigin: false },
      ]),
    ),
  },
})
