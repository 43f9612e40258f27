// cluster-key-slot (ioredis's dependency) ships no types: the one function the tests use.
declare module 'cluster-key-slot' {
  /** The Redis Cluster hash slot of a key (its hash tag's, when it has one). */
  export default function calculateSlot(key: string): number;
}
