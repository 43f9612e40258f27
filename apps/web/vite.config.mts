import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const EMOJI_MODULE = 'virtual:emoji-names';

/**
 * `virtual:emoji-names`: every emoji-datasource short name with its Zulip code (lower-case code
 * points without FE0F, as the server's catalogue), as one "name code;…" string for the compose
 * box's :emoji: autocomplete. The app imports it lazily, so it is a chunk of its own, outside the
 * first load.
 */
function emojiNames(): Plugin {
  const resolved = `\0${EMOJI_MODULE}`;
  return {
    name: 'teamchat-emoji-names',
    resolveId: (id) => (id === EMOJI_MODULE ? resolved : undefined),
    load(id) {
      if (id !== resolved) return undefined;
      const file = createRequire(import.meta.url).resolve('emoji-datasource/emoji.json');
      const entries = JSON.parse(readFileSync(file, 'utf8')) as { unified: string; short_names: string[]; sort_order: number }[];
      const pairs: string[] = [];
      for (const entry of entries.sort((a, b) => a.sort_order - b.sort_order)) {
        const code = entry.unified.toLowerCase().split('-').filter((part) => part !== 'fe0f').join('-');
        for (const name of entry.short_names) pairs.push(`${name} ${code}`);
      }
      return `export default ${JSON.stringify(pairs.join(';'))};`;
    },
  };
}

// The web app, built by tools/build.js into dist/web (the gateway serves it at `/`).
export default defineConfig({
  root: import.meta.dirname,
  base: '/',
  plugins: [react(), emojiNames()],
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
