/**
 * An SSE subscriber of a chaos run: follows one instance's `word-counts` stream, reconnects with Last-Event-ID
 * whenever the stream ends (the instance killed or restarted), and checks that ids never go backwards.
 */
import http from "node:http";

export interface SseFigures {
  events: number;
  reconnects: number;
  /** Events whose id was not above the previous one. */
  backwards: number;
}

export class SseWatch {
  readonly figures: SseFigures = { events: 0, reconnects: 0, backwards: 0 };
  private lastId: number | undefined;
  private request: http.ClientRequest | undefined;
  private stopped = false;

  constructor(private readonly url: () => string | undefined, private readonly path: string) {}

  start(): void {
    this.connect();
  }

  stop(): SseFigures {
    this.stopped = true;
    this.request?.destroy();
    return this.figures;
  }

  private connect(): void {
    if (this.stopped) return;
    const base = this.url();
    if (base === undefined) return void setTimeout(() => this.connect(), 500);
    const headers: Record<string, string> = { accept: "text/event-stream" };
    if (this.lastId !== undefined) headers["last-event-id"] = String(this.lastId);
    const request = http.get(`${base}${this.path}`, { headers }, (response) => {
      if (response.statusCode !== 200) {
        response.resume();
        return;
      }
      let partial = "";
      response.setEncoding("utf8");
      response.on("data", (chunk: string) => {
        partial += chunk;
        const frames = partial.split("\n\n");
        partial = frames.pop() ?? "";
        for (const frame of frames) this.onFrame(frame);
      });
    });
    this.request = request;
    const again = () => {
      if (this.stopped || this.request !== request) return;
      this.request = undefined;
      this.figures.reconnects++;
      setTimeout(() => this.connect(), 500);
    };
    request.on("error", again);
    request.on("close", again);
  }

  private onFrame(frame: string): void {
    const idLine = frame.split("\n").find((line) => line.startsWith("id: "));
    if (idLine === undefined) return;
    const id = Number(idLine.slice(4));
    if (this.lastId !== undefined && id <= this.lastId) this.figures.backwards++;
    this.lastId = id;
    this.figures.events++;
  }
}
