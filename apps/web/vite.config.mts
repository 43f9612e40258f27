import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';

// The web app, built by tools/build.js into dist/web (the gateway serves it at `/`).
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react()],
  build: {
    outDir: path.resolve(import.meta.dirname, '../../dist/web'),
    emptyOutDir: true,
    assetsDir: 'assets',
    sourcemap: false,
    // No inline scripts or data: modules in the page: the Content-Security-Policy allows neither.
    modulePreload: { polyfill: false },
    assetsInlineLimit: 0,
  },
});
