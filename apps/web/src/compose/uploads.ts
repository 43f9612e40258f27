import { useState } from 'react';
import { csrfToken } from '../api/client';
import { t } from '../i18n/i18n';

export interface UploadState {
  id: number;
  name: string;
  sent: number;
  total: number;
  error?: string;
}

let serial = 0;

/** The Markdown link Zulip's compose box inserts for an uploaded file: `[name](url)`. */
export function uploadLink(name: string, url: string): string {
  const label = name.replace(/[[\]\\]/g, (c) => `\\${c}`);
  return `[${label}](${url})`;
}

/**
 * Uploads files through tus (tus-js-client, resumable) at /json/tus, the session's path to the
 * server's tus endpoint, with the CSRF token; shows each one's progress and, when it is done,
 * hands its link to the compose box. The server's last answer carries `{url, filename}`.
 */
export function useUploads(onLink: (link: string) => void) {
  const [list, setList] = useState<UploadState[]>([]);
  const change = (id: number, patch: Partial<UploadState>) => setList((all) => all.map((u) => (u.id === id ? { ...u, ...patch } : u)));

  function start(files: FileList | File[]) {
    const chosen = Array.from(files).map((file) => ({ file, id: ++serial }));
    setList((all) => [...all, ...chosen.map(({ file, id }) => ({ id, name: file.name, sent: 0, total: file.size }))]);
    // tus-js-client is loaded with the first upload, not with the app.
    void import('tus-js-client').then(
      ({ Upload }) => chosen.forEach(({ file, id }) => send(Upload, file, id)),
      (error: Error) => chosen.forEach(({ file, id }) => change(id, { error: t('{{name}} could not be uploaded: {{error}}', { name: file.name, error: error.message }) })),
    );
  }

  function send(Upload: typeof import('tus-js-client').Upload, file: File, id: number) {
    const upload = new Upload(file, {
      endpoint: '/json/tus',
      headers: { 'X-CSRFToken': csrfToken() },
      metadata: { filename: file.name, filetype: file.type || 'application/octet-stream' },
      chunkSize: 5 * 1024 * 1024,
      retryDelays: [0, 1000, 3000, 5000],
      removeFingerprintOnSuccess: true,
      onProgress: (sent, total) => change(id, { sent, total }),
      onError: (error) => change(id, { error: t('{{name}} could not be uploaded: {{error}}', { name: file.name, error: error.message }) }),
      onSuccess: ({ lastResponse }) => {
        try {
          const answer = JSON.parse(lastResponse.getBody()) as { url: string; filename?: string };
          onLink(uploadLink(answer.filename ?? file.name, answer.url));
          setList((all) => all.filter((u) => u.id !== id));
        } catch {
          change(id, { error: t('{{name}} could not be uploaded: {{error}}', { name: file.name, error: t('the server gave no link') }) });
        }
      },
    });
    upload.start();
  }

  return { list, start };
}
