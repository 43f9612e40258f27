/**
 * Node options a service's process starts with, wherever it is started: npm start's launcher,
 * the test harness and the benchmarks read them; docker-compose.yml's and the k8s manifests'
 * commands repeat them, held to this list by the deploy checks, and so does the Dockerfile's
 * default command (the gateway's).
 *
 * The gateway allocates a short-lived answer, promise and timer set per long-poll and a string
 * per delivery: with V8's default young generation (16 MB semi-spaces) it spent a fifth of its
 * time collecting. 64 MB semi-spaces cut its CPU per delivery by a fifth (`npm run bench:events`
 * at 20 messages/s: 39–42 µs → 31–34 µs); 128 MB by a tenth more per poll (75–81 µs → 64–66 µs
 * per answered poll, measured the same way, alternating): a scavenge copies what is alive (the
 * thousand polls waiting), so fewer of them cost less. At most 256 MB more of address space
 * (k8s/gateway.yaml's memory limit allows for it).
 */
export const SERVICE_NODE_OPTIONS: Readonly<Record<string, readonly string[]>> = {
  gateway: ['--max-semi-space-size=128'],
};

export const nodeOptionsOf = (service: string): readonly string[] => SERVICE_NODE_OPTIONS[service] ?? [];
