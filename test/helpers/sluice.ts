/** Starting Sluice in-process for a test: HTTP on port 0, silent logs, no environment leaking in. */
import path from "node:path";
import { Kernel, type KernelOptions } from "../../kernel/kernel";

export const REPO_ROOT = path.resolve(__dirname, "..", "..", "..");
export const FIXTURES = path.join(REPO_ROOT, "test", "fixtures");

export interface RunningSluice {
  kernel: Kernel;
  url: string;
  close(): Promise<void>;
}

export async function startSluice(options: KernelOptions & { overrides?: Record<string, string> } = {}): Promise<RunningSluice> {
  const kernel = new Kernel({
    env: {},
    root: FIXTURES,
    ...options,
    overrides: { "server.port": "0", "log.level": "silent", "broker.port": "0", "broker.storage": "memory", ...options.overrides },
  });
  await kernel.start();
  return { kernel, url: `http://${kernel.serverAddress()}`, close: () => kernel.close() };
}

export interface HttpResult {
  status: number;
  headers: Headers;
  text: string;
  json: () => any;
}

export async function http(url: string, init?: RequestInit): Promise<HttpResult> {
  const response = await fetch(url, init);
  const text = await response.text();
  return { status: response.status, headers: response.headers, text, json: () => JSON.parse(text) };
}
