/**
 * Apache Kafka's own Java programs from the reference test bed (`reference/setup` resolves the jars and writes their
 * classpath): its command-line tools, run as child processes the way an operator runs them.
 */
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { REPO_ROOT } from "./sluice";

const CLASSPATH_FILE = path.join(REPO_ROOT, "reference", "target", "classpath.txt");

/** The reference jars' classpath, or undefined when `reference/setup` has not run on this machine (no JDK needed then). */
export function referenceClasspath(): string | undefined {
  if (!fs.existsSync(CLASSPATH_FILE)) return undefined;
  return `${fs.readFileSync(CLASSPATH_FILE, "utf8").trim()}${path.delimiter}${path.join(REPO_ROOT, "reference", "target", "classes")}`;
}

export interface JavaResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs a main class of the reference jars without blocking this process's event loop. */
export function runJava(classpath: string, mainClass: string, args: string[], timeoutMs = 60_000): Promise<JavaResult> {
  return new Promise((resolve) => {
    execFile("java", ["-cp", classpath, mainClass, ...args], { timeout: timeoutMs, maxBuffer: 16 * 1024 * 1024 }, (error, stdout, stderr) =>
      resolve({ code: error ? (typeof error.code === "number" ? error.code : -1) : 0, stdout, stderr }),
    );
  });
}
