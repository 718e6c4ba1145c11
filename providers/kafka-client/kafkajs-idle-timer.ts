/**
 * kafkajs 2.2.4 keeps a 1 ms timer running on every connection once it has had one answer: its request queue
 * reschedules its pending-request check after each check, pending requests or not (tulios/kafkajs#1556, #1704,
 * unmerged upstream). Sluice's admin clients sit idle most of the time, and the loop cost about 7 % of the main
 * thread and a timer wake-up every millisecond in front of every HTTP request.
 *
 * The check is skipped when nothing waits and no broker throttle holds; a new request or an answer checks the
 * queue again as before. Requiring this module applies the change once per process.
 */
interface RequestQueueInternals {
  pending: unknown[];
  throttledUntil: number;
  scheduleCheckPendingRequests(): void;
}

// A module of kafkajs's own source, pinned with the package's exact version in package.json.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const RequestQueue = require("kafkajs/src/network/requestQueue") as { prototype: RequestQueueInternals };

const schedule = RequestQueue.prototype.scheduleCheckPendingRequests;
RequestQueue.prototype.scheduleCheckPendingRequests = function scheduleOnlyWhenNeeded(this: RequestQueueInternals): void {
  if (this.pending.length === 0 && this.throttledUntil <= Date.now()) return;
  schedule.call(this);
};
