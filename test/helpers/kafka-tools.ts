/**
 * Apache Kafka's command-line tools from the reference jars (`reference/bin/<tool>`, the names of Kafka's
 * bin/*.sh without ".sh"), run as child processes with a deadline. The reference tier needs them: a missing JDK
 * or classpath is an error that says what to run, never a skip.
 */
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./sluice";

export const REFERENCE_DIR = path.join(REPO_ROOT, "reference");
export const REFERENCE_BIN = path.join(REFERENCE_DIR, "bin");

export type KafkaToolName =
  | "kafka-topics"
  | "kafka-consumer-groups"
  | "kafka-console-consumer"
  | "kafka-console-producer"
  | "kafka-configs"
  | "kafka-broker-api-versions"
  | "kafka-metadata-quorum"
  | "kafka-get-offsets"
  | "kafka-dump-log"
  | "kafka-storage"
  | "kafka-server-start";

export interface ToolResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface ToolOptions {
  /** Written to the tool's stdin, which is then closed. */
  input?: string;
  /** The tool is killed (SIGKILL) after this long and the promise rejects. Default 60 s. */
  timeoutMs?: number;
  env?: NodeJS.ProcessEnv;
}

/** The Apache Kafka version the reference bed is pinned to (reference/pom.xml). */
export function referenceKafkaVersion(): string {
  const pom = fs.readFileSync(path.join(REFERENCE_DIR, "pom.xml"), "utf8");
  const version = /<kafka\.version>([^<]+)<\/kafka\.version>/.exec(pom)?.[1];
  if (!version) throw new Error("reference/pom.xml names no kafka.version");
  return version;
}

/** Throws, saying what to do, unless `reference/setup` has resolved the jars. */
export function requireReferenceJars(): void {
  const classpath = path.join(REFERENCE_DIR, "target", "classpath.txt");
  if (!fs.existsSync(classpath)) throw new Error(`${classpath} is missing: run reference/setup (JDK 17+ and Maven needed)`);
  const missing = fs.readFileSync(classpath, "utf8").trim().split(":").find((jar) => !fs.existsSync(jar));
  if (missing) throw new Error(`the reference jar ${missing} is missing: run reference/setup`);
}

export interface RunningTool {
  child: ChildProcess;
  /** Resolves when the tool has exited (rejects after the deadline, having killed it). */
  result: Promise<ToolResult>;
}

/**
 * Starts `reference/bin/<tool> args…`, or with `tool: "class"` any main class of the reference classpath
 * (`reference/bin/kafka-run-class <args>`). Its stdin is a pipe when `options.input` is given: written, then closed;
 * pass `input: null` to keep it open for the caller (child.stdin).
 */
export function startKafkaTool(tool: KafkaToolName | "class", args: string[], options: Omit<ToolOptions, "input"> & { input?: string | null } = {}): RunningTool {
  requireReferenceJars();
  const child = spawn(path.join(REFERENCE_BIN, tool === "class" ? "kafka-run-class" : tool), args, {
    env: { ...process.env, ...options.env },
    stdio: [options.input === undefined ? "ignore" : "pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout!.on("data", (chunk) => (stdout += chunk));
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  if (typeof options.input === "string") child.stdin!.end(options.input);
  const timeoutMs = options.timeoutMs ?? 60_000;
  const result = new Promise<ToolResult>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`${tool} ${args.join(" ")} did not end within ${timeoutMs} ms; stderr: ${stderr}`));
    }, timeoutMs);
    child.once("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
  return { child, result };
}

/** Runs `reference/bin/<tool> args…` to its end (exit code, whole stdout and stderr). */
export function runKafkaTool(tool: KafkaToolName | "class", args: string[], options: ToolOptions = {}): Promise<ToolResult> {
  return startKafkaTool(tool, args, options).result;
}

/** Like runKafkaTool, but rejects unless the tool exits 0; resolves its stdout. */
export async function kafkaTool(tool: KafkaToolName | "class", args: string[], options: ToolOptions = {}): Promise<string> {
  const result = await runKafkaTool(tool, args, options);
  if (result.code !== 0) throw new Error(`${tool} ${args.join(" ")} exited with ${result.code}: ${result.stderr}${result.stdout}`);
  return result.stdout;
}
