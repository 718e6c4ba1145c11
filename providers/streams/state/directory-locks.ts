/**
 * Which task directories this process has open (Kafka Streams' StateDirectory locks, per task). A task moving between
 * two stream threads of one instance is closed by one thread while the other opens it, each in its own reconcile of
 * the same rebalance: the opener waits here for the closer to release the directory, instead of failing on LevelDB's
 * lock. The wait is bounded: a directory not released by then is opened anyway (and LevelDB says why it cannot be).
 */
const held = new Map<string, Promise<void>>();

/** How long an opener waits for another thread of the process to release a directory at most. */
const WAIT_MS = 60_000;

/** Waits until no one in this process holds `directory`, then holds it; answers the release. */
export async function holdDirectory(directory: string, onWait: () => void = () => undefined): Promise<() => void> {
  const deadline = Date.now() + WAIT_MS;
  for (let released = held.get(directory); released !== undefined && Date.now() < deadline; released = held.get(directory)) {
    onWait();
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([released, new Promise<void>((resolve) => (timer = setTimeout(resolve, deadline - Date.now())))]);
    clearTimeout(timer);
  }
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  held.set(directory, released);
  return () => {
    if (held.get(directory) === released) held.delete(directory);
    release();
  };
}
