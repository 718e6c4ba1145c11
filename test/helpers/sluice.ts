/** Starting Sluice in-process for a test: HTTP on port 0, silent logs, no environment leaking in. */
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Kernel, type KernelOptions } from "../../kernel/kernel";

export const REPO_ROOT = path.resolve(__dirname, "..", "..", "..");
export const FIXTURES = path.join(REPO_ROOT, "test", "fixtures");

export interface RunningSluice {
  kernel: Kernel;
  url: string;
  close(): Promise<void>;
}

/** State goes to a fresh temp folder (removed at close) unless `streams.state.dir` is given. */
export async function startSluice(options: KernelOptions & { overrides?: Record<string, string> } = {}): Promise<RunningSluice> {
  const stateDir = options.overrides?.["streams.state.dir"] ? undefined : fs.mkdtempSync(path.join(os.tmpdir(), "sluice-test-state-"));
  const kernel = new Kernel({
    env: {},
    root: FIXTURES,
    ...options,
    overrides: {
      "server.port": "0",
      "log.level": "silent",
      "broker.port": "0",
      "broker.storage": "memory",
      ...(stateDir ? { "streams.state.dir": stateDir } : {}),
      ...options.overrides,
    },
  });
  const removeState = () => stateDir && fs.rmSync(stateDir, { recursive: true, force: true });
  try {
    await kernel.start();
  } catch (error) {
    removeState();
    throw error;
  }
  return {
    kernel,
    url: `http://${kernel.serverAddress()}`,
    close: async () => {
      await kernel.close();
      removeState();
    },
  };
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  json: () => any;
}

export async function http(url: string, init?: RequestInit): Promise<HttpResult> {
  // fetch's own message is "fetch failed": the cause (a refused or reset connection, say) is what tells.
  const response = await fetch(url, init).catch((error: Error) => {
    throw new Error(`${init?.method ?? "GET"} ${url}: ${error.message} (${String((error.cause as Error | undefined)?.message ?? error.cause)})`, { cause: error });
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}
