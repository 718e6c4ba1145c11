/**
 * A bench's topology run by several members of one group in one process, each a StreamsRuntime in a worker thread
 * of its own: what the library allows today to use more than one core, and the measure of what stream threads off
 * the main thread would gain. Each member reports its processed count every 5 ms.
 */
import { isMainThread, parentPort, Worker, workerData } from "worker_threads";
import type { ConfigValue } from "../../kernel/contracts/streams/topology-provider";
import { WordCountProvider } from "../../providers/examples";
import { StreamsRuntime } from "../../providers/streams";
import { processedTotal, RunProgress, type Timing } from "./runtime-timing";
import { STATELESS_INPUT, statelessProvider } from "./stateless-topology";

/** What every member runs: the benches' stateless topology, or the wordcount example, on the topics named. */
export interface MemberApplication {
  topology: "stateless" | "wordcount";
  applicationId: string;
  input: string;
  output: string;
  /** Streams settings beside the state directory (the record cache, the commit interval). */
  streamsConfig?: Record<string, ConfigValue>;
}

interface MemberData {
  benchMember: true;
  bootstrapServers: string[];
  stateDir: string;
  application: MemberApplication;
}

/** Members of one group, started at once; `progress` hears the members' processed counts each time one reports (every 5 ms). */
export class WorkerMembers {
  /** Rejects when a member fails or ends before close(). */
  readonly failed: Promise<never>;
  private readonly workers: Worker[] = [];
  private closing = false;

  constructor(bootstrapServers: string[], stateDir: string, application: MemberApplication, members: number, progress: (counts: readonly number[]) => void) {
    const counts = new Array<number>(members).fill(0);
    let fail!: (error: unknown) => void;
    this.failed = new Promise<never>((_, reject) => (fail = reject));
    this.failed.catch(() => undefined);
    for (let member = 0; member < members; member++) {
      const data: MemberData = { benchMember: true, bootstrapServers, stateDir: `${stateDir}/member-${member}`, application };
      const worker = new Worker(__filename, { workerData: data });
      worker.on("error", fail);
      worker.on("exit", (code) => this.closing || fail(new Error(`${application.applicationId}: member ${member} exited with code ${code} at ${counts.join(" + ")} records`)));
      worker.on("message", (count: unknown) => {
        if (typeof count !== "number") return;
        counts[member] = count;
        progress(counts);
      });
      this.workers.push(worker);
    }
  }

  /** Asks every member to close its runtime (leaving the group), then ends its thread. */
  async close(): Promise<void> {
    this.closing = true;
    await Promise.all(this.workers.map((worker) => closeMember(worker)));
  }
}

/** Runs `members` members of the stateless topology until together they have processed `expected` records. */
export async function timeWorkerMembers(bootstrapServers: string[], stateDir: string, applicationId: string, output: string, members: number, expected: number): Promise<Timing> {
  const run = new RunProgress(expected);
  let done!: () => void;
  let stalled!: (error: unknown) => void;
  const finished = new Promise<void>((resolve, reject) => ((done = resolve), (stalled = reject)));
  const application: MemberApplication = { topology: "stateless", applicationId, input: STATELESS_INPUT, output };
  const group = new WorkerMembers(bootstrapServers, stateDir, application, members, (counts) => {
    try {
      if (run.observe(counts.reduce((sum, each) => sum + each, 0), () => `${applicationId}: ${members} members (${counts.join(" + ")})`)) done();
    } catch (error) {
      stalled(error);
    }
  });
  try {
    await Promise.race([finished, group.failed]);
    return run.timing();
  } finally {
    await group.close();
  }
}

async function closeMember(worker: Worker): Promise<void> {
  const closed = new Promise<void>((resolve) => {
    worker.on("message", (message) => message === "closed" && resolve());
    worker.once("exit", () => resolve());
  });
  worker.postMessage("close");
  await closed;
  await worker.terminate();
}

function memberRuntime({ bootstrapServers, stateDir, application }: MemberData): StreamsRuntime {
  const { topology, applicationId, input, output, streamsConfig } = application;
  const runtime = new StreamsRuntime({ bootstrapServers, streamsConfig: { ...streamsConfig, "state.dir": stateDir } });
  if (topology === "stateless") runtime.addProvider(statelessProvider(applicationId, input, output));
  else runtime.addProvider(new WordCountProvider(), { "application.id": applicationId, "input.topic": input, "output.topic": output });
  return runtime;
}

async function runMember(data: MemberData): Promise<void> {
  const runtime = memberRuntime(data);
  await runtime.start();
  const reporter = setInterval(() => parentPort!.postMessage(processedTotal(runtime, data.application.applicationId)), 5);
  parentPort!.once("message", async () => {
    clearInterval(reporter);
    await runtime.close();
    parentPort!.postMessage("closed");
  });
}

if (!isMainThread && (workerData as MemberData | undefined)?.benchMember) {
  // A failure rejects unhandled, which ends the thread with an error event for the WorkerMembers.
  void runMember(workerData as MemberData);
}
