/**
 * Node options a service's process starts with, wherever it is started: npm start's launcher,
 * the test harness and the benchmarks read them; docker-compose.yml's and the k8s manifests'
 * commands repeat them, held to this list by the deploy checks, and so does the Dockerfile's
 * default command (the gateway's).
 *
 * The gateway allocates a short-lived answer, promise and timer set per long-poll and a string
 * per delivery: with V8's default young generation (16 MB semi-spaces) it spent a fifth of its
 * time collecting. 64 MB semi-spaces cut its CPU per delivery by a fifth (`npm run bench:events`
 * at 20 messages/s: 39–42 µs → 31–34 µs) for at most 128 MB more of address space.
 */
export const SERVICE_NODE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  gateway: ['--max-semi-space-size=64'],
};

export const nodeOptionsOf = (service: string): readonly string[] => SERVICE_NODE_OPTIONS[service] ?? [];
