/**
 * The stateless topology run by several members of one group in one process, each a StreamsRuntime in a worker
 * thread of its own: what the library allows today to use more than one core, and the measure of what stream
 * threads off the main thread would gain. Each member reports its processed count every 5 ms.
 */
import { isMainThread, parentPort, Worker, workerData } from "worker_threads";
import { processedTotal, RunProgress, type Timing } from "./runtime-timing";
import { statelessRuntime } from "./stateless-topology";

interface MemberData {
  benchMember: true;
  bootstrapServers: string[];
  stateDir: string;
  applicationId: string;
  output: string;
}

/** Runs `members` members until together they have processed `expected` records. */
export async function timeWorkerMembers(bootstrapServers: string[], stateDir: string, applicationId: string, output: string, members: number, expected: number): Promise<Timing> {
  const run = new RunProgress(expected);
  const counts = new Array<number>(members).fill(0);
  const workers: Worker[] = [];
  let timing: Timing | undefined;
  try {
    await new Promise<void>((resolve, reject) => {
      let finished = false;
      const finish = (error?: unknown) => {
        if (finished) return;
        finished = true;
        if (error === undefined) resolve();
        else reject(error);
      };
      for (let member = 0; member < members; member++) {
        const data: MemberData = { benchMember: true, bootstrapServers, stateDir: `${stateDir}/member-${member}`, applicationId, output };
        const worker = new Worker(__filename, { workerData: data });
        worker.on("error", finish);
        worker.on("exit", (code) => finish(new Error(`${applicationId}: member ${member} exited with code ${code} at ${counts.join(" + ")} of ${expected} records`)));
        worker.on("message", (count: number) => {
          if (finished || typeof count !== "number") return;
          counts[member] = count;
          try {
            if (run.observe(counts.reduce((sum, each) => sum + each, 0), () => `${applicationId}: ${members} members (${counts.join(" + ")})`)) {
              timing = run.timing();
              finish();
            }
          } catch (error) {
            finish(error);
          }
        });
        workers.push(worker);
      }
    });
  } finally {
    await Promise.all(workers.map((worker) => closeMember(worker)));
  }
  return timing!;
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
