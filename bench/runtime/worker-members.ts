/**
 * The stateless topology run by several members of one group in one process, each a StreamsRuntime in a worker
 * thread of its own: what the library allows today to use more than one core, and the measure of what stream
 * threads off the main thread would gain. Each member reports its processed count every 5 ms.
 */
import { isMainThread, parentPort, Worker, workerData } from "worker_threads";
import { processedTotal, seconds, type Timing } from "./runtime-timing";
import { statelessRuntime } from "./stateless-topology";

interface MemberData {
  benchMember: true;
  bootstrapServers: string[];
  stateDir: string;
  applicationId: string;
  output: string;
}

/** A run that processes nothing for this long has stalled. */
const STALL_MS = 60_000;

/** Runs `members` members until together they have processed `expected` records. */
export async function timeWorkerMembers(bootstrapServers: string[], stateDir: string, applicationId: string, output: string, members: number, expected: number): Promise<Timing> {
  const started = Date.now();
  const counts = new Array<number>(members).fill(0);
  const timing: Timing = { firstSeconds: 0, totalSeconds: 0 };
  let lastProgress = Date.now();
  const workers: Worker[] = [];
  try {
    await new Promise<void>((resolve, reject) => {
      const stalled = setInterval(() => {
        if (Date.now() - lastProgress > STALL_MS) reject(new Error(`${applicationId}: ${members} members processed nothing for ${STALL_MS / 1000} s, at ${counts.join(" + ")} of ${expected}`));
      }, 1_000);
      const finish = (error?: Error) => {
        clearInterval(stalled);
        if (error) reject(error);
        else resolve();
      };
      for (let member = 0; member < members; member++) {
        const data: MemberData = { benchMember: true, bootstrapServers, stateDir: `${stateDir}/member-${member}`, applicationId, output };
        const worker = new Worker(__filename, { workerData: data });
        worker.on("error", finish);
        worker.on("message", (count: number) => {
          if (count > counts[member]) lastProgress = Date.now();
          counts[member] = count;
          const done = counts.reduce((sum, each) => sum + each, 0);
          if (done > 0 && timing.firstSeconds === 0) timing.firstSeconds = seconds(started, Date.now());
          if (done >= expected / 5 && timing.fifthSeconds === undefined) timing.fifthSeconds = seconds(started, Date.now());
          if (done >= expected && timing.totalSeconds === 0) {
            timing.totalSeconds = seconds(started, Date.now());
            finish();
          }
        });
        workers.push(worker);
      }
    });
  } finally {
    await Promise.all(workers.map((worker) => closeMember(worker)));
  }
  return timing;
}

/** Asks the member to close its runtime (leaving the group), then ends its thread. */
async function closeMember(worker: Worker): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    worker.on("message", (message) => message === "closed" && resolve());
    worker.once("exit", () => resolve());
  });
  worker.postMessage("close");
  await closed;
  await worker.terminate();
}

async function runMember(data: MemberData): Promise<void> {
  const runtime = statelessRuntime(data.bootstrapServers, data.stateDir, data.applicationId, data.output);
  await runtime.start();
  const reporter = setInterval(() => parentPort!.postMessage(processedTotal(runtime, data.applicationId)), 5);
  parentPort!.once("message", async () => {
    clearInterval(reporter);
    await runtime.close();
    parentPort!.postMessage("closed");
  });
}

if (!isMainThread && (workerData as MemberData | undefined)?.benchMember) {
  // A failure rejects unhandled, which ends the thread with an error event for timeWorkerMembers.
  void runMember(workerData as MemberData);
}
