/**
 * Paced HTTP load from wrk (Debian package `wrk`), a C client whose own pauses do not show up in the latencies it
 * reports, unlike a Node.js client sharing this 2-core machine with the server. wrk itself is closed loop; a Lua
 * script keeps one schedule for all connections (a request is due every 1/rate s) and holds each connection back
 * until its request is due, so requests leave at the asked rate whatever the answers, as long as a connection is free.
 * wrk waits whole milliseconds, so requests leave in small bursts at millisecond edges (one or two at 2,000 req/s).
 * A response other than 200, and a POSTed query whose answer is not SUCCESS, count as errors, as in the Node.js
 * client; every response goes through the script, so that wrk's own work per response is the same for every route.
 */
import { execFile } from "node:child_process";
import * as fs from "node:fs";
import * as os from "node:os";
import * as path from "node:path";
import type { HttpLoadRequest, HttpLoadResult } from "./http-load";

function luaString(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

function pacingScript(bodies: string[], rate: number): string {
  return `
local ffi = require("ffi")
ffi.cdef[[ typedef struct { long tv_sec; long tv_nsec; } sluice_timespec; int clock_gettime(int clock, sluice_timespec *now); ]]
local clock = ffi.new("sluice_timespec")
local function now_ms()
  ffi.C.clock_gettime(1, clock)
  return tonumber(clock.tv_sec) * 1000 + tonumber(clock.tv_nsec) / 1e6
end
local bodies = { ${bodies.map(luaString).join(",\n")} }
local next_body = 0
local interval = 1000 / ${rate}
local due = nil
wrk.method = ${bodies.length > 0 ? '"POST"' : '"GET"'}
wrk.headers["Content-Type"] = "application/json"
function request()
  if #bodies == 0 then return wrk.format() end
  next_body = next_body % #bodies + 1
  return wrk.format(nil, nil, nil, bodies[next_body])
end
function delay()
  local now = now_ms()
  if due == nil or due < now - 1000 then due = now end
  due = due + interval
  local wait = due - now
  if wait < 0 then return 0 end
  return wait
end
local unsuccessful = 0
-- Every route's responses go through the script, so that the client does the same work per response whatever the
-- route: a paced query and the paced constant route it is compared with differ only on the server.
function response(status, headers, body)
  if status ~= 200 or (#bodies > 0 and not string.find(body, '"status":"SUCCESS"', 1, true)) then unsuccessful = unsuccessful + 1 end
end
function done(summary, latency, requests)
  local errors = summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout + unsuccessful
  io.write(string.format("SLUICE-RESULT %d %d %f %f %f %f\\n", summary.requests, errors, summary.duration / 1e6,
    latency:percentile(50) / 1000, latency:percentile(99) / 1000, latency.max / 1000))
end
`;
}

/** Runs wrk paced at `request.rate`; undefined when wrk is not installed. */
export async function pacedWithWrk(request: HttpLoadRequest & { rate: number }): Promise<HttpLoadResult | undefined> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sluice-wrk-"));
  const script = path.join(dir, "paced.lua");
  fs.writeFileSync(script, pacingScript(request.bodies, request.rate));
  try {
    const output = await new Promise<string | undefined>((resolve, reject) => {
      const args = ["-t1", `-c${request.connections}`, `-d${request.seconds}s`, "-s", script, request.url];
      execFile("wrk", args, { timeout: (request.seconds + 30) * 1000 }, (error, stdout) => {
        if (error && (error as NodeJS.ErrnoException).code === "ENOENT") resolve(undefined);
        else if (error) reject(new Error(`wrk failed: ${error.message}`));
        else resolve(stdout);
      });
    });
    if (output === undefined) return undefined;
    const line = /SLUICE-RESULT (\S+) (\S+) (\S+) (\S+) (\S+) (\S+)/.exec(output);
    if (!line) throw new Error(`wrk printed no result:\n${output}`);
    const [requests, errors, seconds, p50Ms, p99Ms, maxMs] = line.slice(1).map(Number);
    return { requests, errors, requestsPerSecond: requests / seconds, p50Ms, p99Ms, maxMs };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}
