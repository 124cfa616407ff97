// Studio's build: Vite 8 (rolldown + oxc) compiles the TSX itself with React's automatic JSX runtime,
// so no Babel plugin is needed. `scripts/build.js` runs it into dist/studio, served at /studio.
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

const here = path.dirname(fileURLToPath(import.meta.url));

export default defineConfig({
  root: here,
  base: '/studio/',
  logLevel: 'warn',
  oxc: { jsx: { runtime: 'automatic', importSource: 'react' } },
  build: {
    outDir: process.env.STUDIO_OUT_DIR ?? path.join(here, '..', 'dist', 'studio'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    target: 'es2022',
  },
});
